import * as assert from "node:assert/strict";
import { AuthenticationError, ServerError } from "../../provider";
import { UNKNOWN } from "../../provider/resources/inputs";
import { getConfig, provider, rejection, startRun, useProviderAgainstEmulator, writes } from "../support/provider";

const field = provider("ConfigField");
const GLOBAL = { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "hs_pipeline" };
const WORKFLOW = { ...GLOBAL, fieldId: "hs_contact_owner", workflowId: "wf_hs_contact_sync" };
const OPTIONS = [
  { name: "Sales", value: "sales" },
  { name: "Partners", value: "partners" },
];

describe("ConfigField provider", () => {
  const ctx = useProviderAgainstEmulator();

  describe("check", () => {
    it("accepts complete inputs unchanged", async () => {
      const inputs = { ...GLOBAL, name: "Pipeline", options: OPTIONS, labels: [] };
      assert.deepEqual(await field.check({}, inputs), { inputs, failures: [] });
    });

    it("returns one failure per bad property, naming it, and makes no request", async () => {
      const result = await field.check(
        {},
        { slug: "", linkedAccountId: "  ", fieldId: 7, options: [{ name: "a", value: 1 }], labels: "x", colour: "red" },
      );
      assert.deepEqual(
        result.failures?.map((f) => [f.property, f.reason]),
        [
          ["slug", "must not be empty or whitespace"],
          ["linkedAccountId", "must not be empty or whitespace"],
          ["configId", "is required"],
          ["fieldId", "must be a string, not a number"],
          ["options", "[0].value: must be a string, not a number"],
          ["labels", "must be a list of {name, value} objects, not a string"],
          [
            "colour",
            "is not a property of this resource (expected one of slug, linkedAccountId, configId, fieldId, workflowId, name, options, labels, value, restoreOnDelete)",
          ],
        ],
      );
      assert.equal(ctx.emulator.requests.list().length, 0);
    });

    it("lets unknown values through, even nested and in non-string properties", async () => {
      const news = { ...GLOBAL, fieldId: UNKNOWN, options: [{ name: "Sales", value: UNKNOWN }], labels: UNKNOWN };
      const result = await field.check({}, news);
      assert.deepEqual(result.failures, []);
      assert.deepEqual(result.inputs, news);
    });
  });

  describe("diff", () => {
    const olds = { ...GLOBAL, name: "Pipeline", field: { id: "hs_pipeline" }, previous: {} };
    it("reports no change when the user's properties are equal, whatever the outputs hold", async () => {
      assert.deepEqual(await field.diff("id", olds, { ...GLOBAL, name: "Pipeline" }), { changes: false, replaces: [] });
    });
    it("updates in place for name, options and labels", async () => {
      assert.deepEqual(await field.diff("id", olds, { ...GLOBAL, name: "Deals" }), { changes: true, replaces: [] });
      assert.deepEqual(
        await field.diff("id", olds, { ...GLOBAL }),
        { changes: true, replaces: [] },
        "dropping a managed property restores it",
      );
    });
    it("replaces for every identity property, and for an unknown one", async () => {
      for (const key of ["slug", "linkedAccountId", "configId", "fieldId", "workflowId"]) {
        const result = await field.diff("id", olds, { ...GLOBAL, name: "Pipeline", [key]: "other" });
        assert.deepEqual(result.replaces, [key]);
      }
      assert.deepEqual((await field.diff("id", olds, { ...GLOBAL, name: "Pipeline", slug: UNKNOWN })).replaces, [
        "slug",
      ]);
    });
  });

  describe("lifecycle", () => {
    it("creates a global field, reads it back, updates, and restores it on delete", async () => {
      const before = (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!;
      const created = await field.create({ ...GLOBAL, name: "Sales pipeline", options: OPTIONS });
      assert.equal(created.id, "acme/hubspot/acme//hs_pipeline");
      assert.equal(created.outs.field.fieldType, "select");
      assert.equal(created.outs.field.required, false);
      assert.deepEqual(created.outs.previous, { name: before.name, options: before.options });

      let live = (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!;
      assert.equal(live.name, "Sales pipeline");
      assert.deepEqual(live.options, OPTIONS);
      assert.deepEqual(
        writes(ctx.emulator).map((r) => `${r.method} ${r.path}`),
        ["PUT /api/v2/public/config/field/hs_pipeline"],
      );

      const read = await field.read(created.id, created.outs);
      assert.deepEqual(
        read,
        { id: created.id, props: created.outs, inputs: { ...GLOBAL, name: "Sales pipeline", options: OPTIONS } },
        "no drift, no change",
      );

      const updated = await field.update(created.id, created.outs, { ...GLOBAL, options: OPTIONS.slice(0, 1) });
      live = (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!;
      assert.equal(live.name, before.name, "the name the user stopped managing is restored");
      assert.deepEqual(live.options, OPTIONS.slice(0, 1));
      assert.equal(updated.outs.name, undefined);

      startRun(ctx.emulator); // the delete comes from a later `pulumi` run

      await field.delete(created.id, updated.outs);
      live = (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!;
      assert.deepEqual(live, before);
    });

    it("sets a value with the {value} body, sees it drift, stops managing it, and puts the value found back on delete", async () => {
      const SYNC = { ...GLOBAL, fieldId: "hs_sync_limit" };
      const liveValue = async () => {
        const fields = (await getConfig(ctx.emulator, "acme", "hubspot")).fields as { id: string; value?: unknown }[];
        return fields.find((f) => f.id === "hs_sync_limit")?.value;
      };
      assert.equal(await liveValue(), null);
      const created = await field.create({ ...SYNC, value: 250 });
      assert.deepEqual(
        writes(ctx.emulator).map((r) => `${r.method} ${r.path}`),
        ["PUT /api/v2/public/config/field/hs_sync_limit"],
        "one write, in the platform reference's {value} body (the emulator sets only the value from it)",
      );
      assert.equal(await liveValue(), 250);
      assert.equal(created.outs.previousValue, null, "the field held no value before");

      // Changed in the portal: drift on read, in the props and the inputs.
      await ctx.emulator.store.configs.updateField(
        {
          key: { linkedAccountId: "acme", slug: "hubspot", configId: "acme" },
          fieldId: "hs_sync_limit",
          workflowId: undefined,
          update: { form: "value", value: 500 },
        },
        "api_key",
      );
      const read = await field.read(created.id, created.outs);
      assert.equal(read.props.value, 500);
      assert.equal((read.inputs as { value: unknown }).value, 500);

      ctx.emulator.requests.clear();
      const updated = await field.update(created.id, created.outs, { ...SYNC, value: 300 });
      assert.equal(await liveValue(), 300);
      assert.equal(updated.outs.previousValue, null, "what create found stays what delete puts back");
      const dropped = await field.update(created.id, updated.outs, { ...SYNC });
      assert.equal(await liveValue(), null, "a value no longer declared goes back to what was found");
      assert.equal(dropped.outs.previousValue, undefined);

      const again = await field.update(created.id, dropped.outs, { ...SYNC, value: 400 });
      assert.equal(again.outs.previousValue, null, "managed again: what the field holds now is recorded");
      startRun(ctx.emulator); // the delete comes from a later `pulumi` run
      await field.delete(created.id, again.outs);
      assert.equal(await liveValue(), null);
    });

    it("restoreOnDelete wins over what create recorded, and changing it writes nothing", async () => {
      const created = await field.create({ ...GLOBAL, name: "Sales pipeline" });
      ctx.emulator.requests.clear();
      const declared = {
        ...GLOBAL,
        name: "Sales pipeline",
        restoreOnDelete: { name: "Deal pipeline", labels: [{ name: "team", value: "ops" }] },
      };
      const updated = await field.update(created.id, created.outs, declared);
      assert.deepEqual(writes(ctx.emulator), [], "restoreOnDelete acts at delete only");
      startRun(ctx.emulator); // the delete comes from a later `pulumi` run
      await field.delete(created.id, updated.outs);
      const live = (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!;
      assert.equal(live.name, "Deal pipeline", "not the recorded Pipeline");
      assert.deepEqual(live.labels, [{ name: "team", value: "ops" }]);
    });

    it("puts a workflow field in workflows[{id, fields}]", async () => {
      const created = await field.create({ ...WORKFLOW, labels: [{ name: "team", value: "sales" }] });
      const config = await getConfig(ctx.emulator, "acme", "hubspot");
      const live = config.workflows
        .find((w) => w.id === "wf_hs_contact_sync")!
        .fields.find((f) => f.id === "hs_contact_owner")!;
      assert.deepEqual(live.labels, [{ name: "team", value: "sales" }]);
      assert.equal(created.outs.field.fieldType, "text");
      startRun(ctx.emulator); // the delete comes from a later `pulumi` run
      await field.delete(created.id, created.outs);
      const restored = (await getConfig(ctx.emulator, "acme", "hubspot")).workflows.find(
        (w) => w.id === "wf_hs_contact_sync",
      )!;
      assert.deepEqual(restored.fields.find((f) => f.id === "hs_contact_owner")!.labels, []);
    });

    it("does not call what the platform may return differently drift: list order, whitespace around a name, null for []", async () => {
      const created = await field.create({ ...GLOBAL, name: "Sales pipeline", options: OPTIONS, labels: [] });
      const config = ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
      const stored = ctx.emulator.store.configs.fieldState(config, null, "hs_pipeline");
      stored.name = "  Sales pipeline ";
      stored.options = [...OPTIONS].reverse();
      stored.labels = null as unknown as typeof stored.labels;
      startRun(ctx.emulator); // a later `pulumi refresh`
      const read = await field.read(created.id, created.outs);
      assert.deepEqual(read.inputs, { ...GLOBAL, name: "Sales pipeline", options: OPTIONS, labels: [] });
      assert.deepEqual(
        await field.diff(created.id, read.props!, { ...GLOBAL, name: "Sales pipeline", options: OPTIONS, labels: [] }),
        { changes: false, replaces: [] },
      );
    });

    it("shows drift on read, and drops a resource whose config is gone", async () => {
      const created = await field.create({ ...GLOBAL, name: "Sales pipeline" });
      const config = ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
      ctx.emulator.store.configs.fieldState(config, null, "hs_pipeline").name = "Renamed by hand";
      const drifted = await field.read(created.id, created.outs);
      assert.equal(drifted.props?.name, "Renamed by hand");
      assert.deepEqual(
        drifted.inputs,
        { ...GLOBAL, name: "Renamed by hand" },
        "the inputs show the drift, so the next preview's diff of inputs does too",
      );
      assert.deepEqual(await field.diff(created.id, drifted.props!, { ...GLOBAL, name: "Sales pipeline" }), {
        changes: true,
        replaces: [],
      });

      await ctx.emulator.store.update((state) => {
        state.configs = state.configs.filter((c) => !(c.linked_account_id === "acme" && c.slug === "hubspot"));
      });
      startRun(ctx.emulator); // a later `pulumi refresh`
      assert.deepEqual(await field.read(created.id, created.outs), { id: "", props: {} });
      startRun(ctx.emulator); // the delete comes from a later `pulumi` run
      ctx.emulator.requests.clear();
      await field.delete(created.id, created.outs);
      // It tried to restore, heard that the config is gone, and left the platform as it was.
      const tried = ctx.emulator.requests.list();
      assert.deepEqual(
        tried.map((r) => `${r.method} ${r.path}`),
        ["PUT /api/v2/public/config/field/hs_pipeline"],
      );
      assert.ok(tried[0].status >= 400 && tried[0].status < 500, `answered ${tried[0].status}`);
      assert.equal(
        ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" }),
        undefined,
      );
    });
  });

  it("shares one config read between the refresh of the fields and toggles of a config", async () => {
    const created = await field.create({ ...GLOBAL, name: "Sales pipeline" });
    const toggle = provider("WorkflowToggle");
    const enabled = await toggle.create({
      slug: "hubspot",
      linkedAccountId: "acme",
      configId: "acme",
      workflowId: "wf_hs_deal_alerts",
      enabled: true,
    });
    startRun(ctx.emulator); // `pulumi refresh`
    ctx.emulator.requests.clear();
    await Promise.all([field.read(created.id, created.outs), toggle.read(enabled.id, enabled.outs)]);
    await field.read(created.id, created.outs);
    assert.deepEqual(
      ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}`),
      ["GET /api/v2/public/slug/hubspot/config/acme"],
    );
  });

  it("adopts a field that already holds the declared values: one read, no write", async () => {
    const live = (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!;
    ctx.emulator.requests.clear();
    const created = await field.create({ ...GLOBAL, name: live.name });
    assert.deepEqual(
      ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}`),
      ["GET /api/v2/public/slug/hubspot/config/acme"],
    );
    assert.deepEqual(created.outs.previous, { name: live.name });
    assert.equal(created.outs.field.id, "hs_pipeline");
    // One declared value that differs is enough to write.
    startRun(ctx.emulator);
    await field.create({ ...GLOBAL, name: live.name, labels: [{ name: "team", value: "sales" }] });
    assert.deepEqual(
      writes(ctx.emulator).map((r) => `${r.method} ${r.path}`),
      ["PUT /api/v2/public/config/field/hs_pipeline"],
    );
  });

  it("shares one config read between the creates of a config's fields and toggles", async () => {
    const toggle = provider("WorkflowToggle");
    await Promise.all([
      field.create({ ...GLOBAL, name: "Deals" }),
      field.create({ ...WORKFLOW, name: "Owner" }),
      toggle.create({
        slug: "hubspot",
        linkedAccountId: "acme",
        configId: "acme",
        workflowId: "wf_hs_deal_alerts",
        enabled: true,
      }),
    ]);
    const requests = ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(
      requests.filter((r) => r.startsWith("GET")),
      ["GET /api/v2/public/slug/hubspot/config/acme"],
    );
    assert.equal(requests.length, 4, "one read and three writes");
  });

  it("leaves the field to the new resource when it was renamed without aliases", async () => {
    const before = (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!;
    const old = await field.create({ ...GLOBAL, name: "Sales pipeline" });
    // The rename's run: the engine creates the new resource first, then deletes the old one.
    startRun(ctx.emulator);
    const renamed = await field.create({ ...GLOBAL, name: "Sales pipeline" });
    await field.delete(old.id, old.outs);
    assert.equal(
      (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!.name,
      "Sales pipeline",
    );
    // A later destroy of the new resource still restores what the field held when it took over.
    startRun(ctx.emulator);
    await field.delete(renamed.id, renamed.outs);
    assert.equal(
      (await getConfig(ctx.emulator, "acme", "hubspot")).fields.find((f) => f.id === "hs_pipeline")!.name,
      "Sales pipeline",
    );
    assert.notEqual(before.name, "Sales pipeline");
  });

  describe("API errors", () => {
    it("names the field and what to check when it does not exist", async () => {
      const error = await rejection(field.create({ ...GLOBAL, fieldId: "no_such_field", name: "x" }));
      assert.match(
        error.message,
        /field no_such_field \(app hubspot, linked account acme, config acme\).*Check fieldId and workflowId/,
      );
    });

    it("refuses a field of a draft workflow with advice", async () => {
      const error = await rejection(
        field.create({ ...GLOBAL, fieldId: "hs_score_model", workflowId: "wf_hs_lead_scoring", name: "x" }),
      );
      assert.match(error.message, /workflow wf_hs_lead_scoring is not a published workflow/);
    });

    it("maps a refused API key to AuthenticationError naming the config key, without the key", async () => {
      startRun(ctx.emulator, { "integration-platform:apiKey": "tk_wrong_secret_value" });
      const error = await rejection(field.create({ ...GLOBAL, name: "x" }));
      assert.ok(error instanceof AuthenticationError);
      assert.match(
        error.message,
        /^401 from GET \/slug\/hubspot\/config\/acme: Invalid Credentials: the API key was refused; check `integration-platform:apiKey`/,
      );
      assert.doesNotMatch(error.message + String(error.stack), /tk_wrong_secret_value/);
    });

    it("retries a 500 and gives a ServerError naming the operation when it persists", async () => {
      ctx.emulator.faults.add([{ method: "PUT", path: "^/api/v2/public/config/field/", action: { status: 500 } }]);
      const error = await rejection(field.create({ ...GLOBAL, name: "x" }));
      assert.ok(error instanceof ServerError);
      assert.match(error.message, /^500 from PUT \/config\/field\/hs_pipeline \(after 3 attempts\)/);
      assert.equal(writes(ctx.emulator).length, 3);
    });
  });
});

import * as assert from "node:assert/strict";
import { BadRequestError } from "../../provider";
import { UNKNOWN } from "../../provider/resources/inputs";
import { getConfig, provider, rejection, startRun, useProviderAgainstEmulator, writes } from "../support/provider";

const toggle = provider("WorkflowToggle");
const DEAL_ALERTS = { slug: "hubspot", linkedAccountId: "acme", configId: "acme", workflowId: "wf_hs_deal_alerts" };

async function enabled(emulator: Parameters<typeof getConfig>[0], workflowId: string, account = "acme") {
  return (await getConfig(emulator, account, "hubspot")).workflows.find((w) => w.id === workflowId)?.enabled;
}

describe("WorkflowToggle provider", () => {
  const ctx = useProviderAgainstEmulator();

  it("check refuses an `enabled` that is not a boolean, and a missing id, without a request", async () => {
    const result = await toggle.check({}, { ...DEAL_ALERTS, workflowId: undefined, enabled: "true" });
    assert.deepEqual(result.failures, [
      { property: "workflowId", reason: "is required" },
      { property: "enabled", reason: "must be true or false, not a string" },
    ]);
    assert.deepEqual((await toggle.check({}, { ...DEAL_ALERTS })).failures, [
      { property: "enabled", reason: "is required" },
    ]);
    assert.equal(ctx.emulator.requests.list().length, 0);
    assert.deepEqual((await toggle.check({}, { ...DEAL_ALERTS, enabled: UNKNOWN })).failures, []);
  });

  it("diff replaces for identity and updates `enabled` in place", async () => {
    const olds = { ...DEAL_ALERTS, enabled: true, previousEnabled: false };
    assert.deepEqual(await toggle.diff("id", olds, { ...DEAL_ALERTS, enabled: true }), {
      changes: false,
      replaces: [],
    });
    assert.deepEqual(await toggle.diff("id", olds, { ...DEAL_ALERTS, enabled: false }), {
      changes: true,
      replaces: [],
    });
    assert.deepEqual((await toggle.diff("id", olds, { ...DEAL_ALERTS, configId: "other", enabled: true })).replaces, [
      "configId",
    ]);
  });

  it("enables, shows drift, updates, and restores the previous state on delete", async () => {
    assert.equal(await enabled(ctx.emulator, "wf_hs_deal_alerts"), false);
    const created = await toggle.create({ ...DEAL_ALERTS, enabled: true });
    assert.equal(created.id, "acme/hubspot/acme/wf_hs_deal_alerts");
    assert.equal(created.outs.previousEnabled, false);
    assert.equal(await enabled(ctx.emulator, "wf_hs_deal_alerts"), true);
    assert.deepEqual(
      writes(ctx.emulator).map((r) => r.method + " " + r.path),
      ["PUT /api/v2/public/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts"],
    );

    const config = ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
    ctx.emulator.store.configs.workflowState(config, "wf_hs_deal_alerts").enabled = false;
    const drifted = await toggle.read(created.id, created.outs);
    assert.equal(drifted.props?.enabled, false);
    assert.deepEqual(drifted.inputs, { ...DEAL_ALERTS, enabled: false }, "the inputs show the drift too");

    const updated = await toggle.update(created.id, drifted.props!, { ...DEAL_ALERTS, enabled: true });
    assert.equal(updated.outs.enabled, true);
    assert.equal(await enabled(ctx.emulator, "wf_hs_deal_alerts"), true);

    startRun(ctx.emulator); // the delete comes from a later `pulumi` run

    await toggle.delete(created.id, updated.outs);
    assert.equal(await enabled(ctx.emulator, "wf_hs_deal_alerts"), false);
  });

  it("restoreOnDelete wins over previousEnabled, and changing it writes nothing", async () => {
    const created = await toggle.create({ ...DEAL_ALERTS, enabled: true });
    assert.equal(created.outs.previousEnabled, false);
    ctx.emulator.requests.clear();
    const updated = await toggle.update(created.id, created.outs, {
      ...DEAL_ALERTS,
      enabled: true,
      restoreOnDelete: true,
    });
    assert.deepEqual(writes(ctx.emulator), [], "restoreOnDelete acts at delete only");
    startRun(ctx.emulator);
    await toggle.delete(created.id, updated.outs);
    assert.deepEqual(writes(ctx.emulator), [], "restoring true over true sends nothing");
    assert.equal(await enabled(ctx.emulator, "wf_hs_deal_alerts"), true, "not put back to the recorded false");
  });

  it("adopts a workflow already in the declared state: one read, no write, and delete leaves it as found", async () => {
    const created = await toggle.create({ ...DEAL_ALERTS, workflowId: "wf_hs_contact_sync", enabled: true });
    assert.deepEqual(
      ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}`),
      ["GET /api/v2/public/slug/hubspot/config/acme"],
    );
    assert.equal(created.outs.previousEnabled, true);
    startRun(ctx.emulator);
    await toggle.delete(created.id, created.outs);
    assert.deepEqual(writes(ctx.emulator), []);
    assert.equal(await enabled(ctx.emulator, "wf_hs_contact_sync"), true);
  });

  it("read drops the resource when its config is gone; delete of a gone config succeeds", async () => {
    const created = await toggle.create({ ...DEAL_ALERTS, enabled: true });
    await ctx.emulator.store.update((state) => {
      state.configs = state.configs.filter((c) => c.linked_account_id !== "acme");
    });
    assert.deepEqual(await toggle.read(created.id, created.outs), { id: "", props: {} });
    startRun(ctx.emulator); // the delete comes from a later `pulumi` run
    ctx.emulator.requests.clear();
    await toggle.delete(created.id, created.outs);
    // It tried to restore, heard that the config is gone, and left the platform as it was.
    assert.deepEqual(
      ctx.emulator.requests.list().map((r) => `${r.method} ${r.path} ${r.status}`),
      ["PUT /api/v2/public/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts 404"],
    );
    assert.equal(
      ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" }),
      undefined,
    );
  });

  it("gives a clear error for a draft workflow", async () => {
    const error = await rejection(toggle.create({ ...DEAL_ALERTS, workflowId: "wf_hs_lead_scoring", enabled: true }));
    assert.ok(error instanceof BadRequestError);
    assert.match(
      error.message,
      /^Workflow wf_hs_lead_scoring of app hubspot is a draft, and the platform blocks drafts from public routes \(400 from PUT \/slug\/hubspot\/config\/acme\/workflows\/wf_hs_lead_scoring: .*\)\. Publish it, then run again\.$/,
    );
  });

  it("names the unknown config", async () => {
    const error = await rejection(toggle.create({ ...DEAL_ALERTS, configId: "nope", enabled: true }));
    assert.match(error.message, /^404 from GET \/slug\/hubspot\/config\/nope: Config with config id nope not found/);
  });
});

import * as assert from "node:assert/strict";
import { UNKNOWN } from "../../provider/resources/inputs";
import { provider, rejection, startRun, useProviderAgainstEmulator, writes } from "../support/provider";
import { FIXTURE } from "../../harness/fixture";

const envValue = provider("EnvVariableValue");
const QUOTA = { definitionId: FIXTURE.definitions.accountQuota, linkedAccountId: "globex", value: "250" };

describe("EnvVariableValue provider", () => {
  const ctx = useProviderAgainstEmulator();

  describe("check", () => {
    it("refuses bad local input without any request", async () => {
      const result = await envValue.check({}, { definitionId: " ", value: 42, workflowId: "" });
      assert.deepEqual(result.failures, [
        // Failures come in declaration order: identity first, then settings.
        { property: "definitionId", reason: "must not be empty or whitespace" },
        { property: "workflowId", reason: "must not be empty or whitespace" },
        { property: "value", reason: "must be a string, not a number" },
      ]);
      // A missing value arrives as null (the constructor wraps it in pulumi.secret()).
      assert.deepEqual(
        (await envValue.check({}, { definitionId: FIXTURE.definitions.accountQuota, value: null })).failures,
        [{ property: "value", reason: "is required" }],
      );
      assert.equal(ctx.emulator.requests.list().length, 0);
    });

    it("lists the definitions once to check the value's scope and format, never echoing the value", async () => {
      const secretish = "not-a-number-s3cr3t";
      const result = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.accountQuota, value: secretish, workflowId: "wf_hs_contact_sync" },
      );
      assert.deepEqual(result.failures, [
        { property: "linkedAccountId", reason: "is required: definition ACCOUNT_QUOTA has scope linked_account" },
        { property: "workflowId", reason: "must not be set: definition ACCOUNT_QUOTA has scope linked_account" },
        { property: "value", reason: "must be a number, because the definition's var_format is number" },
      ]);
      assert.doesNotMatch(JSON.stringify(result.failures), /s3cr3t/);
      assert.deepEqual(
        ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}`),
        ["GET /api/v2/public/env/definitions"],
      );
    });

    it("checks url values, and scopes without ids", async () => {
      const url = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.apiBaseUrl, value: "ftp://x", linkedAccountId: "acme" },
      );
      assert.deepEqual(url.failures, [
        { property: "linkedAccountId", reason: "must not be set: definition API_BASE_URL has scope org" },
        { property: "value", reason: "must be an absolute http(s) URL, because the definition's var_format is url" },
      ]);
    });

    it("lists the definitions once per connection, however many values and definitions are checked", async () => {
      for (const linkedAccountId of ["acme", "globex", "initech"])
        await envValue.check({}, { ...QUOTA, linkedAccountId });
      await envValue.check({}, { definitionId: FIXTURE.definitions.apiBaseUrl, value: "https://x.example" });
      assert.deepEqual(
        ctx.emulator.requests.list().map((r) => `${r.path}?${new URLSearchParams(r.query as Record<string, string>)}`),
        ["/api/v2/public/env/definitions?page=1&limit=100"],
      );
    });

    it("with a bearer token alone (definitions are listed with the API key only), reads each definition by id, once", async () => {
      startRun(ctx.emulator, { "integration-platform:apiKey": "", "integration-platform:token": ctx.emulator.token });
      for (const linkedAccountId of ["acme", "globex"]) await envValue.check({}, { ...QUOTA, linkedAccountId });
      assert.deepEqual(
        ctx.emulator.requests.list().map((r) => r.path),
        [`/api/v2/public/env/definitions/${FIXTURE.definitions.accountQuota}`],
      );
    });

    it("names an unknown definition", async () => {
      const result = await envValue.check({}, { definitionId: "64f0000000000000000000dd", value: "x" });
      assert.deepEqual(result.failures, [
        { property: "definitionId", reason: 'no env variable definition has the id "64f0000000000000000000dd"' },
      ]);
    });

    it("adds the definition's scope, and makes no request when nothing changed since the last check", async () => {
      const first = await envValue.check({}, QUOTA);
      assert.deepEqual(first, { inputs: { ...QUOTA, scope: "linked_account", encrypted: false }, failures: [] });
      ctx.emulator.requests.clear();
      assert.deepEqual(await envValue.check(first.inputs, QUOTA), first);
      assert.equal(ctx.emulator.requests.list().length, 0);
    });

    it("passes unknown values through, skipping the read when the definition is unknown", async () => {
      assert.deepEqual((await envValue.check({}, { ...QUOTA, definitionId: UNKNOWN })).failures, []);
      assert.equal(ctx.emulator.requests.list().length, 0);
      assert.deepEqual((await envValue.check({}, { ...QUOTA, value: UNKNOWN })).failures, []);
    });
  });

  describe("lifecycle", () => {
    it("creates with one write, reads drift, updates in place and deletes", async () => {
      const { inputs } = await envValue.check({}, QUOTA);
      ctx.emulator.requests.clear();
      const created = await envValue.create(inputs);
      assert.deepEqual(
        writes(ctx.emulator).map((r) => `${r.method} ${r.path}`),
        ["POST /api/v2/public/env/values"],
      );
      const stored = ctx.emulator.store.envVariables.value(created.id)!;
      assert.equal(stored.value, "250");

      stored.value = "999";
      const drifted = await envValue.read(created.id, created.outs);
      assert.equal(drifted.props?.value, "999");
      assert.deepEqual(await envValue.diff(created.id, drifted.props!, inputs), { changes: true, replaces: [] });

      await envValue.update(created.id, drifted.props!, { ...inputs, value: "300" });
      assert.equal(ctx.emulator.store.envVariables.value(created.id)!.value, "300", "updated in place, same id");

      startRun(ctx.emulator); // the delete comes from a later `pulumi` run

      await envValue.delete(created.id, created.outs);
      assert.equal(ctx.emulator.store.envVariables.value(created.id), undefined);
      startRun(ctx.emulator); // the delete comes from a later `pulumi` run
      ctx.emulator.requests.clear();
      await envValue.delete(created.id, created.outs); // a 404 counts as success
      assert.deepEqual(
        ctx.emulator.requests.list().map((r) => `${r.method} ${r.status}`),
        ["DELETE 404"],
      );
      assert.deepEqual(await envValue.read(created.id, created.outs), { id: "", props: {} });
    });

    it("keeps the value when its resource was renamed without aliases", async () => {
      const { inputs } = await envValue.check({}, QUOTA);
      const old = await envValue.create(inputs);
      startRun(ctx.emulator); // the rename's run: create the new resource, then delete the old one
      const renamed = await envValue.create(inputs);
      assert.equal(renamed.id, old.id, "the upsert adopts the same value");
      await envValue.delete(old.id, old.outs);
      assert.equal(ctx.emulator.store.envVariables.value(old.id)?.value, "250");
    });

    it("adopts an existing value instead of duplicating it", async () => {
      const { inputs } = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.accountTier, linkedAccountId: "acme", value: "platinum" },
      );
      const created = await envValue.create(inputs);
      assert.equal(created.id, "64f0000000000000000000f5");
      const values = ctx.emulator.store
        .snapshot()
        .envValues.filter(
          (v) => v.variable_definition_id === FIXTURE.definitions.accountTier && v.linked_account_id === "acme",
        );
      assert.equal(values.length, 1);
      assert.equal(values[0].value, "platinum");
    });

    it("adopts values already as declared without a write; one listing serves every value of a linked account", async () => {
      const tier = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.accountTier, linkedAccountId: "acme", value: "enterprise" },
      );
      const quota = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.accountQuota, linkedAccountId: "acme", value: "70" },
      );
      ctx.emulator.requests.clear();
      const adopted = await envValue.create(tier.inputs);
      const created = await envValue.create(quota.inputs);
      assert.equal(adopted.id, FIXTURE.values.accountTierAcme, "the existing value's id");
      assert.deepEqual(
        ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}`),
        ["GET /api/v2/public/env/values/linked_account", "POST /api/v2/public/env/values"],
        "one listing of acme's values, and a write only for the value that differed",
      );
      assert.equal(ctx.emulator.store.envVariables.value(created.id)!.value, "70");
      // A value written in this run is looked up afresh, so refresh in the same run sees it.
      const read = await envValue.read(created.id, created.outs);
      assert.equal(read.id, created.id);
    });

    it("an existing encrypted value is overwritten, unless adoptEncryptedValue takes it over as is", async () => {
      const args = { definitionId: FIXTURE.definitions.crmApiToken, linkedAccountId: "acme", value: "from-the-vault" };
      const adopting = await envValue.check({}, { ...args, adoptEncryptedValue: true });
      ctx.emulator.requests.clear();
      const adopted = await envValue.create(adopting.inputs);
      assert.equal(adopted.id, FIXTURE.values.crmApiTokenAcme);
      assert.deepEqual(writes(ctx.emulator), [], "taken over without a write");
      assert.equal(
        ctx.emulator.store.envVariables.value(adopted.id)!.value,
        "crm-secret-acme",
        "the platform's value is untouched",
      );
      // Turning the flag off later acts at create only: no write.
      await envValue.update(adopted.id, adopted.outs, { ...adopted.outs, adoptEncryptedValue: false });
      assert.deepEqual(writes(ctx.emulator), []);

      startRun(ctx.emulator);
      const plain = await envValue.check({}, args);
      await envValue.create(plain.inputs);
      assert.deepEqual(
        writes(ctx.emulator).map((r) => `${r.method} ${r.path}`),
        ["POST /api/v2/public/env/values"],
        "cannot compare, so it writes",
      );
      assert.equal(ctx.emulator.store.envVariables.value(adopted.id)!.value, "from-the-vault");
    });

    it("delete puts back the readable value create replaced, instead of deleting it", async () => {
      const { inputs } = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.accountTier, linkedAccountId: "acme", value: "platinum" },
      );
      const created = await envValue.create(inputs);
      assert.equal(
        created.outs.previousValue,
        "enterprise",
        "recorded (a secret in state: see the class's additionalSecretOutputs)",
      );
      startRun(ctx.emulator);
      await envValue.delete(created.id, created.outs);
      assert.equal(ctx.emulator.store.envVariables.value(FIXTURE.values.accountTierAcme)?.value, "enterprise");
    });

    it("delete leaves a value that was already as declared, and one that replaced an encrypted value", async () => {
      const tier = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.accountTier, linkedAccountId: "acme", value: "enterprise" },
      );
      const token = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.crmApiToken, linkedAccountId: "acme", value: "rotated" },
      );
      const adopted = await envValue.create(tier.inputs);
      const replaced = await envValue.create(token.inputs);
      assert.deepEqual(
        [replaced.outs.foundExisting, replaced.outs.previousValue],
        [true, undefined],
        "an encrypted value cannot be recorded",
      );
      startRun(ctx.emulator);
      await envValue.delete(adopted.id, adopted.outs);
      await envValue.delete(replaced.id, replaced.outs);
      assert.deepEqual(
        writes(ctx.emulator).filter((r) => r.method === "DELETE"),
        [],
      );
      assert.equal(ctx.emulator.store.envVariables.value(FIXTURE.values.accountTierAcme)?.value, "enterprise");
      assert.equal(
        ctx.emulator.store.envVariables.value(FIXTURE.values.crmApiTokenAcme)?.value,
        "rotated",
        "left in place, not deleted",
      );
    });

    it("a declared restoreOnDelete wins, is checked against the format, and changing it writes nothing", async () => {
      const refused = await envValue.check({}, { ...QUOTA, restoreOnDelete: "lots" });
      assert.deepEqual(refused.failures, [
        { property: "restoreOnDelete", reason: "must be a number, because the definition's var_format is number" },
      ]);
      const { inputs } = await envValue.check({}, QUOTA);
      const created = await envValue.create(inputs);
      ctx.emulator.requests.clear();
      const updated = await envValue.update(created.id, created.outs, { ...created.outs, restoreOnDelete: "100" });
      assert.deepEqual(writes(ctx.emulator), []);
      startRun(ctx.emulator);
      await envValue.delete(created.id, updated.outs);
      assert.equal(
        ctx.emulator.store.envVariables.value(created.id)?.value,
        "100",
        "set to restoreOnDelete, not deleted",
      );
    });

    it("refuses an adoptEncryptedValue that is not a boolean, naming it", async () => {
      const result = await envValue.check({}, { ...QUOTA, adoptEncryptedValue: "yes" });
      assert.deepEqual(result.failures, [
        { property: "adoptEncryptedValue", reason: "must be true or false, not a string" },
      ]);
    });

    it("finds its value on a later page: a workflow value among more than 100 per-account values of the same workflow stays in state", async () => {
      // The value without a linked account is created last, so the list puts it on page 2.
      const batchSize = ctx.emulator.store.envVariables.definition(FIXTURE.definitions.batchSize)!;
      for (let i = 0; i < 120; i++) {
        ctx.emulator.store.envVariables.setValue({
          definition: batchSize,
          value: String(i),
          linkedAccountId: `tenant-${i}`,
          workflowId: "wf_hs_contact_sync",
          actor: "api_key",
        });
      }
      await ctx.emulator.store.commit();
      const { inputs } = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.batchSize, workflowId: "wf_hs_contact_sync", value: "42" },
      );
      const created = await envValue.create(inputs);
      startRun(ctx.emulator); // `pulumi refresh`
      ctx.emulator.requests.clear();
      const read = await envValue.read(created.id, created.outs);
      assert.equal(read.id, created.id, "refresh keeps the resource");
      assert.equal(read.props?.value, "42");
      assert.equal(ctx.emulator.requests.list().length, 2, "two pages, no more");
    });

    it("keeps an encrypted value from state, since the platform redacts it", async () => {
      const { inputs } = await envValue.check(
        {},
        { definitionId: FIXTURE.definitions.crmApiToken, linkedAccountId: "globex", value: "tok-123" },
      );
      const created = await envValue.create(inputs);
      const read = await envValue.read(created.id, created.outs);
      assert.equal(read.props?.value, "tok-123");
      assert.equal(read.props?.encrypted, true);
    });

    it("diff replaces for identity and updates the value in place", async () => {
      const olds = { ...QUOTA, scope: "linked_account", encrypted: false };
      assert.deepEqual(await envValue.diff("v", olds, { ...olds }), { changes: false, replaces: [] });
      assert.deepEqual(await envValue.diff("v", olds, { ...olds, value: "1" }), { changes: true, replaces: [] });
      assert.deepEqual((await envValue.diff("v", olds, { ...olds, linkedAccountId: "acme" })).replaces, [
        "linkedAccountId",
      ]);
    });
  });

  it("uses the bearer token for env operations when one is configured", async () => {
    startRun(ctx.emulator, { "integration-platform:apiKey": "", "integration-platform:token": ctx.emulator.token });
    const { inputs } = await envValue.check({}, QUOTA);
    await envValue.create(inputs);
    assert.deepEqual(new Set(ctx.emulator.requests.list().map((r) => r.auth)), new Set(["bearer"]));
  });

  it("never puts the value into an API error", async () => {
    ctx.emulator.faults.add([
      {
        method: "POST",
        path: "^/api/v2/public/env/values",
        action: { status: 400, message: "value does not match the variable format" },
      },
    ]);
    const error = await rejection(
      envValue.create({ ...QUOTA, value: "hunter2-secret", scope: "linked_account", encrypted: false }),
    );
    assert.match(error.message, /^400 from POST \/env\/values: value does not match the variable format/);
    assert.doesNotMatch(error.message + String(error.stack), /hunter2/);
  });
});

// The lookups against an emulator holding more than one page (100 items) of every list.
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import {
  getAuditEvents,
  getEnvDefinition,
  getEnvDefinitions,
  getEnvValues,
  getEnvValuesOutput,
  getLinkedAccounts,
  getLinkedAccountsOutput,
  NotFoundError,
} from "../../provider";
import { rejection, startRun, useProviderAgainstEmulator } from "../support/provider";
import { FIXTURE } from "../../harness/fixture";

const EXTRA = 120;

/** Resolves an Output outside a deployment, for assertions. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

describe("lookups", () => {
  const ctx = useProviderAgainstEmulator();
  const calls = (prefix: string) =>
    ctx.emulator.requests.list().filter((r) => r.path.startsWith(`/api/v2/public${prefix}`));

  beforeEach(async () => {
    await ctx.emulator.store.update((state) => {
      for (let i = 0; i < EXTRA; i += 1) {
        const id = `65a${String(i).padStart(21, "0")}`;
        state.envDefinitions.push({
          ...state.envDefinitions[1],
          _id: id,
          name: `GENERATED_${i}`,
          scope: "org",
          var_format: "string",
          encrypted: false,
        });
        state.envValues.push({
          ...state.envValues[1],
          _id: `66a${String(i).padStart(21, "0")}`,
          variable_definition_id: id,
          value: `v${i}`,
        });
      }
    });
    for (let i = 0; i < EXTRA; i += 1)
      ctx.emulator.store.linkedAccounts.add({ account_id: `tenant-${i}`, name: `Tenant ${i}` });
    for (let i = 0; i < EXTRA; i += 1) {
      ctx.emulator.store.audit.record({
        event_type: "ENV_VALUE_SET",
        linked_account_id: null,
        slug: null,
        config_id: null,
        workflow_id: null,
        resource_id: `r${i}`,
        auth: "api_key",
      });
    }
    ctx.emulator.requests.clear();
  });

  describe("getEnvDefinitions", () => {
    it("walks every page", async () => {
      const all = await getEnvDefinitions();
      assert.equal(all.length, 8 + EXTRA);
      assert.equal(new Set(all.map((d) => d.id)).size, all.length, "no item twice");
      assert.deepEqual(
        calls("/env/definitions").map((r) => r.query),
        [
          { page: "1", limit: "100" },
          { page: "2", limit: "100" },
        ],
      );
      assert.deepEqual(all[0], {
        id: FIXTURE.definitions.apiBaseUrl,
        name: "API_BASE_URL",
        description: "Base URL of the partner API.",
        scope: "org",
        format: "url",
        encrypted: false,
        orgId: "64f000000000000000000001",
        createdAt: all[0].createdAt,
        updatedAt: all[0].updatedAt,
      });
    });

    it("stops at maxItems, asking only for what it needs", async () => {
      assert.equal((await getEnvDefinitions({ maxItems: 105 })).length, 105);
      assert.equal(calls("/env/definitions").length, 2);
      ctx.emulator.requests.clear();
      assert.equal((await getEnvDefinitions({ maxItems: 5 })).length, 5);
      assert.deepEqual(
        calls("/env/definitions").map((r) => r.query),
        [{ page: "1", limit: "5" }],
      );
    });

    it("filters by scope, format and name", async () => {
      assert.deepEqual(
        (await getEnvDefinitions({ scope: "workflow" })).map((d) => d.name),
        ["WEBHOOK_URL", "BATCH_SIZE"],
      );
      assert.deepEqual(
        (await getEnvDefinitions({ format: "url" })).map((d) => d.name),
        ["API_BASE_URL", "WEBHOOK_URL"],
      );
      assert.deepEqual(
        (await getEnvDefinitions({ name: "ACCOUNT_T" })).map((d) => d.name),
        ["ACCOUNT_TIER"],
      );
    });

    it("refuses bad arguments, naming them, without a request", async () => {
      const error = await rejection(getEnvDefinitions({ scope: "team" as never, maxItems: 0 }));
      assert.match(error.message, /^getEnvDefinitions: invalid arguments: scope: .*; maxItems: must be at least 1$/);
      assert.equal(ctx.emulator.requests.list().length, 0);
    });
  });

  it("getEnvDefinition returns one, and NotFoundError for an unknown id", async () => {
    assert.equal((await getEnvDefinition({ definitionId: FIXTURE.definitions.crmApiToken })).encrypted, true);
    const error = await rejection(getEnvDefinition({ definitionId: "64f0000000000000000000dd" }));
    assert.ok(error instanceof NotFoundError);
  });

  describe("getEnvValues", () => {
    it("walks every page of a scope", async () => {
      const org = await getEnvValues({ scope: "org" });
      assert.equal(org.length, 2 + EXTRA);
      assert.equal(calls("/env/values/org").length, 2);
    });

    it("returns encrypted values as the platform does, never guessed", async () => {
      const values = await getEnvValues({
        scope: "linked_account",
        linkedAccountId: "acme",
        definitionId: FIXTURE.definitions.crmApiToken,
      });
      assert.deepEqual(
        values.map((v) => [v.definitionName, v.value, v.encrypted]),
        [["CRM_API_TOKEN", "[REDACTED]", true]],
      );
    });

    it("checks the scope rules before any request", async () => {
      const cases: [Parameters<typeof getEnvValues>[0], RegExp][] = [
        [{ scope: "linked_account" }, /linkedAccountId: is required for scope linked_account/],
        [{ scope: "workflow", linkedAccountId: "acme" }, /workflowId: is required for scope workflow/],
        [{ scope: "org", linkedAccountId: "acme" }, /linkedAccountId: does not apply to scope org/],
        [{ scope: "workspace", workflowId: "wf" }, /workflowId: does not apply to scope workspace/],
        [
          { scope: "linked_account", linkedAccountId: "acme", workflowId: "wf" },
          /workflowId: does not apply to scope linked_account/,
        ],
        [{ scope: "everywhere" } as never, /scope: Invalid option/],
      ];
      for (const [args, message] of cases) assert.match((await rejection(getEnvValues(args))).message, message);
      assert.equal(ctx.emulator.requests.list().length, 0);
    });

    it("has an Output twin whose result is secret", async () => {
      const output = getEnvValuesOutput({ scope: "workflow", workflowId: pulumi.output("wf_hs_contact_sync") });
      assert.equal(await pulumi.isSecret(output), true);
      assert.deepEqual((await valueOf(output)).map((v) => v.value).sort(), [
        "50",
        "https://hooks.example.com/contacts",
      ]);
    });
  });

  describe("getLinkedAccounts", () => {
    it("walks every page, and searches by name", async () => {
      assert.equal((await getLinkedAccounts()).length, 3 + EXTRA);
      assert.equal(calls("/linked-account").length, 2);
      assert.deepEqual(
        (await getLinkedAccounts({ search: "globex" })).map((a) => a.accountId),
        ["globex"],
      );
      assert.equal((await getLinkedAccounts({ search: "Tenant 1" })).length, 31, "Tenant 1, 10-19, 100-119");
    });

    it("filters by an env variable and its value", async () => {
      const accounts = await getLinkedAccounts({ envVariableName: "ACCOUNT_TIER", envVariableValue: "enterprise" });
      assert.deepEqual(
        accounts.map((a) => a.accountId),
        ["acme", "initech"],
      );
      assert.deepEqual(accounts[0].udf, [{ keyName: "plan", keyValue: "enterprise" }]);
      const error = await rejection(getLinkedAccounts({ envVariableValue: "enterprise" }));
      assert.match(error.message, /envVariableName: is required when envVariableValue is given/);
    });

    it("has an Output twin", async () => {
      const names = await valueOf(getLinkedAccountsOutput({ search: pulumi.output("acme") }));
      assert.deepEqual(
        names.map((a) => a.name),
        ["Acme Corporation"],
      );
    });
  });

  it("getAuditEvents walks every page", async () => {
    const events = await getAuditEvents();
    assert.equal(events.length, EXTRA);
    assert.equal(calls("/audit/event-received").length, 2);
    assert.equal((await getAuditEvents({ maxItems: 3 })).length, 3);
  });

  it("uses the bearer token where the platform accepts it, and the API key elsewhere", async () => {
    startRun(ctx.emulator, { "integration-platform:token": ctx.emulator.token });
    await getEnvValues({ scope: "org", maxItems: 1 });
    await getAuditEvents({ maxItems: 1 });
    await getEnvDefinition({ definitionId: FIXTURE.definitions.apiBaseUrl });
    await getLinkedAccounts({ maxItems: 1 });
    await getEnvDefinitions({ maxItems: 1 });
    assert.deepEqual(
      ctx.emulator.requests.list().map((r) => [r.path.replace(/\/[0-9a-f]{24}$/, "/:id"), r.auth]),
      [
        ["/api/v2/public/env/values/org", "bearer"],
        ["/api/v2/public/audit/event-received", "bearer"],
        ["/api/v2/public/env/definitions/:id", "bearer"],
        ["/api/v2/public/linked-account", "api_key"],
        ["/api/v2/public/env/definitions", "api_key"],
      ],
    );
  });
});

// The reads one `pulumi` command shares among its resources (provider/session.ts), against the
// in-process emulator at its default (the platform's documented) rate limit: what a refresh of
// many tenants costs in calls, counted from the emulator's request log.
import * as assert from "node:assert/strict";
import { Session, type EnvTarget } from "../../provider/session";
import { FIXTURE } from "../../harness/fixture";
import { clientFor, useProviderAgainstEmulator } from "../support/provider";

const WORKFLOW = "wf_hs_contact_sync";

describe("Session: the reads a command shares", () => {
  const ctx = useProviderAgainstEmulator();

  const batchSize = FIXTURE.definitions.batchSize;
  /** A new session, as a `pulumi` command starts one, over a client of its own. */
  const newSession = () => new Session(clientFor(ctx.emulator));

  /** Gives `count` tenants a BATCH_SIZE value at WORKFLOW, `tenant-<i>` holding `<i>`; returns their targets. */
  async function seedWorkflowValues(count: number): Promise<EnvTarget[]> {
    const { store } = ctx.emulator;
    const definition = store.envVariables.definition(batchSize)!;
    const targets: EnvTarget[] = [];
    for (let i = 0; i < count; i++) {
      store.envVariables.setValue({
        definition,
        value: String(i),
        linkedAccountId: `tenant-${i}`,
        workflowId: WORKFLOW,
        actor: "api_key",
      });
      targets.push({
        definitionId: batchSize,
        scope: "workflow",
        workflowId: WORKFLOW,
        linkedAccountId: `tenant-${i}`,
      });
    }
    await store.commit();
    ctx.emulator.requests.clear();
    return targets;
  }

  const calls = () =>
    ctx.emulator.requests
      .list()
      .map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query as Record<string, string>)}`);

  it("a workflow's per-account values of one definition are listed once for all accounts, 100 per page", async () => {
    const placements = await seedWorkflowValues(150);
    const session = newSession();
    const found = await Promise.all(
      [
        ...placements,
        { definitionId: batchSize, scope: "workflow" as const, workflowId: WORKFLOW, linkedAccountId: "tenant-none" },
      ].map((t) => session.findEnvValue(t)),
    );
    assert.deepEqual(
      found.slice(0, 150).map((doc) => doc?.value),
      placements.map((_, i) => String(i)),
      "each account gets its own value",
    );
    assert.equal(found[150], undefined, "an account without a value has none");
    assert.deepEqual(calls(), [
      `GET /api/v2/public/env/values/workflow?variable_definition_id=${FIXTURE.definitions.batchSize}&workflow_id=${WORKFLOW}&page=1&limit=100`,
      `GET /api/v2/public/env/values/workflow?variable_definition_id=${FIXTURE.definitions.batchSize}&workflow_id=${WORKFLOW}&page=2&limit=100`,
    ]);
  });

  it("the workflow's own value (no linked account) is told apart from its per-account values", async () => {
    await seedWorkflowValues(3);
    const { store } = ctx.emulator;
    store.envVariables.setValue({
      definition: store.envVariables.definition(FIXTURE.definitions.batchSize)!,
      value: "7",
      linkedAccountId: null,
      workflowId: WORKFLOW,
      actor: "api_key",
    });
    await store.commit();
    const session = newSession();
    const [own, acme] = await Promise.all([
      session.findEnvValue({ definitionId: batchSize, scope: "workflow", workflowId: WORKFLOW }),
      session.findEnvValue({
        definitionId: batchSize,
        scope: "workflow",
        workflowId: WORKFLOW,
        linkedAccountId: "acme",
      }),
    ]);
    assert.equal(own?.value, "7");
    assert.equal(acme?._id, FIXTURE.values.batchSizeAcmeContactSync);
    assert.equal(acme?.value, "50");
    assert.equal(calls().length, 1, "one listing serves both");
  });

  it("without the ids in each item (the platform's documented item shape), each placement is listed on its own instead", async () => {
    const placements = await seedWorkflowValues(3);
    // The emulator's items carry linked_account_id and workflow_id; the documented shape does not.
    const client = clientFor(ctx.emulator);
    const read = client.read.bind(client);
    client.read = (async (call) => {
      const answer = await read(call);
      if (!call.path.startsWith("/env/values/")) return answer;
      const listed = answer as { docs: Record<string, unknown>[] };
      return {
        ...listed,
        docs: listed.docs.map(({ linked_account_id: _account, workflow_id: _workflow, ...documented }) => documented),
      };
    }) as typeof client.read;
    const session = new Session(client);
    const found = await Promise.all(placements.map((t) => session.findEnvValue(t)));
    assert.deepEqual(
      found.map((doc) => doc?.value),
      ["0", "1", "2"],
      "each account still gets its own value, not another account's",
    );
    assert.equal(calls().length, 1 + 3, "the workflow's listing, then one listing per placement");
  });

  it("a linked account's values, of every definition, cost one listing: the platform requires linked_account_id", async () => {
    const session = newSession();
    ctx.emulator.requests.clear();
    const acme = { scope: "linked_account" as const, linkedAccountId: "acme" };
    const [tier, token] = await Promise.all([
      session.findEnvValue({ ...acme, definitionId: FIXTURE.definitions.accountTier }),
      session.findEnvValue({ ...acme, definitionId: FIXTURE.definitions.crmApiToken }),
    ]);
    assert.equal(tier?.value, "enterprise");
    assert.equal(token?.value, "[REDACTED]");
    assert.deepEqual(calls(), ["GET /api/v2/public/env/values/linked_account?linked_account_id=acme&page=1&limit=100"]);
  });

  it("a value this run writes is looked up at the platform again, not in the run's listing", async () => {
    const target: EnvTarget = {
      definitionId: batchSize,
      scope: "workflow",
      workflowId: WORKFLOW,
      linkedAccountId: "acme",
    };
    const session = newSession();
    ctx.emulator.requests.clear();
    assert.equal((await session.findEnvValue(target))?.value, "50");
    await session.setEnvValue(target, "64");
    assert.equal((await session.findEnvValue(target))?.value, "64");
    assert.equal(calls().filter((c) => c.startsWith("GET")).length, 2, "the listing, then the lookup after the write");
  });

  it("a config item this run writes is read at the platform again; the config's other items still share the first read", async () => {
    const session = newSession();
    const field = { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "hs_pipeline" };
    const toggle = { slug: "hubspot", linkedAccountId: "acme", configId: "acme", workflowId: WORKFLOW };
    ctx.emulator.requests.clear();
    await session.readConfig(field);
    await session.updateConfigField(field, { name: "Written" });
    const reread = await session.readConfig(field);
    await session.readConfig(toggle);
    assert.equal(reread.fields.find((f) => f.id === field.fieldId)?.name, "Written");
    assert.deepEqual(
      calls().map((c) => c.split("?")[0].split(" ")[0]),
      ["GET", "PUT", "GET"],
      "the toggle's read is served by the first",
    );
  });
});

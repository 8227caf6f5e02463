// The reads one `pulumi` command shares among its resources (provider/run.ts), against the
// in-process emulator at its default (the platform's documented) rate limit: what a refresh of
// many tenants costs in calls, counted from the emulator's request log.
import * as assert from "node:assert/strict";
import { currentRun } from "../../provider/connection";
import type { EnvPlacement } from "../../provider/run";
import { FIXTURE } from "../support/fixture";
import { startRun, useProviderAgainstEmulator } from "../support/provider";

const WORKFLOW = "wf_hs_contact_sync";

describe("Run: the reads a command shares", () => {
  const ctx = useProviderAgainstEmulator();

  /** Gives `count` tenants a BATCH_SIZE value at WORKFLOW, `tenant-<i>` holding `<i>`; returns their placements. */
  async function seedWorkflowValues(count: number): Promise<EnvPlacement[]> {
    const { store } = ctx.emulator;
    const definition = store.envDefinition(FIXTURE.definitions.batchSize)!;
    const placements: EnvPlacement[] = [];
    for (let i = 0; i < count; i++) {
      store.setEnvValue({ definition, value: String(i), linkedAccountId: `tenant-${i}`, workflowId: WORKFLOW, actor: "api_key" });
      placements.push({ scope: "workflow", workflowId: WORKFLOW, linkedAccountId: `tenant-${i}` });
    }
    await store.commit();
    startRun(ctx.emulator);
    ctx.emulator.requests.clear();
    return placements;
  }

  const calls = () => ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query as Record<string, string>)}`);

  it("a workflow's per-account values of one definition are listed once for all accounts, 100 per page", async () => {
    const placements = await seedWorkflowValues(150);
    const run = currentRun();
    const found = await Promise.all([...placements, { scope: "workflow" as const, workflowId: WORKFLOW, linkedAccountId: "tenant-none" }].map((p) => run.findEnvValue(p, FIXTURE.definitions.batchSize)));
    assert.deepEqual(found.slice(0, 150).map((doc) => doc?.value), placements.map((_, i) => String(i)), "each account gets its own value");
    assert.equal(found[150], undefined, "an account without a value has none");
    assert.deepEqual(calls(), [
      `GET /api/v2/public/env/values/workflow?variable_definition_id=${FIXTURE.definitions.batchSize}&workflow_id=${WORKFLOW}&page=1&limit=100`,
      `GET /api/v2/public/env/values/workflow?variable_definition_id=${FIXTURE.definitions.batchSize}&workflow_id=${WORKFLOW}&page=2&limit=100`,
    ]);
  });

  it("the workflow's own value (no linked account) is told apart from its per-account values", async () => {
    await seedWorkflowValues(3);
    const { store } = ctx.emulator;
    store.setEnvValue({ definition: store.envDefinition(FIXTURE.definitions.batchSize)!, value: "7", linkedAccountId: null, workflowId: WORKFLOW, actor: "api_key" });
    await store.commit();
    const run = currentRun();
    const [own, acme] = await Promise.all([
      run.findEnvValue({ scope: "workflow", workflowId: WORKFLOW }, FIXTURE.definitions.batchSize),
      run.findEnvValue({ scope: "workflow", workflowId: WORKFLOW, linkedAccountId: "acme" }, FIXTURE.definitions.batchSize),
    ]);
    assert.equal(own?.value, "7");
    assert.equal(acme?._id, FIXTURE.values.batchSizeAcmeContactSync);
    assert.equal(acme?.value, "50");
    assert.equal(calls().length, 1, "one listing serves both");
  });

  it("without the ids in each item (the platform's documented item shape), each placement is listed on its own instead", async () => {
    const placements = await seedWorkflowValues(3);
    const run = currentRun();
    // The emulator's items carry linked_account_id and workflow_id; the documented shape does not.
    const listEnvValues = run.client.listEnvValues.bind(run.client);
    run.client.listEnvValues = async (scope, query) => {
      const page = await listEnvValues(scope, query);
      return { ...page, docs: page.docs.map(({ linked_account_id: _account, workflow_id: _workflow, ...documented }) => documented) };
    };
    const found = await Promise.all(placements.map((p) => run.findEnvValue(p, FIXTURE.definitions.batchSize)));
    assert.deepEqual(found.map((doc) => doc?.value), ["0", "1", "2"], "each account still gets its own value, not another account's");
    assert.equal(calls().length, 1 + 3, "the workflow's listing, then one listing per placement");
  });

  it("a linked account's values, of every definition, cost one listing: the platform requires linked_account_id", async () => {
    const run = currentRun();
    ctx.emulator.requests.clear();
    const acme = { scope: "linked_account" as const, linkedAccountId: "acme" };
    const [tier, token] = await Promise.all([run.findEnvValue(acme, FIXTURE.definitions.accountTier), run.findEnvValue(acme, FIXTURE.definitions.crmApiToken)]);
    assert.equal(tier?.value, "enterprise");
    assert.equal(token?.value, "[REDACTED]");
    assert.deepEqual(calls(), ["GET /api/v2/public/env/values/linked_account?linked_account_id=acme&page=1&limit=100"]);
  });

  it("a value this run writes is looked up at the platform again, not in the run's listing", async () => {
    const [placement] = await seedWorkflowValues(1);
    const run = currentRun();
    assert.equal((await run.findEnvValue(placement, FIXTURE.definitions.batchSize))?.value, "0");
    run.writingEnvValue(placement, FIXTURE.definitions.batchSize);
    // Out of band, as another resource of the run would write it.
    const { store } = ctx.emulator;
    store.setEnvValue({ definition: store.envDefinition(FIXTURE.definitions.batchSize)!, value: "64", linkedAccountId: "tenant-0", workflowId: WORKFLOW, actor: "api_key" });
    await store.commit();
    assert.equal((await run.findEnvValue(placement, FIXTURE.definitions.batchSize))?.value, "64");
  });
});

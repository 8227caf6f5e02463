// examples/multi-tenant through the real CLI: a lookup chooses the accounts, one component per
// account; a new matching account adds only its own resources.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { REPO, resourcesOfType, Stack, Workspace } from "../../scripts/lib/engine";
import { copyProgram } from "../../scripts/lib/program";

describe("e2e: the multi-tenant example through the real CLI", function () {
  this.timeout(10 * 60_000);
  let emulator: RunningEmulator;
  let workspace: Workspace;
  let stack: Stack;

  before(async () => {
    emulator = await startEmulator({ quiet: true });
    workspace = new Workspace();
    stack = new Stack(workspace, copyProgram(path.join(REPO, "examples/multi-tenant"), workspace.root));
    await stack.init({ "integration-platform:baseUrl": emulator.url }, { "integration-platform:apiKey": emulator.apiKey });
  });
  after(async () => {
    workspace?.dispose();
    await emulator?.close();
  });

  const setups = async () =>
    resourcesOfType(await stack.exportState(), "integration-platform:index:LinkedAccountSetup").map((r) => r.urn.split("::").pop()).sort();

  it("1. up sets up every account whose ACCOUNT_TIER is enterprise", async () => {
    const up = await stack.ok(["up", "--yes", "--skip-preview"]);
    assert.match(up.stdout, /\+ 9 created/, "2 accounts x (component, field, toggle, env value) + the stack");
    assert.deepEqual(await setups(), ["acme-hubspot", "initech-hubspot"]);
    const config = emulator.store.config({ linkedAccountId: "initech", slug: "hubspot", configId: "initech" })!;
    assert.equal(emulator.store.configWorkflowState(config, "wf_hs_deal_alerts").enabled, true);
  });

  it("2-3. a new matching account gets its own resources, and nothing else changes", async () => {
    emulator.store.addLinkedAccount({ account_id: "hooli", name: "Hooli" });
    emulator.store.upsertConfig({ linkedAccountId: "hooli", slug: "hubspot", configId: "hooli" }, undefined);
    emulator.store.setEnvValue({
      definition: emulator.store.envDefinitionByName("ACCOUNT_TIER")!,
      value: "enterprise",
      linkedAccountId: "hooli",
      workflowId: null,
      actor: "api_key",
    });
    await emulator.store.commit();
    const up = await stack.ok(["up", "--yes", "--skip-preview"]);
    assert.match(up.stdout, /\+ 4 created/);
    assert.match(up.stdout, /9 unchanged/);
    assert.doesNotMatch(up.stdout, /replaced|deleted|updated/);
    assert.deepEqual(await setups(), ["acme-hubspot", "hooli-hubspot", "initech-hubspot"]);
    const hooli = emulator.store.config({ linkedAccountId: "hooli", slug: "hubspot", configId: "hooli" })!;
    assert.equal(emulator.store.configWorkflowState(hooli, "wf_hs_deal_alerts").enabled, true);
  });

  it("4. destroy removes every setup", async () => {
    const destroy = await stack.ok(["destroy", "--yes", "--skip-preview"]);
    assert.match(destroy.stdout, /- 13 deleted/);
    const config = emulator.store.config({ linkedAccountId: "initech", slug: "hubspot", configId: "initech" })!;
    assert.equal(emulator.store.configWorkflowState(config, "wf_hs_deal_alerts").enabled, false);
  });
});

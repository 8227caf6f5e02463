// examples/multi-tenant through the real CLI: a lookup chooses the accounts, one component per
// account; a new matching account adds only its own resources.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { REPO, resourcesOfType, Stack } from "../../harness/engine";
import { copyProgram } from "../../harness/program";
import { step, useEmulatorStack } from "../../harness/e2e";

describe("e2e: the multi-tenant example through the real CLI", function () {
  this.timeout(10 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, copyProgram(path.join(REPO, "examples/multi-tenant"), workspace.root)),
  );

  /** Whether the account's config has deal alerts on, as stored; undefined when it lists no such workflow. */
  const dealAlerts = (account: string) =>
    e2e.emulator.store.configs
      .find({ linkedAccountId: account, slug: "hubspot", configId: account })
      ?.workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled;

  const setups = async () =>
    resourcesOfType(await e2e.stack.exportState(), "integration-platform:index:LinkedAccountSetup")
      .map((r) => r.urn.split("::").pop())
      .sort();

  // One walk through the stack's life: each step starts from what the steps before it left.
  it("sets up the matching accounts, then a new one, then removes them all", async () => {
    await step("1. up sets up every account whose ACCOUNT_TIER is enterprise", async () => {
      const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      assert.match(up.stdout, /\+ 9 created/, "2 accounts x (component, field, toggle, env value) + the stack");
      assert.deepEqual(await setups(), ["acme-hubspot", "initech-hubspot"]);
      assert.equal(dealAlerts("initech"), true);
    });

    await step("2. a new matching account gets its own resources, and nothing else changes", async () => {
      e2e.emulator.store.linkedAccounts.add({ account_id: "hooli", name: "Hooli" });
      e2e.emulator.store.configs.upsert({ linkedAccountId: "hooli", slug: "hubspot", configId: "hooli" }, undefined);
      e2e.emulator.store.envVariables.setValue({
        definition: e2e.emulator.store.envVariables.definitionByName("ACCOUNT_TIER")!,
        value: "enterprise",
        linkedAccountId: "hooli",
        workflowId: null,
        actor: "api_key",
      });
      await e2e.emulator.store.commit();
      const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      assert.match(up.stdout, /\+ 4 created/);
      assert.match(up.stdout, /9 unchanged/);
      assert.doesNotMatch(up.stdout, /replaced|deleted|updated/);
      assert.deepEqual(await setups(), ["acme-hubspot", "hooli-hubspot", "initech-hubspot"]);
      assert.equal(dealAlerts("hooli"), true);
    });

    await step("3. destroy removes every setup", async () => {
      const destroy = await e2e.stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.match(destroy.stdout, /- 13 deleted/);
      assert.equal(dealAlerts("initech"), false);
    });
  });
});

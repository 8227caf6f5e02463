// examples/multi-tenant through the real CLI: a lookup chooses the accounts, one component per
// account; a new matching account adds only its own resources; a change to every account rolled out
// in waves on the program's one stack (`shards up --stack dev --waves`).
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RolloutRecord } from "../../cli/shards";
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

  /** ACCOUNT_QUOTA's value for an account, as stored. */
  const quotaOf = (account: string) =>
    e2e.emulator.store.envVariables.valueFor("64f0000000000000000000d6", account, null)?.value;

  /** Runs the package's CLI in the program's directory with the workspace's Pulumi environment. */
  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [path.join(REPO, "dist/cli/main.js"), ...args],
        { cwd: e2e.stack.dir, env: e2e.workspace.env({}) },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  const setups = async () =>
    resourcesOfType(await e2e.stack.exportState(), "integration-platform:index:LinkedAccountSetup")
      .map((r) => r.urn.split("::").pop())
      .sort();

  // One walk through the stack's life: each step starts from what the steps before it left.
  it("sets up the matching accounts, then a new one, rolls a change out in waves, then removes them all", async () => {
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

    await step(
      "3. a new quota rolled out in waves on the one stack: hooli first, a failed check, then the rest",
      async () => {
        await e2e.stack.ok(["config", "set", "--secret", "multi-tenant:quota", "750"]);
        const record = path.join(e2e.workspace.root, "one-stack-rollout.json");
        const waves = [
          "shards",
          "up",
          "--stack",
          e2e.stack.name,
          "--waves",
          "100%",
          "--canary",
          "hooli",
          "--record",
          record,
        ];
        const quotas = () => ["acme", "hooli", "initech"].map(quotaOf);

        // The canary's values read back as gone (404 for every env value read): the rollout stops after it.
        e2e.emulator.faults.addFromBody({ rules: [{ method: "GET", path: "/env/values/", action: { status: 404 } }] });
        const unread = await cli(waves);
        e2e.emulator.faults.clear();
        assert.equal(unread.code, 1, unread.stderr.slice(-4000));
        assert.match(unread.stderr, /shards: up on the stack dev, at 20 requests\/s/);
        assert.match(unread.stderr, /wave 1 \(canary\): its resources do not read back as written/);
        assert.match(unread.stderr, /the rollout stopped at wave 1 \(canary\)/);
        assert.deepEqual(quotas(), ["500", "750", "500"], "the canary alone has the change");

        // Resumed, with a check that fails after the second wave: every account has it, and the record says so.
        const stopped = await cli([...waves, "--resume", "--check", 'test "$INTEGRATION_PLATFORM_WAVE" = canary']);
        assert.equal(stopped.code, 1, stopped.stderr.slice(-4000));
        assert.match(stopped.stderr, /the rollout stopped at wave 2 \(100%\)/);
        assert.deepEqual(quotas(), ["750", "750", "750"], "wave 2 was applied, then its check failed");
        const kept = JSON.parse(fs.readFileSync(record, "utf8")) as RolloutRecord;
        assert.deepEqual(
          kept.waves.map((w) => [w.name, w.accounts]),
          [
            ["canary", ["hooli"]],
            ["100%", ["acme", "initech"]],
          ],
        );
        assert.equal(kept.done, 1);
        const config = await e2e.stack.ok(["config", "--json"]);
        assert.ok(
          !("integration-platform:shards" in JSON.parse(config.stdout)),
          "the one stack's config is left as it was",
        );

        const resumed = await cli([...waves, "--resume"]);
        assert.equal(resumed.code, 0, resumed.stderr.slice(-4000));
        assert.match(resumed.stderr, /the rollout is complete: 2 waves applied and checked/);
        await e2e.stack.ok(["preview", "--expect-no-changes"]);
      },
    );

    await step("4. destroy removes every setup", async () => {
      const destroy = await e2e.stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.match(destroy.stdout, /- 13 deleted/);
      assert.equal(dealAlerts("initech"), false);
    });
  });
});

// A sharded program in Python (docs/guides/scaling.md): stack_shard() and in_this_shard() of the
// SDK's sharding module choose each stack's linked accounts, and the tools' `shards` runs both
// stacks at once on one API key through the real CLI, against the emulator at its default rate
// limit. Each account's resources land on the stack the shard vectors' shardOf says, a second
// preview changes nothing; a new field name is rolled out in waves (`shards up --waves`: two canary
// accounts, 25%, all), stopped by a failed check at 25% with exactly those accounts changed, and
// finished by `--resume`; `shards destroy` puts back what was there.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, Stack } from "../../../harness/engine";
import { publicGet, step, useEmulatorStack } from "../../../harness/e2e";
import { LANGUAGES, languageHostsDir, pythonBin } from "../../../harness/languages";
import { nativePath } from "../../../harness/native";
import { seedTenants } from "../../../harness/tenants";
import { shardOf } from "../../../provider/sharding";
import type { RolloutRecord } from "../../../cli/shards";

const CLI = path.join(REPO, "dist/cli/main.js");
const TENANTS = 40;
const CANARY = ["tenant-3", "tenant-17"];

/**
 * The program: per linked account a field's name (ending with the stack's `label`) and a workflow on,
 * for this stack's shard's accounts only.
 */
const PROGRAM = `import pulumi
import pulumi_integration_platform as platform
from pulumi_integration_platform.sharding import in_this_shard, stack_shard

ACCOUNTS = [f"tenant-{i}" for i in range(${TENANTS})]
label = pulumi.Config().get("label") or "pipeline"

where = stack_shard()
for account in in_this_shard(ACCOUNTS, lambda a: a, where):
    ids = {"slug": "hubspot", "linked_account_id": account, "config_id": account}
    platform.ConfigField(f"{account}-hubspot/field/hs_pipeline", field_id="hs_pipeline", name=f"{account} {label}", **ids)
    platform.WorkflowToggle(f"{account}-hubspot/workflow/wf_hs_deal_alerts", workflow_id="wf_hs_deal_alerts", enabled=True, **ids)
`;

/** A Python project whose virtualenv is the one with the SDK installed from sdk/python (harness/languages.ts). */
function writeProject(parent: string): string {
  const dir = path.join(parent, "sharded-python");
  fs.mkdirSync(dir);
  const venv = path.dirname(pythonBin());
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: sharded-python\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: ${venv}\n`,
  );
  fs.writeFileSync(path.join(dir, "__main__.py"), PROGRAM);
  return dir;
}

describe(`e2e: a sharded Python program, two stacks at once by \`shards\` on one API key ${LANGUAGES}`, function () {
  this.timeout(10 * 60_000);
  const PATH = () => nativePath(languageHostsDir());
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, writeProject(workspace.root), "py-0", { PATH: PATH() }),
  );
  let tenants: string[] = [];
  before(async () => {
    tenants = await seedTenants(e2e.emulator, "tenant", TENANTS);
    await e2e.addStack(new Stack(e2e.workspace, e2e.stack.dir, "py-1", { PATH: PATH() }));
  });

  /** Runs the package's CLI with the workspace's Pulumi environment and the stacks' PATH. */
  function cli(args: string[]): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        { cwd: e2e.stack.dir, env: e2e.workspace.env({ PATH: PATH() }), maxBuffer: 64 * 1024 * 1024 },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
  }

  /** What users see of each tenant's setup: its field's name (through the public API) and its workflow's state. */
  const observe = async () => {
    const seen = [];
    for (const id of tenants) {
      const config = await publicGet(e2e.emulator, `/slug/hubspot/config/${id}`, { linked_account_id: id });
      const state = e2e.emulator.store.configs.find({ linkedAccountId: id, slug: "hubspot", configId: id });
      seen.push({
        id,
        pipeline: (config.fields as { id: string; name: string }[]).find((f) => f.id === "hs_pipeline")?.name,
        dealAlerts: state?.workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled,
      });
    }
    return seen;
  };

  /** The linked accounts whose resources a stack's state holds, each with its resources' types. */
  async function accountsIn(name: string): Promise<Record<string, string[]>> {
    const state = JSON.parse((await e2e.stack.ok(["stack", "export", "--stack", name])).stdout) as {
      deployment: { resources?: { urn: string; type: string }[] };
    };
    const found: Record<string, string[]> = {};
    for (const r of state.deployment.resources ?? []) {
      if (!r.type.startsWith("integration-platform:index:")) continue;
      const account = r.urn.split("::").pop()!.split("-hubspot/")[0];
      (found[account] ??= []).push(r.type.split(":").pop()!);
    }
    for (const types of Object.values(found)) types.sort();
    return found;
  }

  it("puts each account on the stack shardOf says, previews no change, rolls a change out in waves, and destroys back to what was there", async () => {
    const before = await observe();
    await step("1. `shards up` of 2 stacks: every account set up, none answered 429", async () => {
      e2e.emulator.requests.clear();
      const up = await cli(["shards", "up", "--shards", "2", "--stack", "py-{shard}"]);
      assert.equal(up.code, 0, up.stderr.slice(-4000));
      assert.match(up.stderr, /2 of 2 stacks succeeded/);
      assert.equal(e2e.emulator.requests.list().filter((r) => r.status === 429).length, 0);
      assert.deepEqual(
        await observe(),
        tenants.map((id) => ({ id, pipeline: `${id} pipeline`, dealAlerts: true })),
      );
    });

    await step("2. each account's two resources are on its shard's stack, and on no other", async () => {
      const both = { 0: await accountsIn("py-0"), 1: await accountsIn("py-1") };
      for (const shard of [0, 1] as const) {
        const mine = tenants.filter((id) => shardOf(id, 2) === shard);
        assert.ok(mine.length > 0 && mine.length < TENANTS, `shard ${shard} holds some accounts, not all`);
        assert.deepEqual(both[shard], Object.fromEntries(mine.map((id) => [id, ["ConfigField", "WorkflowToggle"]])));
      }
    });

    await step("3. `shards preview --expect-no-changes` of both stacks", async () => {
      const preview = await cli(["shards", "preview", "--shards", "2", "--stack", "py-{shard}", "--expect-no-changes"]);
      assert.equal(preview.code, 0, preview.stderr.slice(-4000));
      assert.match(preview.stderr, /2 of 2 stacks succeeded/);
    });

    await step(
      "4. a new field name in waves: the check fails at 25%, exactly the canary and 25% accounts have it; --resume finishes",
      async () => {
        for (const name of ["py-0", "py-1"]) await e2e.stack.ok(["config", "set", "--stack", name, "label", "deals"]);
        const record = path.join(e2e.workspace.root, "rollout.json");
        const waves = [
          "shards",
          "up",
          "--shards",
          "2",
          "--stack",
          "py-{shard}",
          "--waves",
          "25%,100%",
          "--record",
          record,
        ];
        const failing = 'test "$INTEGRATION_PLATFORM_WAVE" != "25%"';
        const stopped = await cli([...waves, "--canary", CANARY.join(","), "--check", failing]);
        assert.equal(stopped.code, 1, stopped.stderr.slice(-4000));
        assert.match(stopped.stderr, /the rollout stopped at wave 2 \(25%\)/);
        const kept = JSON.parse(fs.readFileSync(record, "utf8")) as RolloutRecord;
        assert.deepEqual(kept.waves[0].accounts, CANARY);
        const reached = [...kept.waves[0].accounts, ...kept.waves[1].accounts].sort();
        const renamed = async () =>
          (await observe())
            .filter((seen) => seen.pipeline === `${seen.id} deals`)
            .map((seen) => seen.id)
            .sort();
        assert.deepEqual(await renamed(), reached, "exactly the canary and 25% accounts have the new name");
        assert.ok(reached.length > CANARY.length && reached.length < TENANTS);

        const resumed = await cli([...waves, "--resume"]);
        assert.equal(resumed.code, 0, resumed.stderr.slice(-4000));
        assert.match(resumed.stderr, /the rollout is complete: 3 waves applied and checked/);
        assert.deepEqual(await renamed(), [...tenants].sort());
        assert.equal(e2e.emulator.requests.list().filter((r) => r.status === 429).length, 0);
        const preview = await cli([
          "shards",
          "preview",
          "--shards",
          "2",
          "--stack",
          "py-{shard}",
          "--expect-no-changes",
        ]);
        assert.equal(preview.code, 0, preview.stderr.slice(-4000));
      },
    );

    await step("5. `shards destroy` puts every account back as it was", async () => {
      const destroy = await cli(["shards", "destroy", "--shards", "2", "--stack", "py-{shard}"]);
      assert.equal(destroy.code, 0, destroy.stderr.slice(-4000));
      assert.deepEqual(await observe(), before);
    });
  });
});

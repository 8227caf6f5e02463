// A template change rolled out in waves (`shards up --waves`), through the real CLI at the emulator's
// default limit: examples/multi-tenant over 2 shards of 40 linked accounts, deployed, then a new
// quota for every account given to two canary accounts, then 25%, then all; a check that fails at the
// 25% wave stops the rollout with exactly the canary and 25% accounts changed; `--resume` completes
// it, and every shard then previews no change.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, Stack } from "../../harness/engine";
import { copyProgram } from "../../harness/program";
import { seedTenants } from "../../harness/tenants";
import { AT_SCALE, step, useEmulatorStack } from "../../harness/e2e";
import type { RolloutRecord } from "../../cli/shards";

const TENANTS = 40;
const CLI = path.join(REPO, "dist/cli/main.js");
/** ACCOUNT_QUOTA, the env value each setup of examples/multi-tenant writes from the stack's `quota`. */
const QUOTA = "64f0000000000000000000d6";
const CANARY = ["tenant-3", "tenant-17"];

describe(`e2e: a change rolled out in waves over 2 shards ${AT_SCALE}`, function () {
  this.timeout(20 * 60_000);
  const config = { "multi-tenant:search": "Tenant tenant-" };
  const e2e = useEmulatorStack(
    (workspace) =>
      new Stack(workspace, copyProgram(path.join(REPO, "examples/multi-tenant"), workspace.root), "shard-0"),
    { config },
  );
  let tenants: string[] = [];
  const stacks: Stack[] = [];
  before(async () => {
    tenants = await seedTenants(e2e.emulator, "tenant", TENANTS);
    stacks.push(e2e.stack, await e2e.addStack(new Stack(e2e.workspace, e2e.stack.dir, "shard-1"), { config }));
  });

  /** Runs the package's CLI with the workspace's Pulumi environment; resolves to its exit code and output. */
  function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        "node",
        [CLI, ...args],
        { cwd: e2e.stack.dir, env: e2e.workspace.env({}), maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }
  const shards = ["--shards", "2", "--stack", "shard-{shard}"];
  const record = () => path.join(e2e.workspace.root, "rollout.json");
  /** `shards up` in waves: two canary accounts, then 25%, then all, kept in the workspace's record. */
  const rollout = (...more: string[]) =>
    cli([
      "shards",
      "up",
      ...shards,
      "--waves",
      "25%,100%",
      "--canary",
      CANARY.join(","),
      "--record",
      record(),
      ...more,
    ]);
  const quotaOf = (id: string) => e2e.emulator.store.envVariables.valueFor(QUOTA, id, null)?.value;
  const withQuota = (value: string) => tenants.filter((id) => quotaOf(id) === value).sort();
  const writes = () => e2e.emulator.requests.list().filter((r) => r.method !== "GET");

  it("gives a new quota to the canary, then 25%, stops at a failed check with exactly those accounts changed, and --resume completes it", async () => {
    await step("1. shards up deploys the 40 accounts' setups with a quota of 500", async () => {
      const up = await cli(["shards", "up", ...shards]);
      assert.equal(up.code, 0, up.stderr.slice(-4000));
      assert.deepEqual(withQuota("500"), [...tenants].sort());
    });

    // The stacks share the program's directory: each command names its stack.
    for (const stack of stacks)
      await stack.ok(["config", "set", "--stack", stack.name, "--secret", "multi-tenant:quota", "750"]);
    let planned: RolloutRecord["waves"] = [];

    await step("2. --dry-run prints the waves (canary, 25%, 100%) and writes nothing", async () => {
      e2e.emulator.requests.clear();
      const dry = await rollout("--dry-run");
      assert.equal(dry.code, 0, dry.stderr.slice(-4000));
      assert.match(dry.stdout, /^wave 1 \(canary\): 2 linked accounts, 2 of 40 so far \(5%\): tenant-3, tenant-17$/m);
      assert.match(dry.stdout, /^wave 2 \(25%\): /m);
      assert.match(dry.stdout, /^wave 3 \(100%\): .* 40 of 40 so far \(100%\)/m);
      assert.equal(writes().length, 0, "a dry run writes nothing");
      assert.ok(!fs.existsSync(record()), "a dry run keeps no record");
      assert.deepEqual(withQuota("500").length, TENANTS);
    });

    await step(
      "3. the check fails after the 25% wave: the rollout stops, the canary and 25% accounts have 750, no other",
      async () => {
        const failing = `test "$INTEGRATION_PLATFORM_WAVE" != "25%" || { echo "smoke test failed on $(wc -l < "$INTEGRATION_PLATFORM_WAVE_ACCOUNTS_FILE") accounts" >&2; exit 3; }`;
        const run = await rollout("--check", failing);
        assert.equal(run.code, 1, run.stderr.slice(-4000));
        assert.match(run.stderr, /wave 2 \(25%\): the check exited 3/);
        assert.match(run.stderr, /the rollout stopped at wave 2 \(25%\)/);
        const kept = JSON.parse(fs.readFileSync(record(), "utf8")) as RolloutRecord;
        planned = kept.waves;
        assert.equal(kept.done, 1);
        assert.equal(kept.failed, "25%");
        assert.deepEqual(planned[0].accounts, CANARY);
        const reached = [...planned[0].accounts, ...planned[1].accounts].sort();
        assert.ok(planned[1].accounts.length > 0 && planned[2].accounts.length > 0, "each wave has accounts");
        assert.deepEqual(withQuota("750"), reached, "exactly the canary and 25% accounts have the change");
        assert.deepEqual(withQuota("500"), [...planned[2].accounts].sort());
      },
    );

    await step("4. --resume applies the 25% wave again, then 100%; every shard then previews no change", async () => {
      const run = await cli(["shards", "up", ...shards, "--waves", "25%,100%", "--resume", "--record", record()]);
      assert.equal(run.code, 0, run.stderr.slice(-4000));
      assert.match(run.stderr, /the rollout is complete: 3 waves applied and checked/);
      assert.deepEqual(withQuota("750"), [...tenants].sort());
      const kept = JSON.parse(fs.readFileSync(record(), "utf8")) as RolloutRecord;
      assert.equal(kept.done, 3);
      assert.deepEqual(kept.waves, planned, "the resumed rollout kept its plan");
      const preview = await cli(["shards", "preview", ...shards, "--expect-no-changes"]);
      assert.equal(preview.code, 0, preview.stderr.slice(-4000));
    });
  });
});

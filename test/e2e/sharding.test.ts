// A large workspace as several stacks (docs/guides/scaling.md), through the real CLI at the
// emulator's default limit, the state in a bucket of a real S3-compatible server (versitygw, as a
// CI matrix's jobs would share one): examples/multi-tenant over 4 shards of about 100 linked
// accounts each, previewed into one summary, deployed at once on one API key by `shards up`, a
// second job on a locked stack refused, a killed job recovered, re-sharded to 5 by `shards move`
// without a call to the platform, and destroyed back to what was there; and `shards`'s advice to a Go
// or Java program that its host builds at every command.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, resourcesOfType, Stack } from "../../harness/engine";
import { copyProgram } from "../../harness/program";
import { seedTenants } from "../../harness/tenants";
import { shardOf } from "../../provider/sharding";
import { AT_SCALE, step, useEmulatorStack } from "../../harness/e2e";
import { lockHeld, waitFor } from "../../harness/reliability";

const TENANTS = 400;
const CLI = path.join(REPO, "dist/cli/main.js");
const SETUP = "integration-platform:index:LinkedAccountSetup";

describe(`e2e: a workspace in shards on an S3 backend, deployed at once on one API key ${AT_SCALE}`, function () {
  this.timeout(30 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) =>
      new Stack(workspace, copyProgram(path.join(REPO, "examples/multi-tenant"), workspace.root), "shard-0"),
    {
      config: { "multi-tenant:search": "Tenant tenant-" },
      s3Backend: true,
    },
  );
  /** The bucket's folder on the server's disk (versitygw's posix store), where the lock files show. */
  const bucketDir = () => path.join(e2e.s3!.dataDir, e2e.s3!.bucket);
  let tenants: string[] = [];
  const stacks: Stack[] = [];
  before(async () => {
    tenants = await seedTenants(e2e.emulator, "tenant", TENANTS);
    stacks.push(e2e.stack);
  });

  /** Shard i's stack, created with the suite's settings the first time. */
  async function shard(i: number): Promise<Stack> {
    stacks[i] ??= await e2e.addStack(new Stack(e2e.workspace, e2e.stack.dir, `shard-${i}`), {
      config: { "multi-tenant:search": "Tenant tenant-" },
    });
    return stacks[i];
  }

  /**
   * Runs the package's CLI with the workspace's Pulumi environment, and checkpoints skipped as
   * docs/guides/scaling.md sets them for `shards`; resolves to its exit code and output. Steps 2b
   * and 2c run `pulumi` itself, checkpoints on: a killed job's recovery is theirs to prove.
   */
  function cli(
    args: string[],
    extraEnv: Record<string, string> = {},
  ): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
    const started = Date.now();
    return new Promise((resolve) => {
      execFile(
        "node",
        [CLI, ...args],
        {
          cwd: e2e.stack.dir,
          env: e2e.workspace.env({ PULUMI_SKIP_CHECKPOINTS: "true", ...extraEnv }),
          maxBuffer: 256 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          resolve({
            code: error ? Number(error.code ?? 1) : 0,
            stdout,
            stderr,
            seconds: (Date.now() - started) / 1000,
          });
        },
      );
    });
  }

  const requests = () => e2e.emulator.requests.list();
  const writes = () => requests().filter((r) => r.method !== "GET");
  const dealAlerts = (id: string) =>
    e2e.emulator.store.configs
      .find({ linkedAccountId: id, slug: "hubspot", configId: id })
      ?.workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled;
  const setupsIn = async (stack: Stack) =>
    resourcesOfType(JSON.parse((await stack.ok(["stack", "export", "--stack", stack.name])).stdout), SETUP).map((r) =>
      r.urn
        .split("::")
        .pop()!
        .replace(/-hubspot$/, ""),
    );

  it("previews into one summary, deploys 4 shards at once, moves tenants from 4 to 5 shards with 0 writes, and destroys", async () => {
    await step("1. each shard's preview, summarized together, names all 400 tenants", async () => {
      // The number of shards in each stack's config, as a CI matrix job sets it; each stack's name says which one it is.
      for (let i = 0; i < 4; i++) {
        const stack = await shard(i);
        await stack.ok(["config", "set", "--stack", stack.name, "integration-platform:shards", "4"]);
      }
      // The stacks share the program's directory: each command names its stack.
      const previews = await Promise.all(stacks.map((stack) => stack.ok(["preview", "--json", "--stack", stack.name])));
      const files = previews.map((p, i) => {
        const file = path.join(e2e.workspace.root, `preview-${i}.json`);
        fs.writeFileSync(file, p.stdout);
        return file;
      });
      const full = path.join(e2e.workspace.root, "summary-full.md");
      const summary = await cli(["summarize", ...files, "--full", full]);
      assert.equal(summary.code, 0, summary.stderr);
      const text = fs.readFileSync(full, "utf8");
      const named = tenants.filter((id) => new RegExp(`\\b${id}\\b`).test(text));
      assert.equal(named.length, TENANTS, "every tenant of every shard is in the one summary");
      // The gates count across every shard's preview: 400 accounts pass a limit of 400 and cross one of 399.
      const gates = path.join(e2e.workspace.root, "gates.json");
      for (const [max, code] of [
        [TENANTS, 0],
        [TENANTS - 1, 4],
      ]) {
        fs.writeFileSync(gates, JSON.stringify({ maxLinkedAccounts: max, maxDeletes: 0, maxReplaces: 0 }));
        const gated = await cli(["summarize", ...files, "--gates", gates]);
        assert.equal(gated.code, code, `a limit of ${max} linked accounts: ${gated.stderr}`);
        const first = gated.stdout.split("\n")[code === 0 ? 0 : 1];
        assert.match(
          first,
          code === 0
            ? new RegExp(
                `^\\*\\*Within the limits set for this change\\*\\* .*: ${TENANTS} linked accounts with changes`,
              )
            : new RegExp(
                `^> - \\*\\*${TENANTS} linked accounts\\*\\* would change, over the limit of ${max} \\(\`--max-linked-accounts\`\\): \`tenant-`,
              ),
        );
      }
      assert.equal(writes().length, 0, "a preview writes nothing");
    });

    await step(
      "2. `shards up` deploys the 4 stacks at once on one key: all green, at most 0.2% of calls answered 429",
      async () => {
        e2e.emulator.requests.clear();
        const up = await cli(["shards", "up", "--shards", "4", "--stack", "shard-{shard}"]);
        assert.equal(up.code, 0, up.stderr.slice(-4000));
        assert.match(up.stderr, /4 of 4 stacks succeeded/);
        const calls = requests();
        const limited = calls.filter((r) => r.status === 429).length;
        console.log(
          `      shards up: ${calls.length} calls, ${limited} answered 429, ${up.seconds.toFixed(1)} s (rate floor ${((calls.length - limited) / 20).toFixed(1)} s)`,
        );
        assert.ok(limited <= calls.length * 0.002, `${limited} of ${calls.length} calls answered 429`);
        assert.ok(
          tenants.every((id) => dealAlerts(id) === true),
          "every tenant is set up",
        );
        for (const [i, stack] of stacks.entries()) {
          const mine = await setupsIn(stack);
          assert.deepEqual(mine.sort(), tenants.filter((id) => shardOf(id, 4) === i).sort());
        }
      },
    );

    await step(
      "2b. a second job on a stack while another holds its lock is refused with the lock's message, and loses nothing",
      async () => {
        const stack = stacks[0];
        const before = (await setupsIn(stack)).sort();
        e2e.emulator.requests.clear();
        const first = stack.start(["refresh", "--yes", "--skip-preview", "--stack", stack.name]);
        await waitFor("the first job's lock in the bucket", () => lockHeld(bucketDir()));
        const second = await stack.run(["up", "--yes", "--skip-preview", "--stack", stack.name]);
        assert.notEqual(second.code, 0);
        assert.match(
          second.stdout + second.stderr,
          /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`/,
        );
        const done = await first.exited;
        assert.equal(done.code, 0, done.stderr);
        assert.deepEqual(writes(), [], "neither job wrote");
        assert.deepEqual((await setupsIn(stack)).sort(), before, "the state keeps every setup");
        assert.ok(!lockHeld(bucketDir()), "the first job released its lock");
      },
    );

    await step(
      "2c. a job killed mid-run (SIGKILL) leaves its lock: the next job is refused until `pulumi cancel`, and the recovery of docs/guides/reliability.md converges",
      async () => {
        const stack = stacks[1];
        const mine = tenants.filter((id) => shardOf(id, 4) === 1);
        e2e.emulator.requests.clear();
        const destroy = stack.start(["destroy", "--yes", "--skip-preview", "--stack", stack.name]);
        // Killed once it has written and undone a setup: the engine picks the order of the deletes,
        // and its first 10 writes may all be fields and env values.
        await waitFor(
          "10 writes of the destroy, one of them undoing a setup",
          () => writes().length >= 10 && mine.some((id) => dealAlerts(id) === false),
        );
        destroy.killAll();
        await destroy.exited;
        assert.ok(
          mine.some((id) => dealAlerts(id) === false),
          "the killed job had undone some setups",
        );
        assert.ok(lockHeld(bucketDir()), "the killed job's lock stays in the bucket");
        const refused = await stack.run(["up", "--yes", "--skip-preview", "--stack", stack.name]);
        assert.notEqual(refused.code, 0);
        assert.match(refused.stdout + refused.stderr, /the stack is currently locked by 1 lock\(s\)/);
        // The killed destroy had undone some setups that the state still holds: refresh reads them back.
        await stack.ok(["cancel", "--yes", "--stack", stack.name]);
        await stack.ok(["refresh", "--yes", "--skip-preview", "--clear-pending-creates", "--stack", stack.name]);
        await stack.ok(["up", "--yes", "--skip-preview", "--stack", stack.name]);
        assert.deepEqual((await setupsIn(stack)).sort(), mine.sort(), "the state holds every setup of the shard again");
        assert.ok(
          mine.every((id) => dealAlerts(id) === true),
          "every tenant of the shard is set up again",
        );
      },
    );

    await step(
      "3. `shards move --from 4 --to 5` moves only the tenants of the new shard, with 0 API writes; every shard then previews no change",
      async () => {
        await shard(4);
        e2e.emulator.requests.clear();
        const moved = await cli(["shards", "move", "--from", "4", "--to", "5", "--stack", "shard-{shard}"]);
        assert.equal(moved.code, 0, moved.stderr.slice(-4000));
        const expected = tenants.filter((id) => shardOf(id, 5) === 4);
        assert.match(moved.stderr, new RegExp(`${expected.length} linked accounts move`));
        assert.deepEqual(writes(), [], "a move calls nothing on the platform");
        assert.deepEqual((await setupsIn(stacks[4])).sort(), expected.sort());
        const preview = await cli([
          "shards",
          "preview",
          "--shards",
          "5",
          "--stack",
          "shard-{shard}",
          "--expect-no-changes",
        ]);
        assert.equal(preview.code, 0, preview.stderr.slice(-4000));
        assert.deepEqual(writes(), [], "no write");
        console.log(
          `      shards move: ${expected.length} of ${TENANTS} tenants moved in ${moved.seconds.toFixed(1)} s; preview of 5 shards: ${requests().length} calls (the program's lookups), 0 writes`,
        );
      },
    );

    await step(
      "4. `shards destroy` puts every tenant back as it was, and leaves the stacks' config files as they were",
      async () => {
        // Destroy does not run the program, so it has no reason to set the shard count (one `pulumi config set` per stack).
        const configFiles = () =>
          stacks.map((stack) => fs.statSync(path.join(e2e.stack.dir, `Pulumi.${stack.name}.yaml`)).mtimeMs);
        const before = configFiles();
        const destroy = await cli([
          "shards",
          "destroy",
          "--shards",
          "5",
          "--stack",
          "shard-{shard}",
          "--starting-at-once",
          "2",
        ]);
        assert.equal(destroy.code, 0, destroy.stderr.slice(-4000));
        // Like up, destroy starts a few stacks at a time: its time is its paced requests, not its stacks' start.
        assert.match(
          destroy.stderr,
          /shards: destroy on 5 stacks \(shard-0 to shard-4\) at once \(2 starting at a time\)/,
        );
        assert.deepEqual(configFiles(), before, "no stack's config file written");
        assert.ok(tenants.every((id) => dealAlerts(id) === false));
        for (const stack of stacks) assert.deepEqual(await setupsIn(stack), []);
      },
    );

    await step(
      "5. `shards` tells a Go or Java program's owner to build it once, unless Pulumi.yaml names the binary, and to size four or more JVMs",
      async () => {
        // The stacks do not exist, so each command fails at selecting them; the advice comes before.
        const dir = path.join(e2e.workspace.root, "built-by-host");
        fs.mkdirSync(dir, { recursive: true });
        const shardsWith = async (runtime: string) => {
          fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: built-by-host\nruntime:\n${runtime}`);
          const run = await cli(["shards", "destroy", "--shards", "3", "--stack", "absent-{shard}", "--cwd", dir]);
          assert.equal(run.code, 1, run.stderr);
          assert.match(run.stderr, /shards: 0 of 3 stacks succeeded/);
          return run.stderr.split("\n").filter((line) => line.includes("runtime.options.binary"));
        };
        const go = await shardsWith("  name: go\n");
        assert.equal(go.length, 1, "one line of advice");
        assert.match(go[0], /this Go program .* the Go host runs `go build` for each of the 3 stacks at every command/);
        const java = await shardsWith("  name: java\n");
        assert.match(java[0] ?? "", /this Java program .* runs Maven .* for each of the 3 stacks/);
        assert.deepEqual(await shardsWith("  name: java\n  options:\n    binary: target/program.jar\n"), []);
        assert.deepEqual(await shardsWith("  name: go\n  options:\n    binary: bin/program\n"), []);
        assert.deepEqual(await shardsWith("  name: python\n"), []);
        // Four or more JVMs at an up or a preview, none sized: their default heaps together exceed the machine.
        // A preview creates absent stacks; names Pulumi refuses make it fail before any stack or Java host exists.
        const heapLines = async (jvmOptions: string) => {
          fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: built-by-host\nruntime: java\n");
          const noJvmOptions = { JAVA_TOOL_OPTIONS: jvmOptions, JDK_JAVA_OPTIONS: "", _JAVA_OPTIONS: "" };
          const args = ["shards", "preview", "--shards", "4", "--stack", "no such!-{shard}", "--cwd", dir];
          const run = await cli(args, noJvmOptions);
          assert.match(run.stderr, /shards: 0 of 4 stacks succeeded/);
          return run.stderr.split("\n").filter((line) => line.includes("Java programs will run at once"));
        };
        const unsized = await heapLines("");
        assert.equal(unsized.length, 1, "one line of advice");
        assert.match(
          unsized[0],
          /4 Java programs .* JAVA_TOOL_OPTIONS="-Xmx1g -XX:\+UseSerialGC -XX:TieredStopAtLevel=1"/,
        );
        assert.deepEqual(await heapLines("-Xmx1g"), []);
      },
    );
  });
});

// `pulumi-integration-platform import` as users run it (the CLI of the package installed from its
// tarball), then the project it wrote through the real Pulumi CLI, at the emulator's default rate
// limit: `pulumi up` adopts every object without one write at the platform, and
// `pulumi preview --expect-no-changes` holds after it. Once on the default fixture, and once on a
// workspace of 203 linked accounts, where the program must stay one data line per account; there,
// an import of 40 of them is also taken from its one stack into 4 shards by the scaling guide's
// steps, without a write.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { REPO, resourcesOfType, Stack, type StackExport } from "../../harness/engine";
import { installedPackage } from "../../harness/program";
import { ENCRYPTED_EVERY, seedTenants } from "../../harness/tenants";
import { AT_SCALE, observableState, step, useEmulatorStack, type E2EContext } from "../../harness/e2e";
import { FIXTURE, TYPE } from "../../harness/fixture";
import { shardOf } from "../../provider/sharding";

/** What one run of the import did. */
interface ImportRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** API calls the emulator logged during the run, and how many of them it answered 429. */
  calls: number;
  limited: number;
}

/** The package's command-line tools, from the installed tarball. */
const toolsBin = () => path.join(installedPackage(), "node_modules/pulumi-integration-platform/dist/cli/main.js");

/**
 * Runs `pulumi-integration-platform import` from the installed tarball, with the emulator's
 * address and API key in the environment as a user would export them. Asynchronously: the
 * emulator answers from this process.
 */
function runImport(emulator: RunningEmulator, args: string[]): Promise<ImportRun> {
  const bin = toolsBin();
  const from = emulator.requests.list().length;
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, "import", ...args],
      {
        env: {
          ...process.env,
          INTEGRATION_PLATFORM_BASE_URL: emulator.url,
          INTEGRATION_PLATFORM_API_KEY: emulator.apiKey,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const log = emulator.requests.list().slice(from);
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr,
          ms: Date.now() - started,
          calls: log.length,
          limited: log.filter((r) => r.status === 429).length,
        });
      },
    );
  });
}

/** Every file the import wrote (node_modules aside), with its text. */
function projectFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((name) => name !== "node_modules")
      .map((name) => [name, fs.readFileSync(path.join(dir, name), "utf8")]),
  );
}

/** The data lines of a generated index.ts: one per linked account and app. */
const dataLines = (program: string) => program.split("\n").filter((line) => line.startsWith("  { linkedAccountId: "));

/** Every value the emulator stores for an encrypted definition (the control plane sees them in clear). */
function encryptedValues(emulator: RunningEmulator): string[] {
  const state = emulator.store.snapshot();
  const encrypted = new Set(state.envDefinitions.filter((d) => d.encrypted).map((d) => d._id));
  return state.envValues.filter((v) => encrypted.has(v.variable_definition_id)).map((v) => v.value);
}

/** Asserts that no encrypted value and not the API key appear in any file the import wrote, nor in its output. */
function assertNoSecret(emulator: RunningEmulator, dir: string, run: ImportRun): void {
  const secrets = [...encryptedValues(emulator), emulator.apiKey];
  assert.ok(secrets.length > 1, "the fixture encrypts at least one value");
  for (const [name, text] of Object.entries(projectFiles(dir))) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `${name} holds a secret value`);
  }
  for (const secret of secrets)
    assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), "the import's output holds a secret value");
}

/**
 * The `pulumi config set --secret` lines the import printed, with the value each stands for, as
 * its user would look it up: from the definition, linked account and workflow the line names.
 */
function printedSecrets(emulator: RunningEmulator, stdout: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [, key, definition, account, workflow] of stdout.matchAll(
    /^ {2}pulumi config set --secret (\S+) +# (\w+)(?:, linked account ([^,\s]+))?(?:, workflow (\S+))?$/gm,
  )) {
    const value = emulator.store.envVariables.valueFor(
      emulator.store.envVariables.definitionByName(definition)!._id,
      account ?? null,
      workflow ?? null,
    );
    assert.ok(value, `the platform holds the value that ${key} stands for`);
    secrets[key] = value.value;
  }
  return secrets;
}

/** Writes at the platform: non-GET calls to the public API. */
const writes = (emulator: RunningEmulator) => emulator.requests.list().filter((r) => r.method !== "GET");

/**
 * The steps both workspaces go through after their import: install the project from the tarball,
 * create the stack with the printed secrets, `pulumi up` with no write and no change to the
 * emulator's state, then `pulumi preview --expect-no-changes`. Returns what `up` took.
 */
async function adopt(
  e2e: E2EContext,
  run: ImportRun,
  resources: number,
  env: Record<string, string> = {},
): Promise<{ seconds: number; calls: number }> {
  await step("install the project, with the package from its tarball", async () => {
    fs.symlinkSync(path.join(installedPackage(), "node_modules"), path.join(e2e.stack.dir, "node_modules"), "dir");
  });
  await step("create the stack with the connection and the secrets the import printed", async () => {
    const secrets = printedSecrets(e2e.emulator, run.stdout);
    assert.ok(Object.keys(secrets).length > 0);
    await e2e.addStack(e2e.stack, { secrets });
  });
  return step("pulumi up adopts everything with zero writes, and leaves the emulator's state as it was", async () => {
    const before = e2e.emulator.store.snapshot();
    e2e.emulator.requests.clear();
    const up = await e2e.stack.ok(["up", "--yes"], env);
    assert.deepEqual(
      writes(e2e.emulator).map((r) => `${r.method} ${r.path}`),
      [],
      "no write at the platform",
    );
    assert.deepEqual(e2e.emulator.store.snapshot(), before, "the emulator's state is unchanged");
    assert.match(up.stdout, new RegExp(`\\+ ${resources} created`));
    const calls = e2e.emulator.requests.list().length;
    await step("pulumi preview --expect-no-changes", async () => {
      await e2e.stack.ok(["preview", "--expect-no-changes"], env);
      assert.deepEqual(writes(e2e.emulator), []);
    });
    return { seconds: up.ms / 1000, calls };
  });
}

/** Runs the tools' other commands (`shards`) in `cwd`, with `env`; resolves to the exit code and output. */
function runTools(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [toolsBin(), ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, _, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

/**
 * The edit of an imported index.ts that docs/guides/scaling.md ("From an imported program to
 * shards") shows, line for line: each stack takes the setups of its shard's linked accounts, and
 * shard 0 the env values that belong to no linked account.
 */
const SHARDING_EDIT: [string, string][] = [
  ["for (const setup of setups) {", "for (const setup of platform.inThisShard(setups, (s) => s.linkedAccountId)) {"],
  [
    "for (const [name, value, workflowId] of sharedEnvValues) {",
    "for (const [name, value, workflowId] of platform.stackShard().shard === 0 ? sharedEnvValues : []) {",
  ],
];

/** The resources of a stack's state, by type: the setups' linked accounts, and the names of the shared env values. */
async function placed(stack: Stack): Promise<{ setups: string[]; shared: string[] }> {
  // Named: the stacks share the program's folder, whose selected stack is the last one a command chose.
  const state = JSON.parse((await stack.ok(["stack", "export", "--stack", stack.name])).stdout) as StackExport;
  const name = (urn: string) => urn.split("::").pop()!;
  return {
    setups: resourcesOfType(state, "integration-platform:index:LinkedAccountSetup")
      .map((r) => name(r.urn).replace(/-hubspot$/, ""))
      .sort(),
    shared: resourcesOfType(state, TYPE("EnvVariableValue"))
      .map((r) => name(r.urn))
      .filter((n) => n.startsWith("env/"))
      .sort(),
  };
}

describe("e2e: import a live workspace, then adopt it with pulumi up", function () {
  this.timeout(20 * 60_000);

  describe("the default fixture", () => {
    const e2e = useEmulatorStack((workspace) => new Stack(workspace, path.join(workspace.root, "platform")), {
      init: async () => {},
    });

    it("imports, adopts with zero writes, previews no change, and destroy puts back what the import found", async () => {
      /** acme's pipeline field, as the platform holds it. */
      const pipeline = () => {
        const config = e2e.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
        return e2e.emulator.store.configs.fieldState(config, null, "hs_pipeline");
      };
      // A field renamed outside Pulumi, so that the program declares one, and destroy has a name to put back.
      await e2e.emulator.store.update(() => {
        pipeline().name = "Deals pipeline";
      });

      const run = await step("import --slug hubspot", async () => {
        const run = await runImport(e2e.emulator, ["--slug", "hubspot", "--out", e2e.stack.dir]);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(writes(e2e.emulator), []);
        assert.equal(dataLines(projectFiles(e2e.stack.dir)["index.ts"]).length, FIXTURE.accounts.length);
        assert.match(run.stderr, /^Read 3 of 3 linked accounts/m);
        return run;
      });
      await step("no secret reaches a file", async () => assertNoSecret(e2e.emulator, e2e.stack.dir, run));

      // 3 setups; acme's API domain value and pipeline field; toggles of acme and globex; 9 env values (5 in
      // setups, 4 shared); the stack.
      await adopt(e2e, run, 3 + 2 + 2 + 9 + 1);
      const found = observableState(e2e.emulator);

      await step("the state declares what the import found (found.json) as restoreOnDelete", async () => {
        const state = await e2e.stack.exportState();
        assert.deepEqual(
          resourcesOfType(state, TYPE("ConfigField"))
            .map((f) => f.inputs?.restoreOnDelete)
            .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
          [{ name: "Deals pipeline" }, { value: "api.hubapi.com" }],
        );
        const toggles = resourcesOfType(state, TYPE("WorkflowToggle"));
        assert.deepEqual(
          toggles.map((t) => t.inputs?.restoreOnDelete),
          [true, true],
        );
      });

      await step("a name changed in the data is written by pulumi up", async () => {
        const program = path.join(e2e.stack.dir, "index.ts");
        const text = fs.readFileSync(program, "utf8");
        assert.ok(
          text.includes('fieldId: "hs_pipeline", name: "Deals pipeline"'),
          "the data line declares the name found",
        );
        fs.writeFileSync(program, text.replace('name: "Deals pipeline"', 'name: "Sales pipeline (managed)"'));
        await e2e.stack.ok(["up", "--yes"]);
        assert.equal(pipeline().name, "Sales pipeline (managed)");
      });

      await step(
        "destroy puts back what the import found: the name found, toggles as found, env values kept",
        async () => {
          e2e.emulator.requests.clear();
          await e2e.stack.ok(["destroy", "--yes"]);
          assert.equal(pipeline().name, "Deals pipeline");
          assert.deepEqual(observableState(e2e.emulator), found);
          assert.deepEqual(
            e2e.emulator.requests.list().filter((r) => r.method === "DELETE"),
            [],
            "no env value deleted",
          );
        },
      );
    });
  });

  describe(`${AT_SCALE} a workspace of 203 linked accounts`, () => {
    const TENANTS = 200;
    const ACCOUNTS = TENANTS + FIXTURE.accounts.length;
    const e2e = useEmulatorStack((workspace) => new Stack(workspace, path.join(workspace.root, "platform")), {
      init: async () => {},
    });
    before(async () => {
      await seedTenants(e2e.emulator, "tenant", TENANTS, { existingSetup: true });
    });

    it("imports one data line per account, adopts them all with zero writes, and previews no change", async () => {
      const subsetDir = path.join(e2e.workspace.root, "subset");
      const subset = [...FIXTURE.accounts, ...Array.from({ length: 17 }, (_, i) => `tenant-${i}`)];
      const small = await step(`import of ${subset.length} named linked accounts`, async () => {
        const run = await runImport(e2e.emulator, [
          "--slug",
          "hubspot",
          ...subset.flatMap((id) => ["--linked-account", id]),
          "--out",
          subsetDir,
        ]);
        assert.equal(run.code, 0, run.stderr);
        return { run, program: projectFiles(subsetDir)["index.ts"] };
      });

      const large = await step(`import of all ${ACCOUNTS} linked accounts`, async () => {
        e2e.emulator.requests.clear();
        const run = await runImport(e2e.emulator, ["--slug", "hubspot", "--out", e2e.stack.dir]);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(writes(e2e.emulator), []);
        assert.match(run.stderr, new RegExp(`^Read ${ACCOUNTS} of ${ACCOUNTS} linked accounts`, "m"));
        return { run, program: projectFiles(e2e.stack.dir)["index.ts"] };
      });

      await step("index.ts grows by one data line per account, and by nothing else", async () => {
        assert.equal(dataLines(small.program).length, subset.length);
        assert.equal(dataLines(large.program).length, ACCOUNTS);
        const rest = (program: string) => program.split("\n").length - dataLines(program).length;
        assert.equal(rest(large.program), rest(small.program), "the code around the data is the same size");
        const longest = Math.max(...dataLines(large.program).map((line) => line.length));
        assert.ok(longest < 400, `a data line stays short (longest ${longest} characters)`);
        console.log(
          `      import of ${subset.length} accounts: ${small.run.calls} calls in ${(small.run.ms / 1000).toFixed(1)} s, index.ts ${Buffer.byteLength(small.program)} bytes / ${small.program.split("\n").length} lines; ` +
            `of ${ACCOUNTS}: ${large.run.calls} calls (${large.run.limited} answered 429) in ${(large.run.ms / 1000).toFixed(1)} s, index.ts ${Buffer.byteLength(large.program)} bytes / ${large.program.split("\n").length} lines`,
        );
      });

      await step("no secret reaches a file", async () => {
        assertNoSecret(e2e.emulator, e2e.stack.dir, large.run);
        assertNoSecret(e2e.emulator, subsetDir, small.run);
        assert.equal(
          Object.keys(printedSecrets(e2e.emulator, large.run.stdout)).length,
          TENANTS / ENCRYPTED_EVERY + 1,
          "one secret line per encrypted value",
        );
      });

      // Per tenant: the setup, its pipeline field, the deal-alerts toggle, its quota, and every
      // tenth its CRM token; the fixture's accounts as in the suite above (3 setups, acme's API
      // domain value, 2 toggles, 9 env values), plus their pipeline
      // field: 200 different names and 3 of the app's own give no majority, so the import cannot
      // tell the app's own name and declares theirs too; the stack.
      const resources = TENANTS * 4 + TENANTS / ENCRYPTED_EVERY + (3 + 1 + 2 + 9) + FIXTURE.accounts.length + 1;
      // As docs/guides/scaling.md tells a workspace of this size to run: the state written once, at
      // the end, not after each of 800 steps (the engine's time otherwise grows with the square).
      const up = await adopt(e2e, large.run, resources, { PULUMI_SKIP_CHECKPOINTS: "true" });
      console.log(`      pulumi up of ${resources} resources: ${up.calls} calls, 0 writes, ${up.seconds.toFixed(1)} s`);
    });

    it("takes an import of 40 linked accounts from its one stack into 4 shards by the scaling guide's steps, with 0 writes; each shard previews no change", async () => {
      const SHARDS = 4;
      const accounts = [...FIXTURE.accounts, ...Array.from({ length: 37 }, (_, i) => `tenant-${i}`)];
      const dir = path.join(e2e.workspace.root, "sharded");
      const stacks = Array.from({ length: SHARDS }, (_, i) => new Stack(e2e.workspace, dir, `prod-${i}`));
      const guide = fs.readFileSync(path.join(REPO, "docs/guides/scaling.md"), "utf8");
      const before = e2e.emulator.store.snapshot();
      e2e.emulator.requests.clear();
      const started = Date.now();
      const seconds = new Map<string, number>();
      /** Runs a step and keeps its time, for the figures printed at the end. */
      const timed = async <T>(name: string, run: () => Promise<T>) => {
        const at = Date.now();
        const result = await step(name, run);
        seconds.set(name.split(" ")[0], (Date.now() - at) / 1000);
        return result;
      };

      const run = await timed(`0. import of ${accounts.length} linked accounts`, async () => {
        const imported = await runImport(e2e.emulator, [
          "--slug",
          "hubspot",
          ...accounts.flatMap((id) => ["--linked-account", id]),
          "--out",
          dir,
        ]);
        assert.equal(imported.code, 0, imported.stderr);
        fs.symlinkSync(path.join(installedPackage(), "node_modules"), path.join(dir, "node_modules"), "dir");
        return imported;
      });
      const adopted = await timed("1. the import's first up, on stack prod-0: it adopts every account", async () => {
        await e2e.addStack(stacks[0], { secrets: printedSecrets(e2e.emulator, run.stdout) });
        await stacks[0].ok(["up", "--yes", "--skip-preview", "--stack", "prod-0"], { PULUMI_SKIP_CHECKPOINTS: "true" });
        const all = await placed(stacks[0]);
        assert.deepEqual(all.setups, [...accounts].sort());
        assert.ok(all.shared.length > 0, "the import declares env values of no linked account");
        return all;
      });
      await timed("2. the program takes its stack's shard of the accounts, as the guide edits it", async () => {
        const program = path.join(dir, "index.ts");
        let text = fs.readFileSync(program, "utf8");
        for (const [from, to] of SHARDING_EDIT) {
          assert.equal(text.split(from).length, 2, `index.ts has one line ${from}`);
          assert.ok(guide.includes(to), `the guide shows the line ${to}`);
          text = text.replace(from, to);
        }
        fs.writeFileSync(program, text);
      });
      await timed("3. the other stacks, with prod-0's config and secrets (pulumi config cp)", async () => {
        for (const stack of stacks.slice(1)) {
          await stack.ok(["stack", "init", stack.name]);
          await stack.ok(["config", "cp", "--stack", "prod-0", "--dest", stack.name]);
        }
        assert.ok(guide.includes("pulumi config cp --stack prod-0 --dest"), "the guide copies the config so");
      });
      const env = e2e.workspace.env();
      const moved = await timed(
        "4. shards move --from 1 --to 4: each account's resources to its shard's stack",
        async () => {
          const args = ["shards", "move", "--from", "1", "--to", String(SHARDS), "--stack", "prod-{shard}"];
          assert.ok(guide.includes(`pulumi-integration-platform ${args.join(" ")}`), "the guide's command");
          const result = await runTools(args, dir, env);
          assert.equal(result.code, 0, result.stderr.slice(-4000));
          return result;
        },
      );
      await timed("5. shards preview --expect-no-changes: every shard previews no change", async () => {
        const args = [
          "shards",
          "preview",
          "--shards",
          String(SHARDS),
          "--stack",
          "prod-{shard}",
          "--expect-no-changes",
        ];
        assert.ok(guide.includes(`pulumi-integration-platform ${args.join(" ")}`), "the guide's command");
        const result = await runTools(args, dir, env);
        assert.equal(result.code, 0, result.stderr.slice(-4000));
      });

      await step("each account's setup is in its shard's stack, what belongs to none in prod-0; 0 writes", async () => {
        for (const [i, stack] of stacks.entries()) {
          const mine = accounts.filter((id) => shardOf(id, SHARDS) === i).sort();
          assert.ok(mine.length > 0, `shard ${i} has accounts`);
          assert.deepEqual(await placed(stack), { setups: mine, shared: i === 0 ? adopted.shared : [] }, stack.name);
        }
        assert.match(
          moved.stderr,
          new RegExp(`${accounts.filter((id) => shardOf(id, SHARDS) !== 0).length} linked accounts move`),
        );
        assert.deepEqual(
          writes(e2e.emulator).map((r) => `${r.method} ${r.path}`),
          [],
          "no write at the platform, from the import to the last preview",
        );
        assert.deepEqual(e2e.emulator.store.snapshot(), before, "the emulator's state is unchanged");
      });
      const calls = e2e.emulator.requests.list().length;
      console.log(
        `      ${accounts.length} imported accounts into ${SHARDS} shards: ${calls} calls, 0 writes, ${((Date.now() - started) / 1000).toFixed(1)} s ` +
          `(${[...seconds].map(([n, s]) => `step ${n} ${s.toFixed(1)} s`).join(", ")})`,
      );
    });
  });
});

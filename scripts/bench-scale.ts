// `npm run bench:scale [-- --tenants 100,1000,3334 --shards 1,4,10]`: thousands of linked accounts at the
// platform's documented limit (the emulator's default: 20 requests/s, burst 5, per API key), through
// the real CLI, as docs/guides/scaling.md recommends running them: the tenants split over S stacks
// that `pulumi-integration-platform shards` runs at once, `createWithoutRead` on, and each resource
// declaring what destroy restores.
//
// For each K (tenants) and its S (shards), the programs go through up, preview (no change),
// refresh and destroy, each command on all S stacks at once:
//   - ours:   per tenant a ConfigField, a WorkflowToggle and an EnvVariableValue (3K resources), the
//             dynamic resources;
//   - native: the same program on the native provider (the TypeScript SDK and the plugin);
//   - python, go, java: the same program in that language on the native provider's SDK; go-binary and
//             java-jar built once before the commands (the runtime's `binary` option), not by the host at each;
//   - native-setup, python-setup, go-binary-setup, java-jar-setup: the same accounts as one LinkedAccountSetup each,
//             whose three children the plugin constructs;
//   - floor:  the same 3K resources as no-op dynamic resources, split the same way: the engine's own time.
// Reported per command: wall time, API calls, 429s, the rate floor (calls answered / 20 per second),
// the engine floor, their ratio, state bytes, and the provider hosts' peak memory. `--layouts`
// (default `shards`) chooses how: S stacks (`shards`), or one stack of all K (`single`), each also
// with PULUMI_SKIP_CHECKPOINTS=true (`shards-skip`, `single-skip`); `--programs` which programs run.
// `up` runs without validation at check, as the sharded example's up jobs (docs/design/validation.md);
// `--validate-at-up` keeps it on, to measure what it costs there; `--commands up` runs only those named.
// `--backends file,s3` keeps the stacks' state in a folder, in a bucket of a real S3-compatible server
// (harness/s3.ts), or each in turn; `--peer 1000` also runs the peer (OpenTofu + restapi, BENCHMARKS.md
// "Peer") at those sizes, on its own emulator at the same limit, after ours.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator";
import { observableState } from "../harness/e2e";
import { REPO, Stack, Workspace } from "../harness/engine";
import { childrenCpuSeconds, watchMemory } from "./lib/hosts";
import { ensurePeer, preparePeer, runPeerPhase, seedPeerTenants, type PeerPhase } from "./lib/peer";
import { COMMANDS, type Command, type Measured, type PeerMeasured, type ProgramRun, wholeNumbers } from "./lib/scale";
import { startS3Backend } from "../harness/s3";
import { seedTenants } from "../harness/tenants";
import { connection, PROGRAMS, type Program, writeScaleProgram } from "./lib/scalePrograms";

const CLI = path.join(REPO, "dist/cli/main.js");

/** How a program runs: over S stacks by the `shards` runner, or as one stack through `pulumi`. */
type Layout =
  { kind: "shards"; shards: number; skipCheckpoints: boolean } | { kind: "single"; skipCheckpoints: boolean };

function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile("node", [CLI, ...args], { cwd, env, maxBuffer: 512 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

const SINGLE_ARGS: Record<Command, string[]> = {
  // The same flags the Automation API passes: no preview before up, refresh and destroy.
  up: ["up", "--yes", "--skip-preview"],
  preview: ["preview", "--expect-no-changes"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

/** Whether `up` validates at check too (`--validate-at-up`); the sharded example's up jobs do not. */
let validateAtUp = false;
/**
 * The commands run, in order (`--commands`, default all): `--commands up` measures a start and its calls in a
 * third of a whole run's time (what it leaves is not destroyed, and "left behind" is not reported).
 */
let commandsRun: Command[] = [...COMMANDS];

/** Runs one command of a program on its layout and measures it. */
async function measure(
  command: Command,
  layout: Layout,
  dir: string,
  workspace: Workspace,
  connection: Record<string, string>,
  emulator: RunningEmulator,
): Promise<Measured> {
  const env =
    command === "up" && !validateAtUp
      ? { ...connection, INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW: "false" }
      : connection;
  emulator.requests.clear();
  const stop = watchMemory();
  const cpuBefore = childrenCpuSeconds();
  const started = Date.now();
  let code: number;
  let output: string;
  if (layout.kind === "shards") {
    const skip = layout.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
    ({ code, output } = await runCli(
      [
        "shards",
        command,
        "--shards",
        String(layout.shards),
        "--stack",
        "bench-{shard}",
        ...(command === "preview" ? ["--expect-no-changes"] : []),
      ],
      dir,
      workspace.env({ ...env, ...skip }),
    ));
  } else {
    const result = await new Stack(workspace, dir, "bench-0", env).run(
      SINGLE_ARGS[command],
      layout.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {},
      3 * 60 * 60_000,
    );
    ({ code } = result);
    output = `${result.stdout}\n${result.stderr}`;
  }
  const seconds = (Date.now() - started) / 1000;
  const { hosts: memory, programs } = stop();
  const calls = emulator.requests.list();
  const measured: Measured = {
    seconds,
    calls: calls.length,
    rateLimited: calls.filter((c) => c.status === 429).length,
    hostPeakMb: memory.peakMb,
    hostsTogetherMb: memory.togetherMb,
    programPeakMb: programs.peakMb,
    programsTogetherMb: programs.togetherMb,
    cpuSeconds: childrenCpuSeconds() - cpuBefore,
    hostsCpuSeconds: memory.cpuSeconds,
    programsCpuSeconds: programs.cpuSeconds,
  };
  if (calls.length > 0) {
    // Where the seconds over the rate floor go: before the first call and after the last.
    const times = calls.map((c) => Date.parse(c.time));
    measured.beforeFirstCall = (Math.min(...times) - started) / 1000;
    measured.afterLastCall =
      (started + seconds * 1000 - Math.max(...calls.map((c) => Date.parse(c.time) + c.durationMs))) / 1000;
  }
  if (code !== 0) {
    measured.failed = (output.match(/^.*(error|failed).*$/m)?.[0] ?? output.trim().split("\n").pop() ?? "")
      .trim()
      .slice(0, 300);
    // The whole reason stays in the bench's log: a shard's failure spans many lines after its first.
    const tail = output.trim().split("\n").slice(-60).join("\n");
    process.stderr.write(`bench: ${command} failed: ${measured.failed}\n${tail}\n`);
  }
  const edges =
    measured.beforeFirstCall === undefined
      ? ""
      : `, first call at ${measured.beforeFirstCall.toFixed(1)} s, ${measured.afterLastCall?.toFixed(1)} s after the last`;
  const cpu = `; CPU ${measured.cpuSeconds!.toFixed(1)} s (programs ${programs.cpuSeconds.toFixed(1)}, plugins ${memory.cpuSeconds.toFixed(1)})`;
  process.stderr.write(
    `bench:   ${command}: ${seconds.toFixed(1)} s, ${measured.calls} calls, ${measured.rateLimited} × 429${edges}${cpu}\n`,
  );
  return measured;
}

/** What the tenants hold on the platform, as the API shows it: their configs and env values, one text each. */
function tenantObjects(emulator: RunningEmulator, tenants: string[]): string[] {
  const mine = new Set(tenants);
  const seen = observableState(emulator);
  return [...seen.configs, ...seen.envValues]
    .filter((o) => mine.has(o.linkedAccountId ?? ""))
    .map((o) => JSON.stringify(o));
}

/** How many objects one of the two lists holds and the other does not. */
function differing(before: string[], after: string[]): number {
  const [a, b] = [new Set(before), new Set(after)];
  return before.filter((o) => !b.has(o)).length + after.filter((o) => !a.has(o)).length;
}

/** Writes the program for K tenants, creates its stacks, and runs every command. */
async function runProgram(
  program: Program,
  tenants: string[],
  layout: Layout,
  emulator: RunningEmulator,
  backend: Backend,
): Promise<ProgramRun> {
  const s3 = backend === "s3" ? await startS3Backend() : undefined;
  const workspace = new Workspace(s3);
  const before = tenantObjects(emulator, tenants);
  try {
    const dir = writeScaleProgram(program, workspace.root, `scale-${program}`, tenants);
    // The runner's stacks and the single one alike.
    const env = connection(program, emulator);
    if (layout.kind === "single") await new Stack(workspace, dir, "bench-0", env).init();
    const commands = {} as Record<Command, Measured>;
    let stateBytes = 0;
    for (const command of commandsRun) {
      commands[command] = await measure(command, layout, dir, workspace, env, emulator);
      if (command === "up") {
        const stacks =
          layout.kind === "shards" ? Array.from({ length: layout.shards }, (_, i) => `bench-${i}`) : ["bench-0"];
        for (const name of stacks)
          stateBytes += Buffer.byteLength((await new Stack(workspace, dir, name, env).ok(["stack", "export"])).stdout);
      }
    }
    // What destroy left is a fact of destroy: a run without it (`--commands up`) has none to report.
    const destroyed = commandsRun.includes("destroy");
    return {
      commands,
      stateBytes,
      leftBehind: destroyed ? differing(before, tenantObjects(emulator, tenants)) : undefined,
    };
  } finally {
    workspace.dispose();
    await s3?.stop();
  }
}

/** Where the stacks' state is kept: a folder, or a bucket of a real S3-compatible server (harness/s3.ts). */
type Backend = "file" | "s3";

/** The peer at K tenants, on its own emulator at the documented limit: create, refresh, destroy. */
async function runPeer(k: number): Promise<Record<PeerPhase, PeerMeasured>> {
  const home = ensurePeer();
  const emulator = await startEmulator({ quiet: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-peer-"));
  try {
    await seedPeerTenants(emulator, k);
    preparePeer(dir, emulator.url, emulator.apiKey, k);
    const phases = {} as Record<PeerPhase, PeerMeasured>;
    for (const phase of ["create", "refresh", "destroy"] as const) {
      emulator.requests.clear();
      const run = await runPeerPhase(home, dir, phase);
      const calls = emulator.requests.list();
      phases[phase] = {
        seconds: run.seconds,
        calls: calls.length,
        rateLimited: calls.filter((c) => c.status === 429).length,
        code: run.code,
      };
      if (run.code !== 0)
        phases[phase].failed = (run.output.match(/^.*Error.*$/m)?.[0] ?? run.output.trim().split("\n").pop() ?? "")
          .trim()
          .slice(0, 300);
      process.stderr.write(
        `bench:   peer ${phase}: ${run.seconds.toFixed(1)} s, ${calls.length} calls, ${phases[phase].rateLimited} × 429${run.code ? `, exit ${run.code}` : ""}\n`,
      );
      // A failed phase is run again, as its user would, so that the next phase starts from a finished one.
      if (run.code !== 0) phases[phase].untilDone = await peerUntilDone(home, dir, phase, run.seconds, emulator);
    }
    return phases;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
}

/** Runs a failed peer phase again, up to 3 more times, until it succeeds; totals over every run, the first included. */
async function peerUntilDone(
  home: string,
  dir: string,
  phase: PeerPhase,
  firstSeconds: number,
  emulator: RunningEmulator,
): Promise<NonNullable<PeerMeasured["untilDone"]>> {
  let [runs, seconds, code] = [1, firstSeconds, 1];
  while (code !== 0 && runs < 4) {
    const run = await runPeerPhase(home, dir, phase);
    [runs, seconds, code] = [runs + 1, seconds + run.seconds, run.code];
  }
  // The log was cleared before the first run, so it holds every run's calls.
  const calls = emulator.requests.list();
  const done = { runs, seconds, calls: calls.length, rateLimited: calls.filter((c) => c.status === 429).length, code };
  process.stderr.write(
    `bench:   peer ${phase} until done: ${done.runs} runs, ${done.seconds.toFixed(1)} s, ${done.calls} calls, ${done.rateLimited} × 429${done.code ? `, still failing` : ""}\n`,
  );
  return done;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenants: { type: "string", default: "100,1000,3334" },
      shards: { type: "string", default: "1,4,10" },
      layouts: { type: "string", default: "shards" },
      programs: { type: "string", default: "floor,ours" },
      out: { type: "string" },
      backends: { type: "string", default: "file" },
      peer: { type: "string", default: "" },
      "validate-at-up": { type: "boolean", default: false },
      commands: { type: "string", default: COMMANDS.join(",") },
    },
  });
  validateAtUp = values["validate-at-up"]!;
  // Run in their own order whatever order they are named in; each needs what up made.
  const named = values.commands!.split(",").filter(Boolean);
  if (!named.includes("up") || named.some((c) => !(COMMANDS as readonly string[]).includes(c)))
    throw new Error(`--commands takes up and any of ${COMMANDS.join(", ")}; got ${values.commands}`);
  commandsRun = COMMANDS.filter((c) => named.includes(c));
  const sizes = wholeNumbers("--tenants", values.tenants!);
  const shards = wholeNumbers("--shards", values.shards!);
  if (shards.length !== sizes.length)
    throw new Error(
      `--shards gives one number of shards per --tenants size: ${sizes.length} expected, ${shards.length} given`,
    );
  const programs = values.programs!.split(",").filter(Boolean) as Program[];
  if (programs.length === 0 || programs.some((p) => !(p in PROGRAMS)))
    throw new Error(`--programs takes ${Object.keys(PROGRAMS).join(", ")}; got ${values.programs}`);
  const layoutNames = values.layouts!.split(",").filter(Boolean);
  const unknown = layoutNames.filter((name) => !["shards", "shards-skip", "single", "single-skip"].includes(name));
  if (unknown.length > 0)
    throw new Error(`--layouts takes shards, shards-skip, single and single-skip; got ${unknown.join(", ")}`);
  const backends = values.backends!.split(",").filter(Boolean) as Backend[];
  if (backends.length === 0 || backends.some((b) => b !== "file" && b !== "s3"))
    throw new Error(`--backends takes file and s3; got ${values.backends}`);
  const peerSizes = wholeNumbers("--peer", values.peer!);
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-scale-"));
  fs.mkdirSync(out, { recursive: true });
  const results: Record<string, unknown> = {
    machine: `${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    load: os.loadavg()[0],
    // Every JVM of a Java program reads them (a sized heap; an agent, BENCHMARKS.md "Java's runner loop").
    ...(process.env.JAVA_TOOL_OPTIONS ? { javaToolOptions: process.env.JAVA_TOOL_OPTIONS } : {}),
  };

  for (const [i, k] of sizes.entries()) {
    const layouts: [string, Layout][] = layoutNames.map((name) =>
      name.startsWith("shards")
        ? [
            `shards-${shards[i]}${name.endsWith("-skip") ? "-skip" : ""}`,
            { kind: "shards", shards: shards[i], skipCheckpoints: name.endsWith("-skip") },
          ]
        : [name, { kind: "single", skipCheckpoints: name === "single-skip" }],
    );
    for (const backend of backends) {
      for (const [name, layout] of layouts) {
        for (const program of programs) {
          // No rateLimit option: the emulator's default is the platform's documented limit.
          const emulator = await startEmulator({ quiet: true });
          try {
            const tenants = await seedTenants(emulator, "tenant", k);
            process.stderr.write(`bench: K=${k} ${name} ${program} on ${backend} ...\n`);
            const run = await runProgram(program, tenants, layout, emulator, backend);
            // The file backend keeps its earlier keys, so that older results files still read alike.
            results[`${k}/${name}/${program}${backend === "file" ? "" : `/${backend}`}`] = run;
            fs.writeFileSync(path.join(out, "results.json"), JSON.stringify(results, null, 2));
          } finally {
            await emulator.close();
          }
        }
      }
    }
    if (peerSizes.includes(k)) {
      process.stderr.write(`bench: K=${k} peer (OpenTofu + restapi) ...\n`);
      results[`${k}/peer`] = await runPeer(k);
      fs.writeFileSync(path.join(out, "results.json"), JSON.stringify(results, null, 2));
    }
  }
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  process.stderr.write(
    `bench: raw results in ${path.join(out, "results.json")}; tables: npx ts-node --transpile-only scripts/bench-scale-report.ts ${path.join(out, "results.json")}\n`,
  );
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.stack ?? error.message}`);
  process.exit(1);
});

// `npm run bench:shard-preview [-- --tenants 1000,3334,10000 --shards 4,10,10]`: the no-change preview of
// one shard's stack, as one job of a CI matrix runs it on a machine of its own, for each program of
// `bench:scale` (the dynamic resources, the native provider, and the same resources as no-op dynamic
// resources: the engine's own floor). `bench:scale` times the previews of all S shards at once on one
// machine; this is the other way the scaling guide runs them.
//
// Each preview runs two ways: as Node.js runs by default, and with NODE_OPTIONS=--stack-trace-limit=0.
// The Node.js SDK records a stack trace for every output property of every resource it registers
// (runtime/debuggable.js), which it prints only with PULUMI_DEBUG_PROMISE_LEAKS set; with no frames
// to record that costs nothing (docs/guides/scaling.md, "Which provider, and how many shards").
//
// The shard's stack is set up by one `pulumi up` against an emulator with its rate limit OFF: that up
// is not timed, and the preview it prepares makes no call (each preview's calls are counted, and
// one call fails the run), so the limit cannot change what is measured.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { Stack, Workspace } from "../harness/engine";
import { startS3Backend } from "../harness/s3";
import { seedTenants } from "../harness/tenants";
import { watchMemory } from "./lib/hosts";
import { wholeNumbers } from "./lib/scale";
import { connection, PROGRAMS, type Program, writeScaleProgram } from "./lib/scalePrograms";

/** One program's previews of shard 0 of S, at K linked accounts. */
interface ShardPreview {
  /** Resources in the shard's stack. */
  resources: number;
  /** Each preview's wall time, in seconds, in the order run, as Node.js runs by default. */
  seconds: number[];
  /** The same with NODE_OPTIONS=--stack-trace-limit=0. */
  noStackSeconds: number[];
  /** The program's peak RSS over the default previews (MB). */
  programPeakMb: number;
  /** The program's peak RSS over the previews with --stack-trace-limit=0 (MB). */
  noStackProgramPeakMb: number;
  /** The provider host's peak RSS over the previews (MB). */
  hostPeakMb: number;
}

/** Counts the resources the platform holds in a stack's state: everything but the stack and provider entries. */
function platformResources(state: { deployment: { resources?: { type: string }[] } }): number {
  return (state.deployment.resources ?? []).filter(
    (r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"),
  ).length;
}

/** Sets up shard 0 of `shards` for `tenants` and times `runs` no-change previews of it alone. */
async function previewOneShard(program: Program, k: number, shards: number, runs: number): Promise<ShardPreview> {
  // Limit off for the setup `up` only, which is not timed; the timed previews make no call (checked below).
  const emulator = await startEmulator({ quiet: true, rateLimit: "off" });
  const s3 = await startS3Backend();
  const workspace = new Workspace(s3);
  try {
    const tenants = await seedTenants(emulator, "tenant", k);
    const dir = writeScaleProgram(program, workspace.root, `shard-${program}`, tenants);
    const stack = new Stack(workspace, dir, "bench-0", connection(program, emulator));
    await stack.init({ "integration-platform:shards": String(shards) });
    await stack.ok(["up", "--yes", "--skip-preview"], { PULUMI_SKIP_CHECKPOINTS: "true" });
    const resources = platformResources(await stack.exportState());
    const [seconds, noStackSeconds]: number[][] = [[], []];
    const [programMb, noStackProgramMb, hostMb]: number[][] = [[], [], []];
    const preview = async (extra: Record<string, string | undefined>, into: number[], memory: number[]) => {
      emulator.requests.clear();
      const stop = watchMemory();
      const started = Date.now();
      await stack.ok(["preview", "--expect-no-changes"], extra);
      into.push((Date.now() - started) / 1000);
      const { programs, hosts } = stop();
      memory.push(programs.peakMb);
      hostMb.push(hosts.peakMb);
      const calls = emulator.requests.list().length;
      if (calls !== 0) throw new Error(`${program}: a no-change preview made ${calls} calls; it must make none`);
    };
    // Alternated, so that neither way has the warmer machine.
    for (let i = 0; i < runs; i += 1) {
      await preview({ NODE_OPTIONS: undefined }, seconds, programMb);
      await preview({ NODE_OPTIONS: "--stack-trace-limit=0" }, noStackSeconds, noStackProgramMb);
    }
    const result = {
      resources,
      seconds,
      noStackSeconds,
      programPeakMb: Math.max(...programMb),
      noStackProgramPeakMb: Math.max(...noStackProgramMb),
      hostPeakMb: Math.max(...hostMb),
    };
    const list = (values: number[]) => values.map((v) => v.toFixed(1)).join(", ");
    process.stderr.write(
      `bench: K=${k} shard 0 of ${shards} ${program}: ${resources} resources, preview ${list(seconds)} s, --stack-trace-limit=0 ${list(noStackSeconds)} s, program ${result.programPeakMb} MB (${result.noStackProgramPeakMb} MB without stacks), host ${result.hostPeakMb} MB\n`,
    );
    return result;
  } finally {
    workspace.dispose();
    await s3.stop();
    await emulator.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenants: { type: "string", default: "1000,3334,10000" },
      shards: { type: "string", default: "4,10,10" },
      programs: { type: "string", default: "floor,ours,native" },
      runs: { type: "string", default: "3" },
      out: { type: "string" },
    },
  });
  const sizes = wholeNumbers("--tenants", values.tenants!);
  const shards = wholeNumbers("--shards", values.shards!);
  if (shards.length !== sizes.length) throw new Error("--shards gives one number of shards per --tenants size");
  const programs = values.programs!.split(",") as Program[];
  if (programs.some((p) => !(p in PROGRAMS)))
    throw new Error(`--programs takes ${Object.keys(PROGRAMS).join(", ")}; got ${values.programs}`);
  const [runs] = wholeNumbers("--runs", values.runs!);
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-shard-preview-"));
  fs.mkdirSync(out, { recursive: true });
  const results: Record<string, unknown> = { machine: `${os.cpus().length} vCPUs, Node ${process.version}` };
  for (const [i, k] of sizes.entries())
    for (const program of programs) {
      results[`${k}/${shards[i]}/${program}`] = await previewOneShard(program, k, shards[i], runs);
      fs.writeFileSync(path.join(out, "results.json"), JSON.stringify(results, null, 2));
    }
  process.stdout.write(
    "| K | shards | program | resources in shard 0 | preview, min / median / max (s) | the same, NODE_OPTIONS=--stack-trace-limit=0 (s) | program's peak, default / without stacks (MB) | host's peak (MB) |\n|---|---|---|---|---|---|---|---|\n",
  );
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[0].toFixed(1)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} / ${sorted[sorted.length - 1].toFixed(1)}`;
  };
  for (const [key, value] of Object.entries(results)) {
    if (!key.includes("/")) continue;
    const [k, s, program] = key.split("/");
    const r = value as ShardPreview;
    process.stdout.write(
      `| ${k} | ${s} | ${program} | ${r.resources} | ${spread(r.seconds)} | ${spread(r.noStackSeconds)} | ${r.programPeakMb} / ${r.noStackProgramPeakMb} | ${r.hostPeakMb} |\n`,
    );
  }
  process.stderr.write(`bench: raw results in ${path.join(out, "results.json")}\n`);
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.stack ?? error.message}`);
  process.exit(1);
});

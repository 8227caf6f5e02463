// `npm run bench:shard-preview [-- --tenants 1000,3334,10000 --shards 4,10,10]`: the no-change preview of
// one shard's stack, as one job of a CI matrix runs it on a machine of its own, for each program of
// `bench:scale` (the dynamic resources, the native provider, and the same resources as no-op dynamic
// resources: the engine's own floor). `bench:scale` times the previews of all S shards at once on one
// machine; this is the other way the scaling guide runs them.
//
// Each preview runs in each of the ways a TypeScript program can be run here (`--ways`, WAYS below): as
// the Pulumi CLI runs it by default (ts-node, with its type check), with NODE_OPTIONS=--stack-trace-limit=0
// (the Node.js SDK records a stack trace for every output property of every resource it registers,
// runtime/debuggable.js, printed only with PULUMI_DEBUG_PROMISE_LEAKS set), and without the type check
// (PULUMI_NODEJS_TRANSPILE_ONLY=true). A program compiled beforehand (`typescript: false`) is not
// among them: the self-built engine's v3.68 host ignores runtime.options (test/unit/engineFeatures.test.ts).
// docs/guides/scaling.md, "Which provider, and how many shards".
//
// The shard's stack is set up by one `pulumi up` against an emulator with its rate limit OFF: that up
// is not timed, and the preview it prepares makes no call (each preview's calls are counted, and
// one call fails the run), so the limit cannot change what is measured.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Stack } from "../harness/engine";
import { watchMemory } from "./lib/hosts";
import { wholeNumbers } from "./lib/scale";
import { connection, PROGRAMS, type Program, withScaleProgram } from "./lib/scalePrograms";

/** The ways a TypeScript program is run: the environment of its preview. */
const WAYS = {
  default: {},
  "stack-trace-limit-0": { NODE_OPTIONS: "--stack-trace-limit=0" },
  "transpile-only": { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
} satisfies Record<string, Record<string, string>>;
/** One of WAYS. */
type Way = keyof typeof WAYS;

/** One program's previews of shard 0 of S, at K linked accounts, run each way. */
interface ShardPreview {
  /** Resources in the shard's stack. */
  resources: number;
  /** Per way: each preview's wall time in seconds, in the order run, and the program's peak RSS over them (MB). */
  ways: Partial<Record<Way, { seconds: number[]; programPeakMb: number }>>;
  /** The provider host's peak RSS over the previews (MB). */
  hostPeakMb: number;
}

/** Counts the resources the platform holds in a stack's state: everything but the stack and provider entries. */
function platformResources(state: { deployment: { resources?: { type: string }[] } }): number {
  return (state.deployment.resources ?? []).filter(
    (r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"),
  ).length;
}

/** Sets up shard 0 of `shards` for `tenants` and times `runs` no-change previews of it alone, each way. */
async function previewOneShard(
  program: Program,
  k: number,
  shards: number,
  runs: number,
  ways: Way[],
): Promise<ShardPreview> {
  // Limit off, though the platform has one (20/s, burst 5), for the setup `up` only, which is not
  // timed; the timed previews make no call (checked below), so no limit could change them.
  return withScaleProgram(
    program,
    k,
    "shard",
    { quiet: true, rateLimit: "off" },
    async ({ emulator, workspace, dir }) => {
      const stack = new Stack(workspace, dir, "bench-0", connection(program, emulator));
      await stack.init({ "integration-platform:shards": String(shards) });
      await stack.ok(["up", "--yes", "--skip-preview"], { PULUMI_SKIP_CHECKPOINTS: "true" });
      const resources = platformResources(await stack.exportState());
      const seconds = new Map<Way, number[]>(ways.map((way) => [way, []]));
      const programMb = new Map<Way, number[]>(ways.map((way) => [way, []]));
      const hostMb: number[] = [];
      const preview = async (way: Way) => {
        const env = WAYS[way];
        emulator.requests.clear();
        const stop = watchMemory();
        const started = Date.now();
        await stack.ok(["preview", "--expect-no-changes"], { NODE_OPTIONS: undefined, ...env });
        seconds.get(way)!.push((Date.now() - started) / 1000);
        const { programs, hosts } = stop();
        programMb.get(way)!.push(programs.peakMb);
        hostMb.push(hosts.peakMb);
        const calls = emulator.requests.list().length;
        if (calls !== 0) throw new Error(`${program}: a no-change preview made ${calls} calls; it must make none`);
      };
      // Alternated, so that no way has the warmer machine.
      for (let i = 0; i < runs; i += 1) for (const way of ways) await preview(way);
      const result: ShardPreview = {
        resources,
        ways: Object.fromEntries(
          ways.map((way) => [way, { seconds: seconds.get(way)!, programPeakMb: Math.max(...programMb.get(way)!) }]),
        ),
        hostPeakMb: Math.max(...hostMb),
      };
      const list = (values: number[]) => values.map((v) => v.toFixed(1)).join(", ");
      const each = ways.map((way) => `${way} ${list(seconds.get(way)!)} s`).join("; ");
      process.stderr.write(`bench: K=${k} shard 0 of ${shards} ${program}: ${resources} resources, preview ${each}\n`);
      return result;
    },
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenants: { type: "string", default: "1000,3334,10000" },
      shards: { type: "string", default: "4,10,10" },
      programs: { type: "string", default: "floor,ours,native" },
      runs: { type: "string", default: "3" },
      ways: { type: "string", default: Object.keys(WAYS).join(",") },
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
  const ways = values.ways!.split(",") as Way[];
  if (ways.some((w) => !(w in WAYS)))
    throw new Error(`--ways takes ${Object.keys(WAYS).join(", ")}; got ${values.ways}`);
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-shard-preview-"));
  fs.mkdirSync(out, { recursive: true });
  const results: Record<string, unknown> = { machine: `${os.cpus().length} vCPUs, Node ${process.version}` };
  for (const [i, k] of sizes.entries())
    for (const program of programs) {
      results[`${k}/${shards[i]}/${program}`] = await previewOneShard(program, k, shards[i], runs, ways);
      fs.writeFileSync(path.join(out, "results.json"), JSON.stringify(results, null, 2));
    }
  process.stdout.write(
    `| K | shards | program | resources in shard 0 | ${ways.map((w) => `${w}: preview min / median / max (s), program's peak (MB)`).join(" | ")} | host's peak (MB) |\n`,
  );
  process.stdout.write(`|${"---|".repeat(5 + ways.length)}\n`);
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[0].toFixed(1)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} / ${sorted[sorted.length - 1].toFixed(1)}`;
  };
  for (const [key, value] of Object.entries(results)) {
    if (!key.includes("/")) continue;
    const [k, s, program] = key.split("/");
    const r = value as ShardPreview;
    const cells = ways.map((w) => `${spread(r.ways[w]!.seconds)}, ${r.ways[w]!.programPeakMb}`);
    process.stdout.write(`| ${k} | ${s} | ${program} | ${r.resources} | ${cells.join(" | ")} | ${r.hostPeakMb} |\n`);
  }
  process.stderr.write(`bench: raw results in ${path.join(out, "results.json")}\n`);
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.stack ?? error.message}`);
  process.exit(1);
});

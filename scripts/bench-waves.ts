// `npm run bench:waves [-- --tenants 100,400,1000 --shards 1,2,4 --waves 1%,10%,100%]`: a change to every
// linked account given by one `shards up`, and the next change by `shards up --waves`, on the same stacks
// in the same run, through the real CLI at the platform's documented limit (the emulator's default: 20
// requests/s, burst 5, per API key). The program is bench:scale's (scripts/lib/scalePrograms.ts, the
// dynamic resources, `createWithoutRead` on, no validation at check as the sharded example's up jobs);
// the change is every account's field name. Reported per K:
// wall time, calls (writes and reads), 429s, and the rate floor of each; the waves' per-wave times.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { RunningEmulator } from "../emulator";
import { REPO, type Workspace } from "../harness/engine";
import { logLogSvg } from "./lib/plot";
import { wholeNumbers } from "./lib/scale";
import { connection, withScaleProgram } from "./lib/scalePrograms";

const CLI = path.join(REPO, "dist/cli/main.js");
/** The platform's documented limit, requests per second. */
const RATE = 20;

/** One measured command: its wall time, its calls, and when each wave began (waves only). */
interface Measured {
  seconds: number;
  writes: number;
  reads: number;
  rateLimited: number;
  /** Seconds from the start at which each wave began, from the rollout's own lines. */
  waves?: { name: string; at: number }[];
}

/** Runs the package's CLI in `cwd`; resolves to its exit code and what it printed, each stderr line timed. */
function runCli(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string; lines: { at: number; text: string }[] }> {
  const started = Date.now();
  const lines: { at: number; text: string }[] = [];
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env, maxBuffer: 512 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}`, lines }),
    );
    child.stderr?.on("data", (chunk: Buffer) => {
      for (const text of chunk.toString().split("\n"))
        if (text) lines.push({ at: (Date.now() - started) / 1000, text });
    });
  });
}

/** Sets the field name every account's ConfigField declares, e.g. `${id} deals`: the change rolled out. */
function setLabel(dir: string, from: string, to: string): void {
  const file = path.join(dir, "index.ts");
  const text = fs.readFileSync(file, "utf8");
  if (!text.includes(`\${id} ${from}\``)) throw new Error(`bench: the program has no field name "\${id} ${from}"`);
  fs.writeFileSync(file, text.replace(`\${id} ${from}\``, `\${id} ${to}\``));
}

/** Runs one `shards` command line and measures it from the emulator's journal. */
async function measure(
  args: string[],
  dir: string,
  workspace: Workspace,
  env: Record<string, string>,
  emulator: RunningEmulator,
): Promise<Measured> {
  emulator.requests.clear();
  const started = Date.now();
  // As the sharded example's up jobs run: no validation reads at check (the pull request's preview did them).
  const run = await runCli(
    args,
    dir,
    workspace.env({ ...env, PULUMI_SKIP_CHECKPOINTS: "true", INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW: "false" }),
  );
  const seconds = (Date.now() - started) / 1000;
  if (run.code !== 0) throw new Error(`bench: ${args.join(" ")} failed:\n${run.output.slice(-6000)}`);
  const calls = emulator.requests.list();
  const waves = run.lines.flatMap(({ at, text }) => {
    const wave = /^shards: wave \d+ of \d+ \(([^)]+)\)/.exec(text);
    return wave ? [{ name: wave[1], at }] : [];
  });
  const measured: Measured = {
    seconds,
    writes: calls.filter((c) => c.method !== "GET" && c.status !== 429).length,
    reads: calls.filter((c) => c.method === "GET" && c.status !== 429).length,
    rateLimited: calls.filter((c) => c.status === 429).length,
    ...(waves.length > 0 ? { waves } : {}),
  };
  process.stderr.write(
    `bench:   ${args.slice(0, 2).join(" ")}${args.includes("--waves") ? " --waves" : ""}: ${seconds.toFixed(1)} s, ` +
      `${measured.writes} writes, ${measured.reads} reads, ${measured.rateLimited} × 429\n`,
  );
  return measured;
}

/** One size's run: deploy, one change by `shards up`, the next by `shards up --waves`, then destroy. */
async function runSize(k: number, shards: number, waves: string) {
  return withScaleProgram("ours", k, "waves", {}, async ({ emulator, workspace, dir }) => {
    const env = connection("ours", emulator);
    const stacks = ["--shards", String(shards), "--stack", "bench-{shard}"];
    const deploy = await measure(["shards", "up", ...stacks], dir, workspace, env, emulator);
    setLabel(dir, "pipeline", "deals");
    const up = await measure(["shards", "up", ...stacks], dir, workspace, env, emulator);
    setLabel(dir, "deals", "stages");
    const record = path.join(workspace.root, "rollout.json");
    const rollout = await measure(
      ["shards", "up", ...stacks, "--waves", waves, "--record", record],
      dir,
      workspace,
      env,
      emulator,
    );
    const after = await measure(["shards", "preview", ...stacks, "--expect-no-changes"], dir, workspace, env, emulator);
    await measure(["shards", "destroy", ...stacks], dir, workspace, env, emulator);
    return { k, shards, deploy, up, rollout, noChangePreviewCalls: after.reads + after.writes };
  });
}

/** The rate floor of a measured command: calls answered / 20 per second. */
const floor = (m: Measured) => (m.writes + m.reads) / RATE;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenants: { type: "string", default: "100,400,1000" },
      shards: { type: "string", default: "1,2,4" },
      waves: { type: "string", default: "1%,10%,100%" },
      out: { type: "string" },
      svg: { type: "string" },
    },
  });
  const sizes = wholeNumbers("--tenants", values.tenants!);
  const shards = wholeNumbers("--shards", values.shards!);
  if (shards.length !== sizes.length)
    throw new Error(`--shards gives one number per --tenants size: ${sizes.length} expected, ${shards.length} given`);
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-waves-"));
  fs.mkdirSync(out, { recursive: true });
  const results = {
    machine: `${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    load: os.loadavg()[0],
    waves: values.waves!,
    runs: [] as Awaited<ReturnType<typeof runSize>>[],
  };
  for (const [i, k] of sizes.entries()) {
    process.stderr.write(`bench: K=${k} on ${shards[i]} shards ...\n`);
    results.runs.push(await runSize(k, shards[i], values.waves!));
    fs.writeFileSync(path.join(out, "results.json"), JSON.stringify(results, null, 2));
  }

  const rows = [
    `${results.machine}, load average before the run ${results.load.toFixed(2)}; waves ${results.waves}.`,
    "",
    "| K (resources) | shards | command | wall (s) | writes | reads | answered 429 | rate floor (s) | wall / rate floor | waves / up |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results.runs) {
    for (const [name, m] of [
      ["shards up", r.up],
      ["shards up --waves", r.rollout],
    ] as const) {
      rows.push(
        `| ${r.k} (${3 * r.k}) | ${r.shards} | ${name} | ${m.seconds.toFixed(1)} | ${m.writes} | ${m.reads} | ` +
          `${m.rateLimited} | ${floor(m).toFixed(1)} | ${(m.seconds / floor(m)).toFixed(2)} | ` +
          `${name === "shards up" ? "" : (m.seconds / r.up.seconds).toFixed(2)} |`,
      );
    }
  }
  rows.push("", "When each wave began, seconds after the rollout's start:", "");
  for (const r of results.runs)
    rows.push(`- K = ${r.k}: ${(r.rollout.waves ?? []).map((w) => `${w.name} at ${w.at.toFixed(1)}`).join(", ")}`);
  process.stdout.write(`${rows.join("\n")}\n`);
  if (values.svg)
    fs.writeFileSync(
      values.svg,
      logLogSvg({
        title: "A change to every account: one shards up, and in waves: wall (solid), rate floor (dashed)",
        subtitle: `waves ${results.waves}; both axes logarithmic; 2 cores, at the platform's documented limit`,
        xLabel: "linked accounts (3 resources each; the change: 1 field name each)",
        series: [
          ["shards up", "#1f77b4", (r: (typeof results.runs)[number]) => r.up] as const,
          ["shards up --waves", "#d62728", (r: (typeof results.runs)[number]) => r.rollout] as const,
        ].map(([name, color, of]) => ({
          name,
          color,
          points: results.runs.map((r): [number, number] => [r.k, of(r).seconds]),
          floor: results.runs.map((r): [number, number] => [r.k, floor(of(r))]),
        })),
      }),
    );
  process.stderr.write(`bench: raw results in ${path.join(out, "results.json")}\n`);
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.stack ?? error.message}`);
  process.exit(1);
});

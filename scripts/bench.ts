// `npm run bench [-- --sizes 50,200,1000 --rate-limited-sizes 200,1000 --rate-limit-status 429]`: what the
// provider costs on top of the Pulumi engine, and how close it runs to the platform's rate limit.
//
// Both tables run two programs through the real CLI, in the same run, on the same engine and
// with the same (default) parallelism:
//   - ours:  N resources, a mix of the four kinds spread across N/4 linked accounts, with the
//            package installed from its tarball the way users install it, against the emulator;
//   - floor: N no-op dynamic resources (an inline provider that calls nothing) with the same inputs.
//
// The first table (--sizes) is the provider against the engine's floor, with the emulator's rate
// limit and the provider's pacing both off: each program goes through up (create everything),
// preview with no changes, up after changing 10% of the resources, refresh, destroy. Reported:
// wall time and its ratio to the floor, API calls per resource (from the emulator's request log),
// state and `__provider` bytes per resource, the peak RSS of the dynamic provider host, and how
// time grows from N = 200 to N = 1000.
//
// The second table (--rate-limited-sizes) runs ours against the emulator's default limit (the
// platform's documented 20 requests/s, burst 5) with the provider's default pacing, through up,
// refresh and destroy, and compares each wall time with the larger of two floors: the time the
// limit needs for the calls that were answered, and the no-op program's time.
// Either list may be empty, to run one table alone. `--rate-limit-status 403` makes the emulator
// answer its limit with 403 "Rate Limit Hit" (the platform's older form) instead of 429, and
// `--requests-per-second R` makes ours pace to R instead of the documented 20 (above it, the limit
// answers, as when another job spends the same key): together they prove the waiting, not only the pacing.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { parseRateLimitStatus, startEmulator, type EmulatorOptions, type RunningEmulator } from "../emulator";
import { Stack, Workspace } from "../harness/engine";
import { NOOP_RESOURCE } from "./lib/floor";
import { measure, seed, specs, stateSizes, type Measured } from "./lib/workload";
import { writeProgram } from "../harness/program";

const OPS = ["up (create)", "preview (no changes)", "up (10% changed)", "refresh", "destroy"] as const;
type Op = (typeof OPS)[number];
/** The rate-limited table's operations: the ones whose calls scale with N. */
const RATE_LIMITED_OPS = ["up (create)", "refresh", "destroy"] as const;
type RateLimitedOp = (typeof RATE_LIMITED_OPS)[number];

// `up` and `destroy` run with their preview, as users run them in CI; `refresh` without: a
// previewed refresh reads every resource twice (once to preview, once to apply), for both
// programs; the engine does that, not the provider.
const UP = ["up", "--yes"];
const REFRESH = ["refresh", "--yes", "--skip-preview"];
const DESTROY = ["destroy", "--yes"];

interface ProgramResult {
  ops: Record<Op, Measured>;
  stateBytesPerResource: number;
  providerBytesPerResource: number;
}

type Kind = "ours" | "floor";

/** One size of the rate-limited table: both programs, and the limit the emulator enforced. */
interface RateLimitedResult {
  ours: Record<RateLimitedOp, Measured>;
  floor: Record<RateLimitedOp, Measured>;
  limit: { requestsPerSecond: number; burst: number; status: number };
}

const OURS = `
import * as platform from "pulumi-integration-platform";
const specs: { kind: string; name: string; args: any }[] = require("./resources.json");
for (const s of specs) new (platform as any)[s.kind](s.name, s.args);
`;

// The floor: the cheapest dynamic resource the engine can run, with the same inputs.
const FLOOR = `${NOOP_RESOURCE}
const specs: { kind: string; name: string; args: any }[] = require("./resources.json");
for (const s of specs) new Noop(s.name, s.args);
`;

/** Writes program `kind` with N resources into a fresh workspace, creates its stack, and runs `body` on it. */
async function withStack<T>(
  kind: Kind,
  n: number,
  emulator: RunningEmulator,
  config: Record<string, string>,
  body: (stack: Stack, dir: string) => Promise<T>,
): Promise<T> {
  const workspace = new Workspace();
  try {
    const dir = writeProgram(workspace.root, `bench-${kind}-${n}`, {
      "index.ts": kind === "ours" ? OURS : FLOOR,
      "resources.json": JSON.stringify(specs(n, false)),
    });
    const stack = new Stack(workspace, dir);
    await stack.init(
      { "integration-platform:baseUrl": emulator.url, ...config },
      { "integration-platform:apiKey": emulator.apiKey },
    );
    return await body(stack, dir);
  } finally {
    workspace.dispose();
  }
}

async function runProgram(kind: Kind, n: number, emulator: RunningEmulator, root: string): Promise<ProgramResult> {
  // Pacing off: this table compares the provider's own overhead with the engine floor, not the
  // platform's limit (the rate-limited table covers that), and pacing would make ours wait for
  // turns that the floor never waits for.
  const config: Record<string, string> = kind === "ours" ? { "integration-platform:requestsPerSecond": "0" } : {};
  return withStack(kind, n, emulator, config, async (stack, dir) => {
    const ops = {} as Record<Op, Measured>;
    ops["up (create)"] = await measure(stack, emulator, UP);
    const sizes = stateSizes(await stack.exportState(), n);
    ops["preview (no changes)"] = await measure(stack, emulator, ["preview", "--expect-no-changes"]);
    fs.writeFileSync(path.join(dir, "resources.json"), JSON.stringify(specs(n, true)));
    ops["up (10% changed)"] = await measure(stack, emulator, UP);
    ops.refresh = await measure(stack, emulator, REFRESH);
    ops.destroy = await measure(stack, emulator, DESTROY);
    fs.writeFileSync(path.join(root, `${kind}-${n}.json`), JSON.stringify({ ops, ...sizes }, null, 2));
    return { ops, ...sizes };
  });
}

/**
 * Runs program `kind` through up, refresh and destroy with the provider's default pacing (no
 * setting), as a user runs it. The floor runs the same commands in the same order, so each of its
 * times is the engine floor of the same operation.
 */
async function runRateLimited(
  kind: Kind,
  n: number,
  emulator: RunningEmulator,
  root: string,
  requestsPerSecond?: string,
): Promise<Record<RateLimitedOp, Measured>> {
  const config: Record<string, string> =
    kind === "ours" && requestsPerSecond !== undefined
      ? { "integration-platform:requestsPerSecond": requestsPerSecond }
      : {};
  return withStack(kind, n, emulator, config, async (stack) => {
    const ops = {} as Record<RateLimitedOp, Measured>;
    // A failed command does not stop the run: the next ones still show what the limit does, and
    // destroy still runs, so every size starts from an emulator with nothing created.
    ops["up (create)"] = await measure(stack, emulator, UP, false);
    ops.refresh = await measure(stack, emulator, REFRESH, false);
    ops.destroy = await measure(stack, emulator, DESTROY, false);
    fs.writeFileSync(path.join(root, `rate-limited-${kind}-${n}.json`), JSON.stringify({ ops }, null, 2));
    return ops;
  });
}

/** Starts an emulator seeded for N resources, runs `body` with it, and closes it. */
async function withEmulator<T>(
  options: EmulatorOptions,
  n: number,
  body: (emulator: RunningEmulator) => Promise<T>,
): Promise<T> {
  const emulator = await startEmulator(options);
  try {
    await seed(emulator, n);
    return await body(emulator);
  } finally {
    await emulator.close();
  }
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** A comma-separated list of sizes; empty means "skip this table". */
function parseSizes(option: string, text: string): number[] {
  const sizes = text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 4))
    throw new Error(`${option} takes whole numbers of at least 4, e.g. 200,1000, or nothing; got ${text}`);
  return sizes;
}

/** The first table's lines: the provider against the engine floor, limit and pacing off. */
function floorTables(
  sizes: number[],
  results: Record<number, { ours: ProgramResult; floor: ProgramResult }>,
): string[] {
  const lines: string[] = [];
  lines.push(
    "| N | operation | ours (s) | floor (s) | ratio | reads / resource | writes / resource | writes / changed resource | peak RSS of provider host, ours / floor (MB) |",
  );
  lines.push("|---|---|---|---|---|---|---|---|---|");
  for (const n of sizes) {
    const { ours, floor } = results[n];
    for (const op of OPS) {
      const o = ours.ops[op];
      const f = floor.ops[op];
      const changed = op === "up (10% changed)" ? Math.round(n / 10) : n;
      lines.push(
        `| ${n} | ${op} | ${fmt(o.ms / 1000)} | ${fmt(f.ms / 1000)} | ${fmt(o.ms / f.ms)} | ${fmt(o.reads / n)} | ${fmt(o.writes / n)} | ${fmt(o.writes / changed)} | ${o.peakRssMb} / ${f.peakRssMb} |`,
      );
    }
  }
  lines.push(
    "",
    "The emulator's rate limit and the provider's pacing were off (`integration-platform:requestsPerSecond` = 0): this table measures the provider against the engine floor, not the platform's limit; the rate-limited table below covers the limit.",
  );
  lines.push(
    "",
    "| N | state bytes / resource, ours | floor | ratio | `__provider` bytes / resource, ours | floor |",
    "|---|---|---|---|---|---|",
  );
  for (const n of sizes) {
    const { ours, floor } = results[n];
    lines.push(
      `| ${n} | ${ours.stateBytesPerResource} | ${floor.stateBytesPerResource} | ${fmt(ours.stateBytesPerResource / floor.stateBytesPerResource)} | ${ours.providerBytesPerResource} | ${floor.providerBytesPerResource} |`,
    );
  }
  if (results[200] && results[1000]) {
    lines.push("", "| operation | ours: time at N=1000 / N=200 | floor: time at N=1000 / N=200 |", "|---|---|---|");
    for (const op of OPS) {
      lines.push(
        `| ${op} | ${fmt(results[1000].ours.ops[op].ms / results[200].ours.ops[op].ms)} | ${fmt(results[1000].floor.ops[op].ms / results[200].floor.ops[op].ms)} |`,
      );
    }
  }
  return lines;
}

/** The most a rate-limited operation may take over its larger floor. */
const RATIO_TARGET = 1.15;

/** The rate-limited table's lines, with the command that reproduces it and the verdict against the targets. */
function rateLimitedTable(
  sizes: number[],
  results: Record<number, RateLimitedResult>,
  status: number,
  requestsPerSecond?: string,
): string[] {
  const limits = [
    ...new Set(
      sizes.map((n) => `${results[n].limit.requestsPerSecond} requests/s with a burst of ${results[n].limit.burst}`),
    ),
  ].join("; ");
  const answer = status === 403 ? `, answered 403 "Rate Limit Hit" instead of 429 (--rate-limit-status 403)` : "";
  const lines: string[] = [];
  const pacing =
    requestsPerSecond === undefined
      ? "at its default pacing"
      : `pacing to ${requestsPerSecond} requests/s (\`--requests-per-second ${requestsPerSecond}\`), so that the limit answers`;
  lines.push(
    `Rate-limited: the emulator at its default limit (${limits}, per credential: the platform's documented limit${answer}), the provider ${pacing}.`,
    "",
  );
  lines.push(
    `| N | operation | wall (s) | API calls (${status}s included) | answered ${status} | rate floor (s) | engine floor (s) | ratio | calls / resource, all / not ${status} | failed |`,
  );
  lines.push("|---|---|---|---|---|---|---|---|---|---|");
  const missed: string[] = [];
  let failed = 0;
  for (const n of sizes) {
    const { ours, floor, limit } = results[n];
    for (const op of RATE_LIMITED_OPS) {
      const o = ours[op];
      const answered = o.calls - o.rateLimited;
      // The least time the limit allows for the calls that were needed; the 429s were not needed.
      const rateFloorMs = (answered / limit.requestsPerSecond) * 1000;
      const engineFloorMs = floor[op].ms;
      const ratio = o.ms / Math.max(rateFloorMs, engineFloorMs);
      if (ratio > RATIO_TARGET) missed.push(`${op} at N = ${n} (${fmt(ratio)})`);
      if (o.failed) failed += 1;
      lines.push(
        `| ${n} | ${op} | ${fmt(o.ms / 1000)} | ${o.calls} | ${o.rateLimited} | ${fmt(rateFloorMs / 1000)} | ${fmt(engineFloorMs / 1000)} | ${fmt(ratio)} | ${fmt(o.calls / n)} / ${fmt(answered / n)} | ${o.failed ? "**yes**" : "no"} |`,
      );
    }
  }
  const total = sizes.length * RATE_LIMITED_OPS.length;
  lines.push(
    "",
    `Rate floor = calls answered other than ${status} / the limit's requests per second: the least time the documented limit allows for the calls that were needed. Engine floor = the no-op program's wall time for the same command at the same N, in the same run. Ratio = wall / max(rate floor, engine floor). Calls per resource are per created (up), refreshed (refresh) and deleted (destroy) resource.`,
    "`up` and `destroy` ran with their preview (as users run them in CI), `refresh` with --skip-preview, for both programs; each program ran up, refresh and destroy in that order.",
    `Against the targets: failed operations ${failed} of ${total} (target 0: ${failed === 0 ? "met" : "**missed**"}); ratio at most ${RATIO_TARGET}: ${missed.length === 0 ? "met" : `**missed** for ${missed.join(", ")}`}.`,
    `Reproduce this table alone: \`npm run bench -- --sizes '' --rate-limited-sizes ${sizes.join(",")}${status === 429 ? "" : ` --rate-limit-status ${status}`}${requestsPerSecond === undefined ? "" : ` --requests-per-second ${requestsPerSecond}`}\``,
  );
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "50,200,1000" },
      "rate-limited-sizes": { type: "string", default: "200,1000" },
      out: { type: "string" },
      "rate-limit-status": { type: "string", default: "429" },
      "requests-per-second": { type: "string" },
    },
  });
  const rateLimitStatus = parseRateLimitStatus(values["rate-limit-status"], "--rate-limit-status");
  const sizes = parseSizes("--sizes", values.sizes!);
  const rateLimitedSizes = parseSizes("--rate-limited-sizes", values["rate-limited-sizes"]!);
  if (sizes.length === 0 && rateLimitedSizes.length === 0)
    throw new Error("--sizes and --rate-limited-sizes are both empty: nothing to run");
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-"));
  fs.mkdirSync(out, { recursive: true });
  const load = os.loadavg()[0];

  const results: Record<number, { ours: ProgramResult; floor: ProgramResult }> = {};
  for (const n of sizes) {
    // Limit off: this table measures the provider against the engine floor, not the platform's
    // limit; the rate-limited table covers the limit.
    results[n] = await withEmulator({ quiet: true, rateLimit: "off" }, n, async (emulator) => {
      process.stderr.write(`bench: N=${n}: floor ...\n`);
      const floor = await runProgram("floor", n, emulator, out);
      process.stderr.write(`bench: N=${n}: ours ...\n`);
      const ours = await runProgram("ours", n, emulator, out);
      return { ours, floor };
    });
  }

  const rateLimited: Record<number, RateLimitedResult> = {};
  for (const n of rateLimitedSizes) {
    // No rateLimit option: the emulator's default is the platform's documented limit.
    rateLimited[n] = await withEmulator({ quiet: true, rateLimitStatus }, n, async (emulator) => {
      const { requestsPerSecond, burst, status } = emulator.rateLimit.get();
      if (requestsPerSecond === null || burst === null)
        throw new Error("the emulator's default rate limit is off; the rate-limited table needs it on");
      // The floor calls no API, so the limit does not touch it: it is the engine's time alone.
      process.stderr.write(`bench: rate-limited N=${n}: floor ...\n`);
      const floor = await runRateLimited("floor", n, emulator, out);
      process.stderr.write(`bench: rate-limited N=${n}: ours ...\n`);
      const ours = await runRateLimited("ours", n, emulator, out, values["requests-per-second"]);
      return { ours, floor, limit: { requestsPerSecond, burst, status } };
    });
  }

  const lines: string[] = [];
  lines.push(
    `Machine: ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average before the run ${load.toFixed(2)}.`,
  );
  if (sizes.length > 0) lines.push("", ...floorTables(sizes, results));
  if (rateLimitedSizes.length > 0)
    lines.push("", ...rateLimitedTable(rateLimitedSizes, rateLimited, rateLimitStatus, values["requests-per-second"]));
  const report = lines.join("\n");
  fs.writeFileSync(path.join(out, "report.md"), report + "\n");
  console.log(report);
  process.stderr.write(`bench: raw results in ${out}\n`);
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.message}`);
  process.exit(1);
});

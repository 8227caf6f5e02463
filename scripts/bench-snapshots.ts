// How long the emulator's snapshots take at scale, over HTTP as a test suite calls them: save, and
// restore after a change, in memory and with a snapshot folder; against a reset and a re-seed, and a
// later emulator's restore from the file.
//
//   npx ts-node --transpile-only scripts/bench-snapshots.ts [--tenants 1000,10000] [--runs 5] [--svg FILE]
//
// Each figure is the median of --runs, with the minimum and maximum; docs BENCHMARKS.md, "Emulator snapshots".
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import axios from "axios";
import { startEmulator, type RunningEmulator } from "../emulator";
import { seedTenants } from "../harness/tenants";
import { logLogSvg } from "./lib/plot";

const { values } = parseArgs({
  options: {
    tenants: { type: "string", default: "1000,10000" },
    runs: { type: "string", default: "5" },
    svg: { type: "string" },
  },
});
const TENANTS = values.tenants.split(",").map(Number);
const RUNS = Number(values.runs);

/** Milliseconds `work` takes. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Median, minimum and maximum of `runs` timings of `work`, after `before` each. */
async function measure(work: () => Promise<unknown>, before: () => Promise<unknown> = async () => {}) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await before();
    times.push(await timed(work));
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] };
}

const ms = (t: { median: number; min: number; max: number }) =>
  `${t.median.toFixed(0)} (${t.min.toFixed(0)}–${t.max.toFixed(0)})`;

/** Starts an emulator on `dir`, restores "seeded" from its file, and stops it (all three timed by the caller). */
async function restoreInLaterEmulator(dir: string): Promise<void> {
  const later = await startEmulator({ quiet: true, snapshots: dir });
  try {
    await axios.post(`${later.url}/_emulator/snapshots/seeded/restore`);
  } finally {
    await later.close();
  }
}

async function benchOne(tenants: number, dir?: string) {
  const emulator: RunningEmulator = await startEmulator({ quiet: true, snapshots: dir });
  try {
    await seedTenants(emulator, "tenant", tenants);
    await emulator.store.commit();
    const control = axios.create({ baseURL: `${emulator.url}/_emulator` });
    // A change between save and restore, as a test case makes one.
    const change = async () =>
      emulator.store.update((state) => {
        state.linkedAccounts[0].name = `renamed ${performance.now()}`;
      });
    const save = await measure(() => control.put("/snapshots/seeded"));
    // The seeded state's size as JSON: what a snapshot holds (its file is this, unindented).
    const size = Buffer.byteLength(JSON.stringify(emulator.store.state));
    const restore = await measure(() => control.post("/snapshots/seeded/restore"), change);
    // The alternative a suite has without snapshots: reset, then seed the accounts again (through the
    // store, in process; through the API it would be thousands of calls at the rate limit).
    const reseed = await measure(
      () => seedTenants(emulator, "tenant", tenants).then(() => emulator.store.commit()),
      () => control.post("/reset"),
    );
    // With a folder: what a later emulator pays to restore from the file (read, parse, check).
    const fromFile = dir ? await measure(() => restoreInLaterEmulator(dir)) : undefined;
    return { save, restore, reseed, size, fromFile };
  } finally {
    await emulator.close();
  }
}

async function main() {
  console.log(
    `node ${process.version}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model}), load ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(
    "| linked accounts | where | save (ms) | restore (ms) | reset and seed again, in process (ms) | a later emulator: start, restore from the file, stop (ms) | state (bytes) |",
  );
  console.log("|---|---|---|---|---|---|---|");
  const plotted: { tenants: number; where: string; r: Awaited<ReturnType<typeof benchOne>> }[] = [];
  for (const tenants of TENANTS) {
    for (const where of ["memory", "folder"] as const) {
      const dir = where === "folder" ? fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-snapshots-")) : undefined;
      try {
        const r = await benchOne(tenants, dir);
        plotted.push({ tenants, where, r });
        const later = r.fromFile ? ms(r.fromFile) : "";
        console.log(
          `| ${tenants} | ${where} | ${ms(r.save)} | ${ms(r.restore)} | ${ms(r.reseed)} | ${later} | ${r.size} |`,
        );
      } finally {
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  if (values.svg) fs.writeFileSync(values.svg, plotOf(plotted));
}

/** The medians against the linked accounts, in seconds: a snapshot's save and restore beside a re-seed. */
function plotOf(rows: { tenants: number; where: string; r: Awaited<ReturnType<typeof benchOne>> }[]): string {
  const of = (where: string, pick: (r: (typeof rows)[number]["r"]) => { median: number } | undefined) =>
    rows
      .filter((row) => row.where === where && pick(row.r))
      .map((row): [number, number] => [row.tenants, pick(row.r)!.median / 1000]);
  return logLogSvg({
    title: "Emulator snapshots: save and restore over HTTP, against a reset and re-seed",
    subtitle: `medians of ${RUNS} runs; both axes logarithmic; 2 cores; the control plane is never rate limited`,
    xLabel: "linked accounts in the state (each with a HubSpot config and env values)",
    series: [
      { name: "save (memory)", color: "#1f77b4", points: of("memory", (r) => r.save) },
      { name: "restore (memory)", color: "#2ca02c", points: of("memory", (r) => r.restore) },
      { name: "save (folder)", color: "#9467bd", points: of("folder", (r) => r.save) },
      { name: "later emulator, from file", color: "#ff7f0e", points: of("folder", (r) => r.fromFile) },
      { name: "reset and re-seed", color: "#d62728", points: of("memory", (r) => r.reseed) },
    ],
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

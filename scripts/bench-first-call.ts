// `npx ts-node --transpile-only scripts/bench-first-call.ts [--tenants 10000 --shards 10 --programs native,ours]`
// `[--runs 1] [--cpu-prof <dir>]`:
// how long `shards up` of the scale programs (scripts/lib/scalePrograms.ts) takes to make its first
// API call, the part of `up` that the rate limit does not pace ("first call at" in bench:scale's
// tables), without waiting for the rest: each run is stopped, with every process it started, at
// its first call. The same setup as bench:scale's shards-skip layout on S3 (its own emulator at
// the documented limit, createWithoutRead, no validation at up, checkpoints skipped), so a start
// can be looked at in minutes rather than the 75 of a whole run. `--cpu-prof <dir>` has every
// Node.js process of the run (programs, plugins, hosts) write a CPU profile there when stopped.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { BACKGROUND_TAG, REPO, taggedProcesses } from "../harness/engine";
import { cpuProfileEnv } from "./lib/hosts";
import { connection, PROGRAMS, type Program, withScaleProgram } from "./lib/scalePrograms";

/** Stops every process of a run: SIGINT first, so that Node.js processes write their --cpu-prof, then SIGKILL. */
async function stopAll(value: string): Promise<void> {
  for (const pid of taggedProcesses(value)) {
    try {
      process.kill(pid, "SIGINT");
    } catch {
      // already gone
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  for (const pid of taggedProcesses(value)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** One run of `program`: seconds from the start of `shards up` to its first answered API call. */
async function firstCall(program: Program, k: number, shards: number, profiles?: string): Promise<number> {
  const value = `${program}-${process.pid}-${Date.now()}`;
  return withScaleProgram(program, k, "first", { quiet: true }, async ({ emulator, workspace, dir }) => {
    try {
      const env = workspace.env({
        ...connection(program, emulator),
        INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW: "false",
        PULUMI_SKIP_CHECKPOINTS: "true",
        [BACKGROUND_TAG]: value,
        ...(profiles ? cpuProfileEnv(profiles) : {}),
      });
      emulator.requests.clear();
      const started = Date.now();
      const cli = spawn(
        "node",
        [path.join(REPO, "dist/cli/main.js"), "shards", "up", "--shards", String(shards), "--stack", "bench-{shard}"],
        { cwd: dir, env, stdio: "ignore" },
      );
      let ended = false;
      cli.on("exit", () => (ended = true));
      while (emulator.requests.list().length === 0 && !ended) await new Promise((resolve) => setTimeout(resolve, 100));
      const calls = emulator.requests.list();
      if (calls.length === 0) throw new Error(`${program}: shards up ended before its first call`);
      return (Date.parse(calls[0].time) - started) / 1000;
    } finally {
      await stopAll(value);
    }
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenants: { type: "string", default: "10000" },
      shards: { type: "string", default: "10" },
      programs: { type: "string", default: "native,ours" },
      runs: { type: "string", default: "1" },
      "cpu-prof": { type: "string" },
    },
  });
  const [k, shards, runs] = [Number(values.tenants), Number(values.shards), Number(values.runs)];
  const programs = values.programs!.split(",") as Program[];
  for (const p of programs)
    if (!(p in PROGRAMS)) throw new Error(`--programs takes ${Object.keys(PROGRAMS).join(", ")}; got ${p}`);
  const profiles = values["cpu-prof"] ? path.resolve(values["cpu-prof"]) : undefined;
  if (profiles) fs.mkdirSync(profiles, { recursive: true });
  // Interleaved (A B A B …), so that a machine's drift weighs on each alike.
  for (let run = 1; run <= runs; run++)
    for (const program of programs) {
      const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
      const seconds = await firstCall(program, k, shards, profiles && path.join(profiles, `${program}-${run}`));
      console.log(
        `${program}\trun ${run}\tK=${k} on ${shards} shards\tfirst call at ${seconds.toFixed(1)} s\tload before ${load}`,
      );
    }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

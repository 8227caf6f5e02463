// How long the plugin takes from process start to its first answered engine call, and its peak
// memory by then: the release's single executable (Node.js and the bundled script in one file)
// against the script the npm package runs (BENCHMARKS.md, "The plugin as one executable").
//
//   npx ts-node --transpile-only scripts/bench-plugin-start.ts [--runs N] [--vs '<other command>']... \
//     -- <plugin command> [args...]
//
// Each run starts the command with the engine's address (127.0.0.1:1; unused by these calls), reads
// the port from its first line of stdout, calls GetPluginInfo, prints the milliseconds since the
// start and the peak RSS (Linux's VmHWM), then calls CheckConfig (the first call that needs the
// whole provider) and prints the milliseconds to its answer, and kills the plugin. With --vs, the
// commands run in turn (A B A B …), so that a busy machine weighs on each alike.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");
const { CheckRequest } = require("@pulumi/pulumi/proto/provider_pb");

/**
 * One run: milliseconds from spawn to GetPluginInfo's answer, the version it answered, and the plugin's peak RSS (KiB)
 * and CPU time (ms) by then.
 */
export interface StartRun {
  ms: number;
  /** Milliseconds from spawn to CheckConfig's answer (an error answer counts: the plugin had loaded). */
  checkConfigMs: number;
  version: string;
  peakKiB?: number;
  cpuMs?: number;
}

/** The process's peak resident set (VmHWM, KiB) and user + system CPU time (ms) so far, from Linux's /proc. */
function usage(pid: number): { peakKiB?: number; cpuMs?: number } {
  try {
    const peak = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB/m);
    // Fields 14 and 15 of stat (after the name in parentheses), in clock ticks of 10 ms.
    const [utime, stime] = fs
      .readFileSync(`/proc/${pid}/stat`, "utf8")
      .split(") ")[1]
      .split(" ")
      .slice(11, 13)
      .map(Number);
    return { peakKiB: peak ? Number(peak[1]) : undefined, cpuMs: (utime + stime) * 10 };
  } catch {
    return {};
  }
}

/** Starts `command` as the engine would, calls GetPluginInfo once, and kills it. */
export async function startOnce(command: string[]): Promise<StartRun> {
  const started = process.hrtime.bigint();
  const child = spawn(command[0], [...command.slice(1), "127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port`)));
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
    });
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const version = await new Promise<string>((resolve, reject) =>
      client.getPluginInfo(new Empty(), (error: Error | null, info: { getVersion(): string }) =>
        error ? reject(error) : resolve(info.getVersion()),
      ),
    );
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const measured = usage(child.pid!);
    const request = new CheckRequest();
    request.setUrn("urn:pulumi:dev::bench::pulumi:providers:integration-platform::default");
    await new Promise<void>((resolve) => client.checkConfig(request, () => resolve()));
    const checkConfigMs = Number(process.hrtime.bigint() - started) / 1e6;
    client.close();
    return { ms, checkConfigMs, version, ...measured };
  } finally {
    child.kill("SIGKILL");
  }
}

/** The smallest, middle and largest of `values` (the lower middle for an even count). */
export function spread(values: number[]): [number, number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[0], sorted[Math.floor((sorted.length - 1) / 2)], sorted[sorted.length - 1]];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { runs: { type: "string", default: "1" }, vs: { type: "string", multiple: true, default: [] } },
    allowPositionals: true,
  });
  if (positionals.length === 0)
    throw new Error(
      "usage: bench-plugin-start.ts [--runs N] [--vs '<other command>']... -- <plugin command> [args...]",
    );
  const commands = [positionals, ...values.vs.map((command) => command.split(" ").filter(Boolean))];
  const runs: StartRun[][] = commands.map(() => []);
  for (let i = 0; i < Number(values.runs); i++) {
    for (const [c, command] of commands.entries()) {
      const run = await startOnce(command);
      runs[c].push(run);
      console.log(
        `${commands.length > 1 ? `[${c + 1}] ` : ""}${run.ms.toFixed(1)} ms  CPU ${run.cpuMs ?? "?"} ms  peak RSS ${run.peakKiB ?? "?"} KiB  CheckConfig at ${run.checkConfigMs.toFixed(1)} ms  (version ${run.version})`,
      );
    }
  }
  if (runs[0].length < 2) return;
  for (const [c, command] of commands.entries()) {
    const [ms, cpu, rss, check] = [
      spread(runs[c].map((r) => r.ms)),
      spread(runs[c].map((r) => r.cpuMs ?? NaN)),
      spread(runs[c].map((r) => r.peakKiB ?? NaN)),
      spread(runs[c].map((r) => r.checkConfigMs)),
    ];
    console.log(
      `${commands.length > 1 ? `[${c + 1}] ${command.join(" ")}: ` : ""}${runs[c].length} runs, min / median / max: ${ms.map((v) => v.toFixed(1)).join(" / ")} ms; CPU ${cpu.join(" / ")} ms; peak RSS ${rss.map((v) => (v / 1024).toFixed(1)).join(" / ")} MiB; CheckConfig answered at ${check.map((v) => v.toFixed(1)).join(" / ")} ms`,
    );
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

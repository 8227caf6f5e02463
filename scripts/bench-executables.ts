// The tools' and the emulator's executables (BENCHMARKS.md, "The tools and the emulator as
// executables"): each archive's and wheel's size on every target of a release folder, and on this
// machine the start of the linux-amd64 executables against the npm package's scripts run by `node`:
// the tools' `--version` and `summarize` of a small preview (whole process, start to exit), and the
// emulator from start to its first answered request.
//
//   npm run bench:executables -- --release <folder of npm run release> [--runs 10]
//
// The emulator runs with its default, the platform's documented rate limit; one request is far below it.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command } from "commander";
import { archiveName, executableName, PROGRAMS, TARGETS, type ProgramName } from "./release/executables";
import { wheelFileName } from "./release/wheels";

const REPO = path.resolve(__dirname, "..");

/** Median of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds a command takes from spawn to exit (it must exit 0). */
function timeCommand(command: string, args: string[], cwd: string): number {
  const started = process.hrtime.bigint();
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"], env: { PATH: "", HOME: os.tmpdir() } });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Milliseconds from spawning the emulator to its first answered request, then it is stopped. */
async function timeEmulator(command: string, args: string[]): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(command, [...args, "--port", "0", "--quiet"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { PATH: "", HOME: os.tmpdir() },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
        if (found) resolve(found[1]);
      });
      child.on("exit", (code) => reject(new Error(`${command} exited ${code} before listening:\n${text}`)));
    });
    const answer = await fetch(`${url}/api/v2/public/linked-account`, {
      headers: { "x-api-key": "tk_emulator" },
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`the emulator answered ${answer.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  } finally {
    child.kill("SIGKILL");
  }
}

/** Runs `measure` `runs` times after one warm-up; returns the median and the range. */
async function sample(runs: number, measure: () => number | Promise<number>) {
  await measure();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await measure());
  return { median: median(times), min: Math.min(...times), max: Math.max(...times) };
}

async function main(): Promise<void> {
  const options = new Command()
    .name("npm run bench:executables --")
    .requiredOption("--release <dir>", "a release folder (npm run release -- --snapshot --out <dir>)")
    .option("--runs <n>", "counted runs of each start, after one warm-up", "10")
    .parse()
    .opts<{ release: string; runs: string }>();
  const runs = Number(options.runs);
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
  const mb = (file: string) => (fs.existsSync(file) ? `${(fs.statSync(file).size / 1e6).toFixed(1)} MB` : "—");

  console.log("| program | target | archive | wheel | executable |");
  console.log("|---|---|---|---|---|");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-executables-"));
  try {
    for (const program of ["tools", "emulator"] as const satisfies readonly ProgramName[]) {
      for (const target of TARGETS) {
        const archive = path.join(options.release, archiveName(version, target, program));
        const wheel = path.join(options.release, wheelFileName(program, version, target));
        const dir = path.join(work, program, target);
        fs.mkdirSync(dir, { recursive: true });
        execFileSync("tar", ["-xzf", archive, "-C", dir]);
        console.log(
          `| ${PROGRAMS[program].name} | ${target} | ${mb(archive)} | ${mb(wheel)} | ${mb(path.join(dir, executableName(target, program)))} |`,
        );
      }
    }

    const node = process.execPath;
    const tools = path.join(work, "tools", "linux-amd64", executableName("linux-amd64", "tools"));
    const emulator = path.join(work, "emulator", "linux-amd64", executableName("linux-amd64", "emulator"));
    const preview = path.join(REPO, "test", "e2e", "golden", "preview.json");
    const rows: [string, string, () => number | Promise<number>][] = [
      ["tools `--version`", "executable", () => timeCommand(tools, ["--version"], work)],
      ["tools `--version`", "node + script", () => timeCommand(node, ["dist/cli/main.js", "--version"], REPO)],
      ["tools `summarize` (golden preview)", "executable", () => timeCommand(tools, ["summarize", preview], work)],
      [
        "tools `summarize` (golden preview)",
        "node + script",
        () => timeCommand(node, ["dist/cli/main.js", "summarize", preview], REPO),
      ],
      ["emulator, start to first answer", "executable", () => timeEmulator(emulator, [])],
      [
        "emulator, start to first answer",
        "node + script",
        () => timeEmulator(node, [path.join(REPO, "dist/emulator/main.js")]),
      ],
    ];
    console.log(`\n| start (linux-amd64, median of ${runs}, min–max) | how | ms |`);
    console.log("|---|---|---|");
    for (const [what, how, measure] of rows) {
      const { median: mid, min, max } = await sample(runs, measure);
      console.log(`| ${what} | ${how} | ${mid.toFixed(0)} (${min.toFixed(0)}–${max.toFixed(0)}) |`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(`bench:executables: ${error.message}`);
  process.exit(1);
});

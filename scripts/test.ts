// `npm test`: every suite, several at once. The end-to-end suites spend most of their time waiting
// on the emulator's rate limit (20 requests per second, each suite on its own emulator, backend and
// PULUMI_HOME), so they run side by side: each e2e file is a job, the unit suites one job, the
// emulator suites another. What suites share (sdk/python's virtualenv, sdk/java's Maven repository,
// the release folder) is made once, by a job of its own, before the suites that need it start.
// Each job's output is printed whole when it ends; the last line is the total, "N passed, N
// failed", as CI reads it. docs/development.md, "Running the tests", has the groups and the options.
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { PACKAGE_TARBALL_ENV, packTarball } from "../harness/program";
import { cacheRoot } from "../harness/tools";

const REPO = path.resolve(__dirname, "..");
const MOCHA = path.join(REPO, "node_modules", "mocha", "bin", "mocha.js");
/** Each job's wall time in the last full run, in seconds: the longest start first (`--write-durations`). */
const DURATIONS = path.join(REPO, "test", "durations.json");

/** The groups, each a set of test files; GitHub Actions runs one job per group (.github/workflows/ci.yml). */
export const GROUPS = ["unit", "emulator", "e2e", "e2e-languages", "e2e-scale"] as const;
/** One of the groups. */
type Group = (typeof GROUPS)[number];

/** How many processes share the unit suites. */
const UNIT_JOBS = 3;

/** What one process makes for several suites (test/support/prepare.ts), or the minimum CLI. */
type Prepared = "python" | "java" | "release" | "minimum";

/** The tests' typecheck and the lint (`npm run check`): a job beside the suites, in every run without --group. */
const CHECKS = "checks";

/** Which shared things a suite's source uses, by the harness functions it calls. */
const NEEDS: [Prepared, RegExp][] = [
  ["python", /pythonBin\(|writeScaleProgram\(/],
  ["java", /javaSdkRepository\(|javaEnv\(|copyNativeExample\(\s*"java"/],
  [
    "release",
    /releaseFolder\(|installPluginFromArchive\(|programArchive\(|pythonWheel\(|toolWheelFile\(|freshVirtualenv\(/,
  ],
];

/** A job: a mocha process over some files, or the making of a shared thing. */
interface Job {
  name: string;
  /** The command and its arguments. */
  argv: string[];
  /** The shared things it waits for. */
  needs: Prepared[];
  /** Expected seconds, from the last run: the longest start first. */
  weight: number;
  /** Environment added to the runner's. */
  env: Record<string, string>;
  /** For a suite job: its group; for a shared thing, what it makes; or the checks. */
  group: Group | Prepared | typeof CHECKS;
  /** Set when it ended. */
  result?: { code: number; seconds: number; cpu?: number; passed: number; failed: number; log: string };
}

/** The test files of a group (paths relative to the repository). */
function groupFiles(group: Group): string[] {
  /** The `*.test.ts` files in a folder (`recursive`: at any depth), sorted. */
  const glob = (dir: string, recursive = true) =>
    (fs.readdirSync(path.join(REPO, dir), { recursive }) as string[])
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => path.join(dir, file))
      .sort();
  if (group === "unit") return glob("test/unit");
  if (group === "emulator") return [...glob("test/emulator"), ...glob("examples/webhook-receiver", false)];
  const tagged = (file: string) => {
    const text = fs.readFileSync(path.join(REPO, file), "utf8");
    if (/\bLANGUAGES\b/.test(text)) return "e2e-languages";
    if (/\bAT_SCALE\b|\bENGINE_RECOVERY\b/.test(text)) return "e2e-scale";
    return "e2e";
  };
  return glob("test/e2e").filter((file) => tagged(file) === group);
}

/** What the files' sources use of the shared things. */
function needsOf(files: string[]): Prepared[] {
  const text = files.map((file) => fs.readFileSync(path.join(REPO, file), "utf8")).join("\n");
  const needs = NEEDS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
  // The release's Java SDK is built with Maven in the same local repository: never two at once.
  return needs.includes("release") && !needs.includes("java") ? [...needs, "java"] : needs;
}

/** The last "N passed, N failed" line of a mocha run's output. */
function counts(log: string): { passed: number; failed: number } | undefined {
  const lines = [...log.matchAll(/^(\d+) passed, (\d+) failed/gm)];
  const last = lines.at(-1);
  return last ? { passed: Number(last[1]), failed: Number(last[2]) } : undefined;
}

/** The children's user and system seconds in a `times` output (its second line), if it was written. */
function cpuSeconds(file: string): number | undefined {
  if (!fs.existsSync(file)) return undefined;
  const line = fs.readFileSync(file, "utf8").split("\n")[1] ?? "";
  const values = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return values.length === 2 ? values[0] + values[1] : undefined;
}

/** Runs one job, its output to a file; resolves when it ends. */
function run(job: Job, logs: string, pathFor: (job: Job) => string): Promise<void> {
  const file = path.join(logs, `${job.name.replace(/[^\w.-]+/g, "_")}.log`);
  const out = fs.openSync(file, "w");
  const started = Date.now();
  // Through bash, whose `times` gives the CPU seconds of the job and every process it waited for
  // (the CLI, the plugins, the programs): where a run's CPU goes, beside its wall time.
  const cpuFile = `${file}.cpu`;
  const argv = ["bash", "-c", `"$@"; code=$?; times >"${cpuFile}"; exit $code`, "bash", ...job.argv];
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: REPO,
      env: { ...process.env, ...job.env, PATH: pathFor(job) },
      stdio: ["ignore", out, out],
    });
    const done = (code: number) => {
      fs.closeSync(out);
      const log = fs.readFileSync(file, "utf8");
      const seconds = (Date.now() - started) / 1000;
      const found = counts(log);
      // A suite that printed no total stopped before its tests ended: a failure, whatever its exit code.
      const isSuite = GROUPS.includes(job.group as Group);
      job.result = {
        code: isSuite && !found ? code || 1 : code,
        seconds,
        cpu: cpuSeconds(cpuFile),
        passed: found?.passed ?? 0,
        failed: found?.failed ?? (isSuite && code !== 0 ? 1 : 0),
        log,
      };
      resolve();
    };
    child.on("error", (error) => {
      fs.writeSync(out, `\ncould not start ${job.argv[0]}: ${error.message}\n`);
      done(1);
    });
    child.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** The machine's CPU times (all cores), read now. */
function cpuTimes(): { at: number; idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { at: Date.now(), idle, total };
}

/** How long the CPUs are watched before another job may start beyond one per core, and how idle they must have been. */
const ADMISSION = { windowMs: 10_000, idleShare: 0.25 };

/**
 * Runs the jobs, a job only once what it needs is made; returns when all ended. One job per core
 * always runs; more, up to `jobs`, start while the CPUs were idle for a quarter of the last 10 s
 * and no job started in that time: the e2e suites mostly wait on the rate limit, the release and
 * the Java builds mostly compute, and a machine run past its cores makes the CLI's own timeouts fire.
 */
async function schedule(all: Job[], jobs: number, logs: string, pathFor: (job: Job) => string): Promise<void> {
  const waiting = [...all].sort((a, b) => b.weight - a.weight);
  const made = (name: Prepared) => all.find((j) => j.group === name && j.result !== undefined);
  const running = new Set<Promise<void>>();
  const cores = os.availableParallelism();
  const samples = [cpuTimes()];
  let lastStart = 0;
  /** Whether one more job may start now, by the CPUs' idle share over the admission window. */
  const roomFor = (): boolean => {
    if (running.size < Math.min(cores, jobs)) return true;
    if (running.size >= jobs) return false;
    const now = cpuTimes();
    samples.push(now);
    while (samples.length > 2 && now.at - samples[1].at >= ADMISSION.windowMs) samples.shift();
    const from = samples[0];
    if (now.at - lastStart < ADMISSION.windowMs || now.at - from.at < ADMISSION.windowMs) return false;
    return (now.idle - from.idle) / Math.max(1, now.total - from.total) >= ADMISSION.idleShare;
  };
  for (;;) {
    // Jobs whose shared thing failed fail at once, saying which.
    for (const job of [...waiting]) {
      const failed = job.needs.find((need) => (made(need)?.result?.code ?? 0) !== 0);
      if (failed) {
        waiting.splice(waiting.indexOf(job), 1);
        const log = `did not run: making ${failed} failed (its job's output is above)\n`;
        job.result = { code: 1, seconds: 0, passed: 0, failed: 1, log };
        report(job);
      }
    }
    // Shared things first, then the longest suites whose needs are made.
    const ready = waiting.filter((job) => job.needs.every((need) => made(need)?.result?.code === 0));
    const next = ready.find((job) => !GROUPS.includes(job.group as Group)) ?? ready[0];
    if (next && roomFor()) {
      waiting.splice(waiting.indexOf(next), 1);
      console.log(`::: started ${next.name} (${running.size + 1} running)`);
      lastStart = Date.now();
      const promise = run(next, logs, pathFor).then(() => {
        running.delete(promise);
        report(next);
      });
      running.add(promise);
      continue;
    }
    if (running.size === 0) {
      if (waiting.length === 0) return;
      // Nothing runs and nothing can start: a need no job makes.
      for (const job of waiting.splice(0)) {
        job.result = { code: 1, seconds: 0, passed: 0, failed: 1, log: `did not run: needs ${job.needs.join(", ")}\n` };
        report(job);
      }
      return;
    }
    // A job's end, or a look at the CPUs again a few seconds on.
    await Promise.race([...running, new Promise((resolve) => setTimeout(resolve, 3_000))]);
  }
}

/** Prints a job's whole output under a header, then its result. */
function report(job: Job): void {
  const r = job.result!;
  process.stdout.write(`\n::: ${job.name}: output\n${r.log}`);
  const what = GROUPS.includes(job.group as Group) ? `${r.passed} passed, ${r.failed} failed` : `exit ${r.code}`;
  const cpu = r.cpu === undefined ? "" : `, ${r.cpu.toFixed(0)} s of CPU`;
  console.log(`::: ${job.name}: ${r.code === 0 ? "ok" : "FAILED"} in ${r.seconds.toFixed(0)} s${cpu} (${what})`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      group: { type: "string", multiple: true },
      jobs: { type: "string", default: process.env.PULUMI_IP_TEST_JOBS ?? "8" },
      grep: { type: "string" },
      invert: { type: "boolean", default: false },
      "also-node": { type: "string" },
      "also-grep": { type: "string" },
      "write-durations": { type: "boolean", default: false },
      "minimum-cli": { type: "boolean", default: false },
      list: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(
      "usage: npm test -- [--group unit|emulator|e2e|e2e-languages|e2e-scale ...] [--jobs N] [--grep RE [--invert]]\n" +
        "                   [--also-node <dir with node> [--also-grep RE]] [--minimum-cli] [--write-durations] [--list]\n\n" +
        "Runs the groups' suites (all by default): one job per core, and more, up to N at once (default 8, or $PULUMI_IP_TEST_JOBS),\n" +
        "while the CPUs are a quarter idle.\n" +
        "--also-node runs them again on that Node.js, leaving out the tests --also-grep matches (CI's Node 22 pass).\n" +
        "--minimum-cli builds the oldest supported Pulumi CLI and runs the quickstart through it (on --also-node's Node).\n" +
        "--write-durations records each job's wall time in test/durations.json, which orders the next runs.\n" +
        "--list prints the jobs, what each waits for and its expected time, and runs nothing.",
    );
    return;
  }
  const jobs = Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new Error(`--jobs takes a whole number of processes; got ${values.jobs}`);
  const asked = values.group ?? [...GROUPS, CHECKS];
  const unknown = asked.filter((g) => g !== CHECKS && !GROUPS.includes(g as Group));
  if (unknown.length > 0) throw new Error(`--group takes ${[...GROUPS, CHECKS].join(", ")}; got ${unknown.join(", ")}`);
  const groups = asked.filter((g) => g !== CHECKS) as Group[];

  const durations: Record<string, number> = fs.existsSync(DURATIONS)
    ? (JSON.parse(fs.readFileSync(DURATIONS, "utf8")) as Record<string, number>)
    : {};
  const run = fs.mkdtempSync(path.join(os.tmpdir(), "pip-test-run-"));
  const logs = path.join(run, "logs");
  fs.mkdirSync(logs);

  // The suites: per pass, the unit and emulator groups as one job each, every e2e file as its own.
  const passes = [{ suffix: "", node: process.execPath, grep: values.grep, invert: values.invert }];
  if (values["also-node"]) {
    const node = path.join(values["also-node"], "node");
    passes.push({
      suffix: ` (node ${nodeMajor(node)})`,
      node,
      grep: values["also-grep"],
      invert: !!values["also-grep"],
    });
  }
  const suites: Job[] = [];
  for (const pass of passes) {
    const filter = [...(pass.grep ? ["--grep", pass.grep] : []), ...(pass.invert ? ["--invert"] : [])];
    for (const group of groups) {
      const files = groupFiles(group);
      // The unit suites in UNIT_JOBS processes (the longest group: 8 minutes in one on a busy machine),
      // the emulator's in one, each e2e file in its own. In a pass that leaves tests out (Node 22's),
      // the tagged groups' files hold few that run: one process each.
      const whole = group === "emulator" || (pass.grep !== undefined && group !== "e2e" && group !== "unit");
      const units =
        group === "unit"
          ? Array.from({ length: UNIT_JOBS }, (_, i) => files.filter((_, j) => j % UNIT_JOBS === i))
          : whole
            ? [files]
            : files.map((file) => [file]);
      for (const [i, unit] of units.entries()) {
        const name =
          (group === "unit" ? `unit ${i + 1}/${UNIT_JOBS}` : units.length === 1 && unit.length > 1 ? group : unit[0]) +
          pass.suffix;
        suites.push({
          name,
          argv: [pass.node, MOCHA, ...unit, ...filter],
          needs: needsOf(unit),
          weight: durations[name] ?? durations[name.replace(pass.suffix, "")] ?? 60,
          env: {},
          group,
        });
      }
    }
  }
  // The quickstart through the oldest CLI users may run (docs/guides/the-pulumi-cli.md), on the last pass's Node.
  if (values["minimum-cli"]) {
    const pass = passes.at(-1)!;
    suites.push({
      name: `the quickstart on the minimum CLI${pass.suffix}`,
      argv: [pass.node, MOCHA, "test/e2e/lifecycle.test.ts", "--grep", "the quickstart through the real CLI"],
      needs: ["minimum"],
      weight: durations["the quickstart on the minimum CLI"] ?? 60,
      env: { PULUMI_IP_ENGINE: "minimum" },
      group: "e2e",
    });
  }
  // The shared things the suites need, each made once (the release only if not made before).
  const needed = new Set(suites.flatMap((job) => job.needs));
  if (process.env.PULUMI_IP_RELEASE_DIR) needed.delete("release");
  const prepare = (what: Prepared, extra: string[] = []): Job => ({
    name: `making ${what}`,
    argv: [process.execPath, "-r", "ts-node/register/transpile-only", "test/support/prepare.ts", what, ...extra],
    needs: what === "release" ? (["java"].filter((n) => needed.has(n as Prepared)) as Prepared[]) : [],
    weight: 0,
    env: {},
    group: what,
  });
  const prepares = [...needed].map((what) =>
    what === "release"
      ? prepare("release", [path.join(run, "release")])
      : what === "minimum"
        ? // A Go build from modules on a cold machine: at the lowest priority, so the suites keep the CPU.
          { ...prepare(what), argv: ["nice", "-n", "19", "bash", "scripts/ensure-pulumi.sh", "minimum"] }
        : prepare(what),
  );
  // The typecheck of the tests and scripts, and the lint, beside the suites rather than before them.
  if (asked.includes(CHECKS))
    prepares.push({
      name: "the checks (npm run check)",
      argv: ["npm", "run", "check", "--silent"],
      needs: [],
      weight: 0,
      env: {},
      group: CHECKS,
    });
  const env: Record<string, string> = needed.has("release") ? { PULUMI_IP_RELEASE_DIR: path.join(run, "release") } : {};
  // The package as users install it, packed once here rather than by every e2e process (harness/program.ts).
  if (!values.list && !process.env[PACKAGE_TARBALL_ENV] && groups.some((g) => g.startsWith("e2e")))
    env[PACKAGE_TARBALL_ENV] = packTarball(REPO, run);
  for (const job of suites) {
    Object.assign(job.env, env);
    // Satisfied before the run (PULUMI_IP_RELEASE_DIR given): nothing to wait for.
    job.needs = job.needs.filter((need) => needed.has(need));
  }

  const all = [...prepares, ...suites];
  if (values.list) {
    for (const job of [...prepares, ...[...suites].sort((a, b) => b.weight - a.weight)]) {
      const needs = job.needs.length > 0 ? `  (after ${job.needs.join(", ")})` : "";
      console.log(`${String(job.weight).padStart(5)} s  ${job.group.padEnd(13)} ${job.name}${needs}`);
    }
    fs.rmSync(run, { recursive: true, force: true });
    return;
  }
  // Node's on-disk compile cache (Node 22.1 and later; Node 20 ignores it) for every process the
  // jobs start: mocha, the CLI's programs and dynamic providers, the plugin, the tools. On 2 cores
  // the suites are CPU-bound, and each of those processes compiles @pulumi/pulumi again otherwise.
  process.env.NODE_COMPILE_CACHE ??= path.join(cacheRoot(), "node-compile-cache");
  // The suites' programs run without the engine's type check (Workspace.typeCheck), but for those that ask.
  process.env.PULUMI_NODEJS_TRANSPILE_ONLY ??= "true";
  // Maven's JVM (the SDK's builds and the Java programs, which the Java host runs in `mvn compile exec:java`)
  // compiles with C1 only: a build of seconds spends most of its CPU in C2 otherwise, about half of it
  // (docs/development.md, "Running the tests"). A MAVEN_OPTS of the caller's own is kept instead.
  process.env.MAVEN_OPTS ??= "-XX:TieredStopAtLevel=1";
  // A job started by a command's name (npm, nice) runs on the runner's own Node.js.
  const nodeDirOf = (job: Job) => path.dirname(path.isAbsolute(job.argv[0]) ? job.argv[0] : process.execPath);
  // The job's Node.js first on PATH: the engine runs the programs' and the dynamic providers' on it.
  const pathFor = (job: Job) => `${nodeDirOf(job)}${path.delimiter}${process.env.PATH ?? ""}`;
  console.log(
    `::: ${suites.length} suite jobs (${groups.join(", ")}${passes.length > 1 ? `, twice: ${passes.map((p) => p.suffix || "this node").join(", ")}` : ""}) ` +
      `and ${prepares.length} shared ones, up to ${jobs} at once; logs in ${logs}`,
  );
  const started = Date.now();
  try {
    await schedule(all, jobs, logs, pathFor);
  } finally {
    if (needed.has("release")) fs.rmSync(path.join(run, "release"), { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;

  console.log("\n::: jobs, longest first (wall s, CPU s, passed, failed)");
  for (const job of [...all].sort((a, b) => b.result!.seconds - a.result!.seconds)) {
    const r = job.result!;
    console.log(
      `${r.seconds.toFixed(0).padStart(6)} s ${(r.cpu ?? 0).toFixed(0).padStart(6)} s  ${String(r.passed).padStart(4)} ${String(r.failed).padStart(3)}  ${job.name}${r.code ? "  FAILED" : ""}`,
    );
  }
  const cpu = all.reduce((n, job) => n + (job.result!.cpu ?? 0), 0);
  console.log(
    `::: ${all.length} jobs in ${seconds.toFixed(0)} s, up to ${jobs} at once, ${cpu.toFixed(0)} s of CPU (${os.availableParallelism()} cores: ${((100 * cpu) / (seconds * os.availableParallelism())).toFixed(0)}% of what they could give)`,
  );
  if (values["write-durations"]) {
    const measured = Object.fromEntries(
      suites.filter((j) => j.result!.code === 0).map((j) => [j.name, Math.round(j.result!.seconds)]),
    );
    fs.writeFileSync(DURATIONS, `${JSON.stringify({ ...durations, ...measured }, null, 2)}\n`);
    console.log(`wrote ${path.relative(REPO, DURATIONS)}`);
  }
  // The failures again, last: a reader of the log's tail sees which test failed and why.
  const failed = all.filter((job) => job.result!.code !== 0);
  for (const job of failed) {
    const log = job.result!.log;
    const at = log.search(/^ +\d+ failing/m);
    console.log(
      `\n::: ${job.name}: the failures\n${(at >= 0 ? log.slice(at) : log.slice(-4000)).replace(/^\d+ passed, \d+ failed.*$/gm, "")}`,
    );
  }
  fs.rmSync(run, { recursive: true, force: true });
  const passed = suites.reduce((n, j) => n + j.result!.passed, 0);
  const failures = suites.reduce((n, j) => n + j.result!.failed, 0) + prepares.filter((j) => j.result!.code).length;
  console.log(`\n${passed} passed, ${failures} failed`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

/** The major version of a Node.js binary. */
function nodeMajor(node: string): string {
  return execFileSync(node, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).trim();
}

main().catch((error: Error) => {
  console.error(`test: ${error.message}`);
  process.exit(2);
});

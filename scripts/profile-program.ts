// `npx ts-node --transpile-only scripts/profile-program.ts --program python|java-jar|<any bench:scale program>
// [--tenants 334] [--command preview|up] [--paced] [--process program|plugin]`:
// where a language's program spends its CPU while it registers the bench's resources (scripts/lib/scalePrograms.ts:
// a ConfigField, a WorkflowToggle and an EnvVariableValue per linked account, or one LinkedAccountSetup of them
// for the `-setup` programs), one stack, through the real CLI. The samples of the profiled process are sorted by
// where their innermost frame is: ours, Pulumi's SDK, gRPC and protobuf, the language's runtime, the rest.
// Issue 62's question: what of the 39 (Python) and 52 (Java) CPU-seconds per 1,000 registrations is ours to
// remove, and what of the plugin's Construct (`--process plugin`).
//
// Python through py-spy (100 samples a second, the program started under it by a virtualenv whose `python` runs
// py-spy: `--py-spy <path>`, `pip install py-spy`); Java through Flight Recorder (`-XX:StartFlightRecording`,
// the `profile` settings) and `jfr print --json`, with the JIT compiler's and the garbage collector's time beside.
// `--process plugin` profiles the native provider's plugin instead (Node.js's --cpu-prof, 1,000 samples a
// second, idle ones left out), whatever the program's language; the plugin runs on the first `node` on PATH,
// which must be 22 or later (20 refuses --cpu-prof in NODE_OPTIONS).
//
// The stack is set up by one `up` against an emulator with its rate limit OFF, though the platform has one
// (20/s, burst 5): the profile is of the program's CPU, which a paced `up` would only spread out in time;
// `--command up` profiles that unpaced `up` itself, `preview` (the default) the no-change preview after it;
// `--paced` keeps the platform's limit on, to profile a program while its registrations wait for their turns.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { Stack } from "../harness/engine";
import { cpuProfileEnv } from "./lib/hosts";
import { PROGRAM_NAMES } from "./lib/scale";
import { connection, type Program, withScaleProgram } from "./lib/scalePrograms";

/** Where a sample's innermost frame is. */
type Origin = "ours" | "Pulumi SDK" | "gRPC, protobuf" | "runtime, standard library" | "other";

/** The profiled process's language, which says how its frames name their origin. */
type Language = "python" | "java" | "node";

/** A frame, named as its profiler names it: `file` for Python, `package.Class` for Java, a URL for Node.js. */
interface Frame {
  where: string;
  name: string;
}

/** Which origin a frame belongs to, by its file (Python, Node.js) or class (Java). */
function originOf(language: Language, frame: Frame): Origin {
  const w = frame.where;
  // Flight Recorder names classes with slashes (java/lang/String), py-spy files by their path; the plugin's own
  // modules are the installed package's dist/ (its @pulumi/pulumi is under its node_modules/, not dist/).
  if (
    /pulumi_integration_platform|io[./]github[./]pulumiintegrationplatform|pulumi-integration-platform[/\\]dist[/\\]/.test(
      w,
    )
  )
    return "ours";
  if (/[/\\]pulumi[/\\]|^com[./]pulumi[./]/.test(w)) return "Pulumi SDK";
  if (/grpc|protobuf|^io[./]netty[./]/.test(w)) return "gRPC, protobuf";
  const runtime = {
    python: /python3\.\d+[/\\](?!site-packages)|^<frozen /,
    java: /^(java|jdk|sun)[./]/,
    // Node.js's own modules, and V8's pseudo-frames: `(program)` (native code), `(garbage collector)`.
    node: /^node:|^$/,
  }[language];
  if (runtime.test(w)) return "runtime, standard library";
  return "other";
}

/** Samples by origin of their innermost frame, and the innermost frames that hold the most. */
interface Profile {
  samples: number;
  byOrigin: Partial<Record<Origin, number>>;
  top: { frame: string; origin: Origin; samples: number }[];
  /** Each sample given to the innermost frame of ours or of Pulumi's SDK on its stack: where the SDKs spend it. */
  sdkTop: { frame: string; origin: Origin; samples: number }[];
  /** Java: the JIT compiler's and the collector's time, in seconds. */
  jvm?: { compilationSeconds: number; gcPauseSeconds: number };
}

/** Counts innermost frames (each stack given innermost first) into a Profile. */
function tally(language: Language, stacks: { frames: Frame[]; weight: number }[]): Profile {
  const byOrigin: Partial<Record<Origin, number>> = {};
  const leaves = new Map<string, { origin: Origin; samples: number }>();
  const sdkFrames = new Map<string, { origin: Origin; samples: number }>();
  const count = (into: typeof leaves, frame: Frame, origin: Origin, weight: number) => {
    const key = `${frame.name} (${frame.where})`;
    const entry = into.get(key) ?? { origin, samples: 0 };
    entry.samples += weight;
    into.set(key, entry);
  };
  let samples = 0;
  for (const { frames: stack, weight } of stacks) {
    const leaf = stack[0];
    if (!leaf) continue;
    const origin = originOf(language, leaf);
    samples += weight;
    byOrigin[origin] = (byOrigin[origin] ?? 0) + weight;
    count(leaves, leaf, origin, weight);
    const sdk = stack.find((f) => /^(ours|Pulumi)/.test(originOf(language, f)));
    if (sdk) count(sdkFrames, sdk, originOf(language, sdk), weight);
  }
  const ranked = (from: typeof leaves) =>
    [...from.entries()]
      .map(([frame, { origin, samples: n }]) => ({ frame, origin, samples: n }))
      .sort((a, b) => b.samples - a.samples)
      .slice(0, 20);
  return { samples, byOrigin, top: ranked(leaves), sdkTop: ranked(sdkFrames) };
}

/** py-spy's raw output: `frame;frame;… count`, outermost first, each frame `name (file:line)`. */
function pythonProfile(dir: string): Profile {
  const stacks: { frames: Frame[]; weight: number }[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.startsWith("py-spy-"))) {
    for (const line of fs.readFileSync(path.join(dir, file), "utf8").split("\n")) {
      const match = /^(.*) (\d+)$/.exec(line);
      if (!match) continue;
      const frames = match[1]
        .split(";")
        .map((f) => /^(.*) \((.*?)(?::\d+)?\)$/.exec(f))
        .map((m) => ({ name: m?.[1] ?? "?", where: m?.[2] ?? "?" }))
        .reverse();
      stacks.push({ frames, weight: Number(match[2]) });
    }
  }
  return tally("python", stacks);
}

/** A virtualenv whose `python` runs the real one under py-spy, each process's samples in a file of `out`. */
function pySpyVirtualenv(programDir: string, pySpy: string, out: string): void {
  const yamlFile = path.join(programDir, "Pulumi.yaml");
  const real = /virtualenv: "(.*)"/.exec(fs.readFileSync(yamlFile, "utf8"))?.[1];
  if (!real) throw new Error(`${yamlFile} names no virtualenv`);
  const venv = path.join(out, "venv");
  fs.mkdirSync(path.join(venv, "bin"), { recursive: true });
  fs.copyFileSync(path.join(real, "pyvenv.cfg"), path.join(venv, "pyvenv.cfg"));
  const python = path.join(venv, "bin", "python");
  fs.writeFileSync(
    python,
    // The host's own questions (`-m pip list`, `--version`) run unprofiled: they parse what python prints.
    `#!/bin/sh\ncase "$1" in -m|-c|--version|-V) exec ${JSON.stringify(path.join(real, "bin", "python"))} "$@";; esac\n` +
      `exec ${JSON.stringify(pySpy)} record --format raw --full-filenames --rate 100 --nonblocking ` +
      `--output ${JSON.stringify(out)}/py-spy-$$.txt -- ${JSON.stringify(path.join(real, "bin", "python"))} "$@"\n`,
  );
  fs.chmodSync(python, 0o755);
  fs.writeFileSync(yamlFile, fs.readFileSync(yamlFile, "utf8").replace(real, venv));
}

/** One `jfr print --json` event's stack. */
interface JfrEvent {
  type: string;
  values: {
    duration?: string;
    stackTrace?: { frames: { method: { name: string; type: { name: string } } }[] };
  };
}

/** A JFR duration ("PT0.0123S") in seconds. */
const isoSeconds = (text: string | undefined) => Number(/PT([\d.]+)S/.exec(text ?? "")?.[1] ?? 0);

/** Flight Recorder's execution samples of `file`, with its compilations' and GC pauses' time. */
function javaProfile(file: string): Profile {
  const print = (events: string) =>
    (
      JSON.parse(
        execFileSync("jfr", ["print", "--json", "--stack-depth", "32", "--events", events, file], {
          encoding: "utf8",
          maxBuffer: 1024 * 1024 * 1024,
        }),
      ) as { recording: { events: JfrEvent[] } }
    ).recording.events;
  const stacks = print("jdk.ExecutionSample").map((event) => ({
    frames: (event.values.stackTrace?.frames ?? []).map((f) => ({ name: f.method.name, where: f.method.type.name })),
    weight: 1,
  }));
  const profile = tally("java", stacks);
  const sum = (events: JfrEvent[]) => events.reduce((s, e) => s + isoSeconds(e.values.duration), 0);
  profile.jvm = {
    compilationSeconds: sum(print("jdk.Compilation")),
    gcPauseSeconds: sum(print("jdk.GCPhasePause")),
  };
  return profile;
}

/** A V8 CPU profile (`--cpu-prof`): a call tree and, per sample, the id of its innermost node. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
}

/**
 * The samples of the `.cpuprofile` files in `dir` whose call tree holds `marker` (a module's path), idle ones
 * left out; each sample's stack walked from its node up to the root.
 */
function nodeProfile(dir: string, marker: RegExp): Profile & { processes: number } {
  const stacks: { frames: Frame[]; weight: number }[] = [];
  let processes = 0;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
    if (!profile.nodes.some((n) => marker.test(n.callFrame.url))) continue;
    processes++;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
    const frames = new Map<number, Frame[]>();
    /** A node's stack, innermost first, built once per node. */
    const stackOf = (id: number): Frame[] => {
      let known = frames.get(id);
      if (!known) {
        const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
        const up = parent.get(id);
        known = [
          { name: `${functionName || "(anonymous)"}:${lineNumber + 1}`, where: url },
          ...(up ? stackOf(up) : []),
        ];
        frames.set(id, known);
      }
      return known;
    };
    const counts = new Map<number, number>();
    for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const [id, weight] of counts) {
      if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
      stacks.push({ frames: stackOf(id), weight });
    }
  }
  return { ...tally("node", stacks), processes };
}

/** What is profiled: the program's own process, or the native provider's plugin (each the command starts). */
type Profiled = "program" | "plugin";

/** Sets up the stack, runs the profiled command, and reads the profile. */
async function profileProgram(
  program: Program,
  k: number,
  command: "up" | "preview",
  pySpy: string,
  paced: boolean,
  profiled: Profiled,
) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `pip-profile-${program}-`));
  // Limit off unless --paced, though the platform has one (20/s, burst 5): what is profiled is the program's CPU,
  // which pacing spreads out in time; --paced shows what the program spends while it waits as well.
  return withScaleProgram(
    program,
    k,
    "profile",
    paced ? { quiet: true } : { quiet: true, rateLimit: "off" },
    async ({ emulator, workspace, dir }) => {
      const stack = new Stack(workspace, dir, "profile-0", connection(program, emulator));
      await stack.init();
      if (command === "preview") await stack.ok(["up", "--yes", "--skip-preview"], { PULUMI_SKIP_CHECKPOINTS: "true" });
      const jfr = path.join(out, "program.jfr");
      const env =
        profiled === "plugin"
          ? cpuProfileEnv(out)
          : program === "python"
            ? (pySpyVirtualenv(dir, pySpy, out), {})
            : {
                // After the caller's JVM options (a sized heap, an agent), which the recording should not drop.
                JAVA_TOOL_OPTIONS: [
                  process.env.JAVA_TOOL_OPTIONS,
                  `-XX:StartFlightRecording=filename=${jfr},settings=profile`,
                ]
                  .filter(Boolean)
                  .join(" "),
              };
      const args = command === "up" ? ["up", "--yes", "--skip-preview"] : ["preview", "--expect-no-changes"];
      const started = Date.now();
      await stack.ok(args, { PULUMI_SKIP_CHECKPOINTS: "true", ...env });
      const seconds = (Date.now() - started) / 1000;
      const profile =
        profiled === "plugin"
          ? nodeProfile(out, /provider[/\\]native[/\\]main\.js$/)
          : program === "python"
            ? pythonProfile(out)
            : javaProfile(jfr);
      return { seconds, profile, out };
    },
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      program: { type: "string", default: "python" },
      tenants: { type: "string", default: "334" },
      command: { type: "string", default: "preview" },
      "py-spy": { type: "string", default: "py-spy" },
      jfr: { type: "string" },
      paced: { type: "boolean", default: false },
      process: { type: "string", default: "program" },
    },
  });
  // `--jfr <file>`: read a recording made before instead of running the program again.
  if (values.jfr) {
    process.stdout.write(JSON.stringify(javaProfile(values.jfr), null, 2) + "\n");
    return;
  }
  const program = values.program as Program;
  const profiled = values.process as Profiled;
  if (profiled !== "program" && profiled !== "plugin")
    throw new Error(`--process takes program or plugin; got ${profiled}`);
  // A program's own process can be profiled in Python and Java; the plugin under any program that uses it.
  const programs: readonly string[] =
    profiled === "plugin" ? PROGRAM_NAMES.filter((p) => p !== "ours" && p !== "floor") : ["python", "java-jar"];
  if (!programs.includes(program))
    throw new Error(`--program takes ${programs.join(", ")} with --process ${profiled}; got ${program}`);
  const command = values.command as "up" | "preview";
  if (command !== "up" && command !== "preview") throw new Error(`--command takes up or preview; got ${command}`);
  const k = Number(values.tenants);
  const { seconds, profile, out } = await profileProgram(
    program,
    k,
    command,
    values["py-spy"]!,
    values.paced!,
    profiled,
  );
  const share = (n: number) => `${((100 * n) / Math.max(1, profile.samples)).toFixed(1)} %`;
  process.stdout.write(
    `${profiled === "plugin" ? "the plugin under " : ""}${program}, ${3 * k} resources, ${command}` +
      `${values.paced ? " at 20/s" : ""}: ${seconds.toFixed(1)} s, ${profile.samples} samples` +
      `${"processes" in profile ? ` of ${profile.processes} plugin process(es), 1 ms each` : ""} (${out})\n\n`,
  );
  process.stdout.write("| where the innermost frame is | samples | share |\n|---|---:|---:|\n");
  for (const [origin, n] of Object.entries(profile.byOrigin).sort((a, b) => b[1] - a[1]))
    process.stdout.write(`| ${origin} | ${n} | ${share(n)} |\n`);
  if (profile.jvm)
    process.stdout.write(
      `\nJIT compilations: ${profile.jvm.compilationSeconds.toFixed(1)} s; GC pauses: ${profile.jvm.gcPauseSeconds.toFixed(1)} s\n`,
    );
  for (const [title, rows] of [
    ["innermost frame", profile.top],
    ["innermost frame of ours or Pulumi's SDK", profile.sdkTop],
  ] as const) {
    process.stdout.write(`\n| ${title} | where | samples | share |\n|---|---|---:|---:|\n`);
    for (const { frame, origin, samples } of rows)
      process.stdout.write(`| \`${frame}\` | ${origin} | ${samples} | ${share(samples)} |\n`);
  }
  fs.writeFileSync(
    path.join(out, "profile.json"),
    JSON.stringify({ program, profiled, k, command, seconds, profile }, null, 2),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

// `npx ts-node --transpile-only scripts/profile-program.ts --program python|java-jar [--tenants 334]
// [--command preview|up] [--paced]`:
// where a language's program spends its CPU while it registers the bench's resources (scripts/lib/scalePrograms.ts:
// a ConfigField, a WorkflowToggle and an EnvVariableValue per linked account), one stack, through the real CLI.
// The samples of the program's own process are sorted by where their innermost frame is: the generated SDK
// (ours), Pulumi's SDK, gRPC and protobuf, the language's runtime, the rest. Issue 62's question: what of the
// 39 (Python) and 52 (Java) CPU-seconds per 1,000 registrations is ours to remove.
//
// Python through py-spy (100 samples a second, the program started under it by a virtualenv whose `python` runs
// py-spy: `--py-spy <path>`, `pip install py-spy`); Java through Flight Recorder (`-XX:StartFlightRecording`,
// the `profile` settings) and `jfr print --json`, with the JIT compiler's and the garbage collector's time beside.
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
import { connection, type Program, withScaleProgram } from "./lib/scalePrograms";

/** Where a sample's innermost frame is. */
type Origin = "ours (generated SDK)" | "Pulumi SDK" | "gRPC, protobuf" | "runtime, standard library" | "other";

/** A language's frame, named as its profiler names it: `file` for Python, `package.Class` for Java. */
interface Frame {
  where: string;
  name: string;
}

/** Which origin a frame belongs to, by its file (Python) or class (Java). */
function originOf(program: Program, frame: Frame): Origin {
  const w = frame.where;
  // Flight Recorder names classes with slashes (java/lang/String), py-spy files by their path.
  if (/pulumi_integration_platform|io[./]github[./]pulumiintegrationplatform/.test(w)) return "ours (generated SDK)";
  if (/[/\\]pulumi[/\\]|^com[./]pulumi[./]/.test(w)) return "Pulumi SDK";
  if (/grpc|protobuf|^io[./]netty[./]/.test(w)) return "gRPC, protobuf";
  if (program === "python" ? /python3\.\d+[/\\](?!site-packages)|^<frozen /.test(w) : /^(java|jdk|sun)[./]/.test(w))
    return "runtime, standard library";
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
function tally(program: Program, stacks: { frames: Frame[]; weight: number }[]): Profile {
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
    const origin = originOf(program, leaf);
    samples += weight;
    byOrigin[origin] = (byOrigin[origin] ?? 0) + weight;
    count(leaves, leaf, origin, weight);
    const sdk = stack.find((f) => /^(ours|Pulumi)/.test(originOf(program, f)));
    if (sdk) count(sdkFrames, sdk, originOf(program, sdk), weight);
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
  const profile = tally("java-jar", stacks);
  const sum = (events: JfrEvent[]) => events.reduce((s, e) => s + isoSeconds(e.values.duration), 0);
  profile.jvm = {
    compilationSeconds: sum(print("jdk.Compilation")),
    gcPauseSeconds: sum(print("jdk.GCPhasePause")),
  };
  return profile;
}

/** Sets up the stack, runs the profiled command, and reads the profile. */
async function profileProgram(program: Program, k: number, command: "up" | "preview", pySpy: string, paced: boolean) {
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
        program === "python"
          ? (pySpyVirtualenv(dir, pySpy, out), {})
          : { JAVA_TOOL_OPTIONS: `-XX:StartFlightRecording=filename=${jfr},settings=profile` };
      const args = command === "up" ? ["up", "--yes", "--skip-preview"] : ["preview", "--expect-no-changes"];
      const started = Date.now();
      await stack.ok(args, { PULUMI_SKIP_CHECKPOINTS: "true", ...env });
      const seconds = (Date.now() - started) / 1000;
      return { seconds, profile: program === "python" ? pythonProfile(out) : javaProfile(jfr), out };
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
    },
  });
  // `--jfr <file>`: read a recording made before instead of running the program again.
  if (values.jfr) {
    process.stdout.write(JSON.stringify(javaProfile(values.jfr), null, 2) + "\n");
    return;
  }
  const program = values.program as Program;
  if (program !== "python" && program !== "java-jar")
    throw new Error(`--program takes python or java-jar; got ${program}`);
  const command = values.command as "up" | "preview";
  if (command !== "up" && command !== "preview") throw new Error(`--command takes up or preview; got ${command}`);
  const k = Number(values.tenants);
  const { seconds, profile, out } = await profileProgram(program, k, command, values["py-spy"]!, values.paced!);
  const share = (n: number) => `${((100 * n) / Math.max(1, profile.samples)).toFixed(1)} %`;
  process.stdout.write(
    `${program}, ${3 * k} resources, ${command}${values.paced ? " at 20/s" : ""}: ${seconds.toFixed(1)} s, ` +
      `${profile.samples} samples (${out})\n\n`,
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
  fs.writeFileSync(path.join(out, "profile.json"), JSON.stringify({ program, k, command, seconds, profile }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

// The stacks of a sharded program (docs/guides/scaling.md): their names, and selecting them
// through Pulumi's Automation API; what `shards` and `shards move` share.
import { execFile } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { MAX_SHARDS, SHARDS_SETTING } from "../../provider/sharding";

/** Where the shards' stacks are and how they are named. */
export interface ShardStacks {
  /** The program's directory (holds Pulumi.yaml). */
  dir: string;
  /** The stack name of shard i: `{shard}` in it is replaced by i, e.g. `prod-{shard}`. */
  template: string;
}

/** Where `shards` prints: each stack's output line by line, prefixed with the stack's name. */
export interface ShardsIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The environment the stacks' commands run with (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A problem with the options or the stacks, said in the command's words: exit status 2. */
export class ShardsError extends Error {}

/** Shard i's stack name. */
export function stackName(template: string, shard: number): string {
  return template.replaceAll("{shard}", String(shard));
}

/** Checks a `--stack` template: the shard's number ends each name, where the program reads it (stackShard). */
export function checkTemplate(template: string): void {
  if (!/(^|[^0-9{])\{shard\}$/.test(template) || template.indexOf("{shard}") !== template.length - "{shard}".length) {
    throw new ShardsError(
      `--stack must end with {shard}, which becomes each shard's number (the program reads it from the end of ` +
        `the stack's name), e.g. --stack prod-{shard}; got ${JSON.stringify(template)}`,
    );
  }
}

/** Checks a number of shards given on the command line. */
export function shardCount(option: string, text: string | undefined): number {
  const value = Number(text?.trim());
  if (text === undefined || !/^\d+$/.test(text.trim()) || value < 1 || value > MAX_SHARDS) {
    throw new ShardsError(
      `${option} must be a whole number of shards from 1 to ${MAX_SHARDS}; got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/** The Automation API, loaded when a `shards` command runs: summarize and import do not need it. */
async function automation() {
  return import("@pulumi/pulumi/automation");
}

/** Selects shard i's stack (creating it when `create`); with `shards`, sets their count in its config. */
export async function shardStack(
  stacks: ShardStacks,
  shard: number,
  shards: number | undefined,
  envVars: Record<string, string>,
  create: boolean,
): Promise<Stack> {
  const { LocalWorkspace } = await automation();
  const args = { stackName: stackName(stacks.template, shard), workDir: path.resolve(stacks.dir) };
  const stack = create
    ? await LocalWorkspace.createOrSelectStack(args, { envVars })
    : await LocalWorkspace.selectStack(args, { envVars });
  if (shards !== undefined) await placeStack(stack, shards);
  return stack;
}

/**
 * Sets the shard count in a stack's config: only the count, since `pulumi state move` needs every
 * shard's config the same.
 */
export function placeStack(stack: Stack, shards: number): Promise<void> {
  return stack.setConfig(SHARDS_SETTING, { value: String(shards) });
}

/** A project's `runtime` as Pulumi.yaml gives it: a name, or a name with options. */
export type ProjectRuntime = string | { name: string; options?: { [key: string]: unknown } };

/** The runtime's name, whichever form Pulumi.yaml gives it in. */
function runtimeName(runtime: ProjectRuntime | undefined): string | undefined {
  return typeof runtime === "string" ? runtime : runtime?.name;
}

/** Whether `shards <command>` of a Java project runs its program's JVMs (`up` and the preview do). */
function runsJavaProgram(runtime: ProjectRuntime | undefined, command: string): boolean {
  return runtimeName(runtime) === "java" && (command === "up" || command === "preview");
}

/** What each runtime's host builds at every command when the project names no `binary`. */
const BUILT_AT_EVERY_COMMAND: Record<string, string> = {
  go: "the Go host runs `go build`",
  java: "the Java host runs Maven or Gradle (`mvn compile exec:java`, in the same target/ folder for every stack)",
};

/**
 * The advice `shards` prints before running S stacks of a Go or Java program that its host builds at
 * every command, or undefined: S builds at once cost the cores S times what one build before them would.
 */
export function buildAdvice(runtime: ProjectRuntime | undefined, shards: number): string | undefined {
  const name = runtimeName(runtime);
  const binary = typeof runtime === "object" ? runtime.options?.binary : undefined;
  const builds = name === undefined ? undefined : BUILT_AT_EVERY_COMMAND[name];
  if (builds === undefined || binary !== undefined || shards < 2) return undefined;
  return (
    `shards: this ${name === "go" ? "Go" : "Java"} program names no runtime.options.binary in Pulumi.yaml, so ` +
    `${builds} for each of the ${shards} stacks at every command, refresh and destroy included. Build it once ` +
    `before the stacks' commands and set runtime.options.binary to what you built ` +
    `(docs/guides/scaling.md, "Go and Java: build the program once per job").\n`
  );
}

/** The environment variables a JVM (or its `java` launcher) takes options from. */
const JVM_OPTION_VARIABLES = ["JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"];
/** The share of the machine's memory a JVM takes as its largest heap when no option sizes it. */
const JVM_DEFAULT_HEAP_SHARE = 0.25;

/**
 * The advice `shards` prints before an `up` or a preview of S Java stacks whose JVMs no option sizes, or undefined:
 * each JVM's heap may grow to a quarter of the machine's memory, so four or more can take all of it (at 3,334
 * accounts in 10 shards, the kernel killed two of ten at a preview: docs/guides/scaling.md).
 */
export function heapAdvice(
  runtime: ProjectRuntime | undefined,
  shards: number,
  command: string,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!runsJavaProgram(runtime, command)) return undefined;
  if (shards * JVM_DEFAULT_HEAP_SHARE < 1) return undefined;
  const sized = JVM_OPTION_VARIABLES.some((variable) => /-Xmx|MaxHeapSize|MaxRAM/.test(env[variable] ?? ""));
  if (sized) return undefined;
  return (
    `shards: ${shards} Java programs will run at once, and no JAVA_TOOL_OPTIONS sets their heap: each JVM may grow ` +
    `to a quarter of this machine's memory, together all of it or more. Size them for a shard, e.g. ` +
    `JAVA_TOOL_OPTIONS="-Xmx1g -XX:+UseSerialGC -XX:TieredStopAtLevel=1" ` +
    `(docs/guides/scaling.md, "Java: size each JVM for a shard").\n`
  );
}

/**
 * The advice `shards` prints before an `up` or a preview of Java stacks on Java 25 or later on a machine of 2 cores
 * or fewer, or undefined: there the JVM's common pool has one thread, and Pulumi's Java SDK (com.pulumi:pulumi
 * 1.36.1) hangs (pulumi/pulumi-java#2270) unless an option gives the pool two (docs/guides/languages.md, "Java").
 */
export function commonPoolAdvice(
  runtime: ProjectRuntime | undefined,
  command: string,
  javaMajor: number | undefined,
  cores: number,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (!runsJavaProgram(runtime, command)) return undefined;
  if (javaMajor === undefined || javaMajor < 25 || cores > 2) return undefined;
  const given = JVM_OPTION_VARIABLES.map((v) => /ForkJoinPool\.common\.parallelism=(\d+)/.exec(env[v] ?? ""));
  if (given.some((match) => match !== null && Number(match[1]) >= 2)) return undefined;
  return (
    `shards: the Java programs will run on Java ${javaMajor} with ${cores} CPU core${cores === 1 ? "" : "s"}, where ` +
    `Pulumi's Java SDK (com.pulumi:pulumi 1.36.1 and earlier) hangs, one core busy (pulumi/pulumi-java#2270). Add ` +
    `-Djava.util.concurrent.ForkJoinPool.common.parallelism=2 to JAVA_TOOL_OPTIONS, or run Java 17 or 21 ` +
    `(docs/guides/languages.md, "Java").\n`
  );
}

/**
 * The major version of the `java` first on the environment's PATH, which the Java host runs, from
 * `java -version`; undefined when there is none or it does not say.
 */
export function javaMajorVersion(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  return new Promise((resolve) => {
    execFile("java", ["-version"], { env, timeout: 10_000 }, (error, stdout, stderr) => {
      // `openjdk version "25.0.3" 2026-04-21 LTS`; Java 8 says "1.8.0_…".
      const version = /version "(?:1\.)?(\d+)/.exec(`${stderr}${stdout}`);
      resolve(error || !version ? undefined : Number(version[1]));
    });
  });
}

/** The lines of advice `shards` prints before it starts the stacks of a command (none, mostly). */
export async function shardsAdvice(
  runtime: ProjectRuntime | undefined,
  shards: number,
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  // `java -version` starts a JVM: only where its answer can matter.
  const javaMajor = runsJavaProgram(runtime, command) ? await javaMajorVersion(env) : undefined;
  return [
    buildAdvice(runtime, shards),
    heapAdvice(runtime, shards, command, env),
    // The cores this process may use; a JVM in a container with a CPU quota counts fewer (the advice then stays quiet).
    commonPoolAdvice(runtime, command, javaMajor, os.availableParallelism(), env),
  ].filter((advice): advice is string => advice !== undefined);
}

/**
 * The `runtime` of the program's Pulumi.yaml, read through the Automation API; undefined where there
 * is none to read (the stacks' own commands then say what is wrong).
 */
export async function projectRuntime(stacks: ShardStacks): Promise<ProjectRuntime | undefined> {
  const { LocalWorkspace } = await automation();
  try {
    const workspace = await LocalWorkspace.create({ workDir: path.resolve(stacks.dir) });
    return (await workspace.projectSettings()).runtime;
  } catch {
    return undefined;
  }
}

/** The last lines of an error that quotes a whole command's output: the part that says why. */
export function lastLines(text: string): string {
  const kept = text
    .trim()
    .split("\n")
    .filter((line) => line.trim() !== "");
  return kept.slice(-12).join("\n  ");
}

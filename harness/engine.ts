// The real Pulumi CLI, offline and isolated (docs/development.md, "Test support"): shared by the
// e2e tests and the scripts. Without the engine callers fail; nothing skips.
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureTool, REPO } from "./tools";

/** The repository root. */
export { REPO };

let binDir: string | undefined;

/**
 * Runs ensure-pulumi.sh (as CI does) once per process and returns the directory holding the
 * engine: an installed CLI at or above the minimum, else the pinned one ($PULUMI_IP_ENGINE,
 * read by the script, picks `pinned` or `minimum` instead).
 */
export function engineBinDir(): string {
  if (binDir === undefined) {
    binDir = ensureTool("ensure-pulumi.sh", { timeoutMinutes: 45 });
  }
  return binDir;
}

/**
 * Which CLI `engineBinDir()` chose, for a reader: its version, and whether it is the user's own
 * install or the build that ensure-pulumi.sh cached.
 */
export function engineDescription(): string {
  const dir = engineBinDir();
  const version = execFileSync(path.join(dir, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  // ensure-pulumi.sh caches its builds in directories named pulumi-v<version>-<key>/bin.
  const built = /[\\/]pulumi-v[^\\/]+-[0-9a-f]{12}[\\/]bin$/.test(dir);
  return `pulumi ${version}, ${built ? "built from Go modules and cached" : "installed"}, in ${dir}`;
}

/** What one CLI command did. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time in milliseconds. */
  ms: number;
}

/** A temporary, offline Pulumi workspace: backend, home and passphrase of its own. */
export class Workspace {
  /** The root of everything this workspace writes. */
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-"));
  /** The passphrase of the stacks' secrets provider. */
  readonly passphrase = `pass-${randomBytes(8).toString("hex")}`;
  /**
   * Whether TypeScript programs are type-checked when they run, as they are by default for users
   * (and so in the benchmarks and scripts). The test runner turns it off for its suites
   * (PULUMI_NODEJS_TRANSPILE_ONLY=true in its jobs' environment) unless a suite asks, as the
   * quickstart's does: the type check is most of a program's first run on a 2-core CI machine, and
   * docs.test.ts and `npm run check` type-check the programs' code apart (docs/development.md).
   */
  typeCheck = process.env.PULUMI_NODEJS_TRANSPILE_ONLY !== "true";

  /**
   * `backend`: a backend other than a folder of this workspace (an S3 bucket: harness/s3.ts), with the environment it
   * needs.
   */
  constructor(readonly backend?: { url: string; env: Record<string, string> }) {
    fs.mkdirSync(path.join(this.root, "backend"));
  }

  /** The environment every CLI command runs with; `extra` adds or overrides variables. */
  env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    // A developer's own Pulumi settings (a cloud token, another backend) must not leak in.
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("PULUMI_")) env[key] = value;
    Object.assign(env, {
      PATH: `${engineBinDir()}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: path.join(this.root, "home"),
      PULUMI_BACKEND_URL: this.backend?.url ?? `file://${path.join(this.root, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: this.passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      NO_COLOR: "1",
      // The engine's own switch (@pulumi/pulumi cmd/run): ts-node transpiles without a type check.
      ...(this.typeCheck ? {} : { PULUMI_NODEJS_TRANSPILE_ONLY: "true" }),
      ...this.backend?.env,
    });
    for (const [key, value] of Object.entries(extra)) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
    return env;
  }

  /** Removes everything the workspace wrote. */
  dispose(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** One stack of one program in a workspace, driven through the `pulumi` binary. */
export class Stack {
  constructor(
    readonly workspace: Workspace,
    /** The program's directory (holds Pulumi.yaml). */
    readonly dir: string,
    readonly name = "dev",
    /** Environment added to every command, e.g. connection settings. */
    readonly extraEnv: Record<string, string | undefined> = {},
  ) {}

  /**
   * Runs `pulumi <args>` in the program directory; never throws on a non-zero exit. A command still
   * running after `timeoutMs` is SIGKILLed with the plugins and programs it started (tagged as
   * `start` tags them), which would otherwise outlive it, re-parented, for as long as they wait.
   */
  run(args: string[], extra: Record<string, string | undefined> = {}, timeoutMs = 10 * 60_000): Promise<CommandResult> {
    const started = Date.now();
    const tag = `pip-run-${randomBytes(8).toString("hex")}`;
    return new Promise((resolve) => {
      execFile(
        "pulumi",
        [...args, "--non-interactive", "--color", "never"],
        {
          cwd: this.dir,
          env: this.workspace.env({ ...this.extraEnv, ...extra, [BACKGROUND_TAG]: tag }),
          maxBuffer: 256 * 1024 * 1024,
          timeout: timeoutMs,
          killSignal: "SIGKILL",
        },
        (error, stdout, stderr) => {
          if (error?.killed) for (const pid of taggedProcesses(tag)) killQuietly(pid);
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, stdout, stderr, ms: Date.now() - started });
        },
      );
    });
  }

  /**
   * Starts `pulumi <args>` in the background, for tests that interrupt it (see BackgroundCommand).
   * Every process it starts carries a tag in its environment, so that the plugins it spawned can
   * still be found once `pulumi` is dead and they have been re-parented.
   */
  start(args: string[], extra: Record<string, string | undefined> = {}): BackgroundCommand {
    const tag = `pip-bg-${randomBytes(8).toString("hex")}`;
    const started = Date.now();
    const child = spawn("pulumi", [...args, "--non-interactive", "--color", "never"], {
      cwd: this.dir,
      env: this.workspace.env({ ...this.extraEnv, ...extra, [BACKGROUND_TAG]: tag }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<BackgroundResult>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started })),
    );
    const pid = child.pid!;
    // Once `pulumi` has exited its id may be reused: signal it only while it runs.
    const killPulumi = () => {
      if (child.exitCode === null && child.signalCode === null) killQuietly(pid);
    };
    return {
      pid,
      output: () => stdout + stderr,
      exited,
      kill: killPulumi,
      plugins: () => taggedProcesses(tag).filter((p) => p !== pid),
      killAll: () => {
        killPulumi();
        const plugins = taggedProcesses(tag).filter((p) => p !== pid);
        for (const p of plugins) killQuietly(p);
        return plugins.length;
      },
    };
  }

  /** Like `run`, but a non-zero exit fails (see `succeeded`). */
  async ok(args: string[], extra: Record<string, string | undefined> = {}): Promise<CommandResult> {
    return succeeded(await this.run(args, extra), `pulumi ${args.join(" ")}`);
  }

  /** Creates the stack; `config` entries are set plain, `secrets` with --secret. */
  async init(config: Record<string, string> = {}, secrets: Record<string, string> = {}): Promise<void> {
    await this.ok(["stack", "init", this.name]);
    // One `config set-all` rather than a `config set` per key: each CLI process costs about half a
    // CPU-second before it does anything, and the e2e suites are CPU-bound on 2 cores.
    const pairs = [
      ...Object.entries(config).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
      ...Object.entries(secrets).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
    ];
    if (pairs.length > 0) await this.ok(["config", "set-all", ...pairs]);
  }

  /** `pulumi stack export`, parsed. */
  async exportState(): Promise<StackExport> {
    const result = await this.ok(["stack", "export"]);
    return JSON.parse(result.stdout) as StackExport;
  }

  /** `pulumi stack export` as text, for searching it literally. */
  async exportText(): Promise<string> {
    return (await this.ok(["stack", "export"])).stdout;
  }
}

/**
 * Returns `result` if the command (`what`) exited 0; otherwise throws with its exit code, its
 * distinct `error:` lines first, then everything it printed.
 */
export function succeeded(result: CommandResult, what: string): CommandResult {
  if (result.code === 0) return result;
  const output = `${result.stdout}\n${result.stderr}`;
  const errors = new Set(
    output
      .split("\n")
      .filter((line) => /^\s*error: /.test(line))
      .map((line) => line.trim()),
  );
  throw new Error(
    `${what} exited ${result.code}\n${[...errors].join("\n")}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
  );
}

/** The parts of `pulumi stack export` the tests read. */
export interface StackExport {
  deployment: {
    resources?: {
      urn: string;
      type: string;
      id?: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[];
  };
}

/** The resources of one type in an exported state. */
export function resourcesOfType(state: StackExport, type: string) {
  return (state.deployment.resources ?? []).filter((r) => r.type === type);
}

/** The environment variable that marks every process of one command (`start`, and `run` for its timeout). */
export const BACKGROUND_TAG = "PIP_E2E_BACKGROUND_TAG";

/** How a background command ended: `signal` is "SIGKILL" when a test killed it. */
export interface BackgroundResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time in milliseconds. */
  ms: number;
}

/**
 * A `pulumi` command running in the background. Its plugins outlive a kill of `pulumi`
 * (docs/development.md), so they are found by a tag in their environment.
 */
export interface BackgroundCommand {
  /** The `pulumi` process's id. */
  readonly pid: number;
  /** Everything printed so far, stdout then stderr. */
  output(): string;
  /** Resolves once the `pulumi` process has exited and its output is complete. */
  readonly exited: Promise<BackgroundResult>;
  /** SIGKILLs the `pulumi` process alone, as an OOM kill would; its plugins live on. */
  kill(): void;
  /** The ids of the live processes this command started, `pulumi` excluded. */
  plugins(): number[];
  /** SIGKILLs `pulumi` and every live process it started; returns how many of the latter there were. */
  killAll(): number;
}

/** Live processes whose environment carries `PIP_E2E_BACKGROUND_TAG=<tag>` (Linux /proc). */
export function taggedProcesses(tag: string): number[] {
  const needle = Buffer.from(`${BACKGROUND_TAG}=${tag}\0`);
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // A zombie's environ reads empty, so only running processes match.
      if (fs.readFileSync(`/proc/${entry}/environ`).includes(needle)) found.push(Number(entry));
    } catch {
      // The process ended while the list was read, or belongs to someone else.
    }
  }
  return found;
}

/** SIGKILLs one process by id; a process that has already ended is not an error. */
function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

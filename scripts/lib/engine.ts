// The real Pulumi engine, offline: one helper that the e2e tests, the demo and the benchmark share.
//   - a file backend and PULUMI_HOME in a temporary directory, removed by `dispose()`;
//   - a passphrase secrets provider;
//   - no update checks and no plugin downloads;
//   - programs installed the way users install them: from the packed tarball.
// Without the engine, callers fail; nothing skips.
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The repository root. */
export const REPO = path.resolve(__dirname, "../..");

let binDir: string | undefined;

/** Runs scripts/ensure-pulumi.sh once per test process and returns the directory holding the engine. */
export function engineBinDir(): string {
  if (binDir === undefined) {
    const out = execFileSync("bash", [path.join(REPO, "scripts/ensure-pulumi.sh")], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      timeout: 45 * 60_000,
    });
    binDir = out.trim().split("\n").pop()!;
  }
  return binDir;
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

  constructor() {
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
      PULUMI_BACKEND_URL: `file://${path.join(this.root, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: this.passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      NO_COLOR: "1",
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

  /** Runs `pulumi <args>` in the program directory; never throws on a non-zero exit. */
  run(args: string[], extra: Record<string, string | undefined> = {}, timeoutMs = 10 * 60_000): Promise<CommandResult> {
    const started = Date.now();
    return new Promise((resolve) => {
      execFile(
        "pulumi",
        [...args, "--non-interactive", "--color", "never"],
        {
          cwd: this.dir,
          env: this.workspace.env({ ...this.extraEnv, ...extra }),
          maxBuffer: 256 * 1024 * 1024,
          timeout: timeoutMs,
          killSignal: "SIGKILL",
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ code, stdout, stderr, ms: Date.now() - started });
        },
      );
    });
  }

  /** Like `run`, but a non-zero exit fails with everything the CLI printed. */
  async ok(args: string[], extra: Record<string, string | undefined> = {}): Promise<CommandResult> {
    const result = await this.run(args, extra);
    if (result.code !== 0) {
      throw new Error(`pulumi ${args.join(" ")} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
    }
    return result;
  }

  /** Creates the stack; `config` entries are set plain, `secrets` with --secret. */
  async init(config: Record<string, string> = {}, secrets: Record<string, string> = {}): Promise<void> {
    await this.ok(["stack", "init", this.name]);
    for (const [key, value] of Object.entries(config)) await this.ok(["config", "set", key, value]);
    for (const [key, value] of Object.entries(secrets)) await this.ok(["config", "set", "--secret", key, value]);
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

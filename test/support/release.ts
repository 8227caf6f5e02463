// A release as users get it (docs/installation-configuration.md): the folder `npm run release`
// writes, made once per test run, and what a user does with it: install the plugin from its
// archive, install the Python SDK from its wheel into a fresh virtualenv, run with no Node.js.
import { ensureTool } from "../../harness/tools";
import * as assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { archiveName, type ProgramName, type Target } from "../../scripts/release/executables";
import { GO_SDK_MODULE, GOPROXY_DIR, goProxyVersions } from "../../scripts/release/goproxy";
import { REPO, type Workspace } from "../../harness/engine";
import { MAVEN_REPOSITORY, mavenOpts } from "../../harness/languages";
import { PLUGIN_DOWNLOAD_URL, SDK_NAMES } from "../../provider/native/schema";
import { wheelFileName, type WHEEL_PROJECTS } from "../../scripts/release/wheels";
import type { ReleaseVersions } from "../../scripts/release/context";

/**
 * The versions the release folder carries, as its release.json records them: a snapshot's (`<next>-dev.<n>+g<commit>`)
 * is not package.json's, and each registry spells it its own way (scripts/release/context.ts).
 */
export function releaseVersions(): ReleaseVersions {
  return JSON.parse(fs.readFileSync(path.join(releaseFolder(), "release.json"), "utf8")) as ReleaseVersions;
}

let folder: string | undefined;
/**
 * The release folder of this checkout (`npm run release -- --snapshot`), made once per process from
 * the compiled dist/ (`npm test` builds it first). PULUMI_IP_RELEASE_DIR names one made before instead:
 * the test runner (scripts/test.ts) makes it once for all its suites.
 */
export function releaseFolder(): string {
  if (folder) return folder;
  if (process.env.PULUMI_IP_RELEASE_DIR) return (folder = process.env.PULUMI_IP_RELEASE_DIR);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-release-"));
  buildRelease(out);
  process.on("exit", () => fs.rmSync(out, { recursive: true, force: true }));
  return (folder = out);
}

/** Makes the release folder (a snapshot) in `out`. */
export function buildRelease(out: string): void {
  execFileSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(REPO, "scripts", "release.ts"), "--snapshot", "--out", out],
    {
      cwd: REPO,
      // The Java SDK's build fetches from Maven Central into the tests' own local repository.
      env: { ...process.env, MAVEN_OPTS: mavenOpts(MAVEN_REPOSITORY) },
      stdio: ["ignore", "ignore", "inherit"],
      // The first run on a machine fetches five Node.js binaries and may build rcodesign (7 minutes).
      timeout: 30 * 60_000,
    },
  );
}

/** The `rcodesign` the release signs with (scripts/ensure-rcodesign.sh), to read the signatures back. */
export function rcodesign(): string {
  return ensureTool("ensure-rcodesign.sh");
}

/** The release's plugin archive for a target. */
export function pluginArchive(target: Target): string {
  return programArchive("plugin", target);
}

/** The release's archive of a program (the plugin, the tools, the emulator) for a target. */
export function programArchive(program: ProgramName, target: Target): string {
  return path.join(releaseFolder(), archiveName(releaseVersions().version, target, program));
}

/** The release's Python SDK wheel (pure Python: the tools' and the emulator's wheels are per platform). */
export function pythonWheel(): string {
  const name = `${SDK_NAMES.python}-${releaseVersions().python}-py3-none-any.whl`;
  assert.ok(fs.existsSync(path.join(releaseFolder(), name)), `the release folder ${releaseFolder()} holds ${name}`);
  return path.join(releaseFolder(), name);
}

/** The release's platform wheel of the tools or the emulator for linux-amd64, the platform the tests run on. */
export function toolWheelFile(program: keyof typeof WHEEL_PROJECTS): string {
  const name = wheelFileName(program, releaseVersions().version, "linux-amd64");
  assert.ok(fs.existsSync(path.join(releaseFolder(), name)), `the release folder ${releaseFolder()} holds ${name}`);
  return path.join(releaseFolder(), name);
}

/**
 * `pulumi plugin install resource integration-platform <version> --file <archive>`, into the workspace's PULUMI_HOME,
 * from the archive of `target` (linux-amd64, the machine the tests run on, unless a test runs another under emulation),
 * under the release's version unless told another (to show a plugin installed under a wrong one is refused).
 */
export function installPluginFromArchive(
  workspace: Workspace,
  { target = "linux-amd64", version = releaseVersions().version }: { target?: Target; version?: string } = {},
): void {
  execFileSync(
    "pulumi",
    [
      "plugin",
      "install",
      "resource",
      "integration-platform",
      version,
      "--file",
      pluginArchive(target),
      "--non-interactive",
    ],
    {
      env: workspace.env(),
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

/** Where libc6-arm64-cross and libstdc++6-arm64-cross put the aarch64 libraries: qemu's `-L`, the root its programs' paths start from. */
export const AARCH64_SYSROOT = "/usr/aarch64-linux-gnu";

/**
 * `qemu-aarch64-static`, which runs the linux-arm64 executables on this x86-64 machine with the libraries in
 * AARCH64_SYSROOT (scripts/ensure-qemu.sh: installed with apt-get when missing).
 */
export function qemuAarch64(): string {
  return ensureTool("ensure-qemu.sh");
}

/**
 * A fresh virtualenv at `<dir>/venv` (the layout `pulumi new python` writes), with only the
 * release's wheel installed by pip (which brings `pulumi` and the wheel's other requirements from PyPI).
 */
export function freshVirtualenv(dir: string): void {
  const venv = path.join(dir, "venv");
  execFileSync("python3", ["-m", "venv", venv], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", pythonWheel()], {
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 10 * 60_000,
  });
}

/** A PATH of only `dirs`, checked to hold no `node` and no `npm`: what a machine without Node.js has. */
export function pathWithoutNode(...dirs: string[]): string {
  for (const dir of dirs) {
    for (const name of ["node", "npm", "npx"])
      assert.ok(!fs.existsSync(path.join(dir, name)), `${dir} holds ${name}: this PATH must have no Node.js`);
  }
  return dirs.join(path.delimiter);
}

/** A mirror of the release folder at /v<version>/, recording the paths it was asked for. */
export interface ReleaseMirror {
  /** Its address, `http://127.0.0.1:<port>`. */
  url: string;
  /** The paths asked for, in order, decoded. */
  asked: string[];
  /**
   * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES pointing the SDK's plugin source at this mirror, as air-gapped CI sets it
   * (docs/installation-configuration.md): the pattern matches the source the SDK names (github://…/<org>/pulumi-<name>),
   * and the CLI fills in ${VERSION}.
   */
  override: string;
  /** Stops it. */
  close(): Promise<void>;
}

/** Serves the release folder's files at /v<version>/ on 127.0.0.1, as a static mirror of the GitHub release does. */
export async function startMirror(): Promise<ReleaseMirror> {
  const asked: string[] = [];
  const { version } = releaseVersions();
  const server = http.createServer((req, res) => {
    // Decoded: a snapshot's version has a `+`, which the CLI sends as %2B.
    const url = decodeURIComponent(req.url ?? "");
    asked.push(url);
    const file = path.join(releaseFolder(), path.basename(url));
    if (!url.startsWith(`/v${version}/`) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const source = `${PLUGIN_DOWNLOAD_URL}/pulumi-integration-platform`.replace(/[.]/g, "\\.");
  return {
    url,
    asked,
    override: `^${source}$=${url}/v\${VERSION}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The Go toolchain's own setting (`go env NAME`), as this machine has it. */
export function goEnv(name: string): string {
  return execFileSync("go", ["env", name], { encoding: "utf8" }).trim();
}

/**
 * What a Go team sets to take the SDK from the release folder (docs/design/release.md, "Go from the release"): the
 * folder's module proxy tree first, then the proxies this machine uses for every other module; and no checksum
 * database lookup for our modules, which sum.golang.org does not know before the tag.
 */
export function releaseGoEnv(): Record<string, string> {
  return {
    GOPROXY: `file://${path.join(releaseFolder(), GOPROXY_DIR)},${goEnv("GOPROXY")}`,
    GONOSUMDB: "github.com/pulumi-integration-platform/*",
  };
}

/** The one Go version of the SDK the release's module proxy tree holds (its `@v/list`). */
export function releaseGoVersion(): string {
  const versions = goProxyVersions(releaseFolder());
  assert.equal(versions.length, 1, `the release's goproxy lists one version of ${GO_SDK_MODULE}: ${versions}`);
  return versions[0];
}

/**
 * Removes a module version from the machine's module cache (read-only there), so that the next `go get` must fetch
 * it: the test then sees the release folder serve it, not a copy an earlier run left.
 */
export function forgetGoModule(module: string, version: string): void {
  const cache = goEnv("GOMODCACHE");
  const places = [
    path.join(cache, `${module}@${version}`),
    ...["info", "mod", "zip", "ziphash", "lock"].map((ext) =>
      path.join(cache, "cache", "download", module, "@v", `${version}.${ext}`),
    ),
  ];
  for (const place of places.filter((p) => fs.existsSync(p))) {
    execFileSync("chmod", ["-R", "u+w", place]);
    fs.rmSync(place, { recursive: true, force: true });
  }
}

/** A server process a test started: its address, what it printed so far, and how to stop it. */
export interface Server {
  /** The address it printed it listens on. */
  url: string;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves once its output matches `pattern`; rejects after `timeoutMs` or if it exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Ends it (SIGTERM, then SIGKILL after 5 s) and waits for its exit. */
  stop(): Promise<void>;
}

/**
 * Starts `command` with exactly `env` (nothing of this process's environment) and resolves once its output
 * matches `listening`, whose first group is the server's address. Fails, with what it printed, if it exits
 * first or takes over a minute.
 */
export async function startServer(
  command: string,
  args: string[],
  env: Record<string, string>,
  listening: RegExp,
): Promise<Server> {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  let exited: string | undefined;
  const watchers = new Set<() => void>();
  const changed = () => watchers.forEach((watch) => watch());
  child.stdout.on("data", (chunk: Buffer) => ((text += chunk.toString()), changed()));
  child.stderr.on("data", (chunk: Buffer) => ((text += chunk.toString()), changed()));
  const closed = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      exited = `exited (${signal ?? code})`;
      changed();
      resolve();
    }),
  );
  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`${path.basename(command)} printed no ${pattern} in ${timeoutMs} ms:\n${text}`)),
        timeoutMs,
      );
      const finish = (error?: Error) => {
        clearTimeout(timer);
        watchers.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (pattern.test(text)) finish();
        else if (exited) finish(new Error(`${path.basename(command)} ${exited} before printing ${pattern}:\n${text}`));
      };
      watchers.add(check);
      check();
    });
  try {
    await waitFor(listening);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url: listening.exec(text)![1],
    output: () => text,
    waitFor,
    async stop() {
      if (exited) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await closed;
      clearTimeout(killer);
    },
  };
}

// Every getting-started page (docs/getting-started/<language>.md), run as its reader runs it: each command block
// (```sh) and each file block in the page's order, from an empty folder, through the real CLI, the commands
// verbatim, the pages one after another in this one process. What this closed machine needs in place of the
// internet and of an unpublished version is given by environment only: pip finds the page's version among wheels of
// it (PIP_FIND_LINKS), Go in a module proxy tree of sdk/go (GOPROXY), Maven in the tests' local repository
// (MAVEN_OPTS), npm through a local registry that knows the package (npm_config_registry), and the CLI downloads the
// plugin from a mirror of the GitHub release (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES). Each is the page's version as a
// release of it is made from this checkout: sdk/ carries package.json's version; the plugin, the tools and the
// emulator come from the release folder, the plugin built again here when that folder is a snapshot (whose plugin
// refuses to run under another version). What a page lists as installed before its first step (the Pulumi CLI, the
// toolchain; for Go, YAML and Java the two command-line tools, executables of the release) is on PATH, and every
// page but TypeScript's runs with no Node.js on it. Each page has a Pulumi home of its own, which also holds its
// state: `pulumi login --local` runs as written, but the CLI takes `~` from the system's user database, not HOME.
//
// The markers a page puts on the lines right before a fence (docs/development.md, "Code blocks in the docs"):
//   <!-- file: NAME -->        the block is the file NAME, written where the commands stand; the prose names it too
//   <!-- background: TEXT -->  a command left running in a second terminal, ready once it prints TEXT; stopped at
//                              the page's end
//   <!-- not run: WHY -->      a command this machine cannot run (GitHub, your platform): at most MAX_NOT_RUN a page
// An unmarked block right after a command block is that command's output as the page shows it: each of its lines
// must be in what the command printed. Every page previews, deploys, changes, previews the change as a reviewer sees
// it (the summary) and destroys; the emulator holds what the program declares after `up`, and exactly what it held
// before, after `destroy`. The log ends with each page's wall time and CPU seconds, and each command block's time.
import * as assert from "node:assert/strict";
import { execFileSync, spawn, type ExecFileSyncOptions } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { EmulatorState } from "../../../emulator";
import { observableState } from "../../../harness/e2e";
import { engineBinDir, REPO } from "../../../harness/engine";
import { javaSdkRepository, LANGUAGES, languageHostsDir, mavenOpts } from "../../../harness/languages";
import { PACKAGE_TARBALL_ENV, packTarball } from "../../../harness/program";
import { ensureTool } from "../../../harness/tools";
import { PLUGIN_DOWNLOAD_URL } from "../../../provider/native/schema";
import {
  archiveName,
  bundleProgram,
  executableName,
  joinExecutable,
  seaBlob,
  usesCodeCache,
  type ProgramName,
} from "../../../scripts/release/executables";
import { GO_SDK_MODULE, GOPROXY_DIR, goProxy } from "../../../scripts/release/goproxy";
import { pythonVersion } from "../../../scripts/release/version";
import {
  forgetGoModule,
  goEnv,
  pathWithoutNode,
  programArchive,
  releaseFolder,
  releaseVersions,
  toolWheelFile,
} from "../../support/release";

/** How many command blocks a page may leave unrun (each marked, with the reason). */
const MAX_NOT_RUN = 1;
/** The emulator's default address, which every page points its stack at. */
const EMULATOR = "http://127.0.0.1:4010";
/** The version every page names: package.json's (test/unit/docsStory.test.ts holds the docs to it). */
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

// ---------------------------------------------------------------------------------------------
// A page, read.

/** One step of a page: a command to run (or to leave running, or not run), a file to write, or a command's output. */
interface Step {
  kind: "run" | "background" | "notRun" | "file" | "shown";
  /** The fence's line in the page. */
  line: number;
  text: string;
  /** The file's name, the text a background command prints when ready, or why a command is not run. */
  note?: string;
}

const MARKER = /^\s*<!--\s*([a-z ]+?)(?::\s*(.*?))?\s*-->\s*$/;

/** The `<!-- key: value -->` comments on the lines right above line `at` (docs.test.ts's `snippet` markers too). */
function markersAbove(lines: string[], at: number): { markers: Map<string, string>; first: number } {
  const markers = new Map<string, string>();
  let first = at;
  for (let i = at - 1; i >= 0 && MARKER.test(lines[i]); i--) {
    const [, key, value] = MARKER.exec(lines[i])!;
    markers.set(key, value ?? "");
    first = i;
  }
  return { markers, first };
}

/** The paragraph that ends right above line `at`: where a file block's name must be said. */
function paragraphAbove(lines: string[], at: number): string {
  let end = at;
  while (end > 0 && lines[end - 1].trim() === "") end--;
  let start = end;
  while (start > 0 && lines[start - 1].trim() !== "") start--;
  return lines.slice(start, end).join("\n");
}

/** What a block is, from its language, its markers and the step before it. */
function stepOf(lang: string, markers: Map<string, string>, previous: Step | undefined): Step["kind"] {
  const known = ["file", "background", "not run", "snippet"];
  const unknown = [...markers.keys()].filter((key) => !known.includes(key));
  assert.deepEqual(unknown, [], `unknown marker: use ${known.join(", ")}`);
  if (lang === "sh" || lang === "bash") {
    assert.ok(!markers.has("file"), "a command block is not a file");
    return markers.has("not run") ? "notRun" : markers.has("background") ? "background" : "run";
  }
  if (markers.has("file")) return "file";
  assert.ok(
    previous?.kind === "run" && markers.size === 0,
    `a ${lang} block that is neither a file (<!-- file: NAME -->) nor what the command before it prints`,
  );
  return "shown";
}

/** The page's steps, in order. */
function readPage(file: string): Step[] {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const steps: Step[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, lang] = open;
    const where = `${path.relative(REPO, file)}:${i + 1}`;
    const end = lines.findIndex((line, j) => j > i && line.trim() === "```");
    assert.ok(end > i, `${where}: a fence never closed`);
    const text =
      lines
        .slice(i + 1, end)
        .map((line) => line.slice(indent.length))
        .join("\n") + "\n";
    const { markers, first } = markersAbove(lines, i);
    let kind: Step["kind"];
    try {
      kind = stepOf(lang, markers, steps.at(-1));
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
    }
    const note = markers.get("file") ?? markers.get("background") ?? markers.get("not run");
    assert.ok(kind === "run" || kind === "shown" || note, `${where}: the marker needs its text`);
    if (kind === "file")
      assert.ok(paragraphAbove(lines, first).includes(`\`${note}\``), `${where}: the prose before names \`${note}\``);
    steps.push({ kind, line: i + 1, text, note });
    i = end;
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------
// The reader's shell: a bash per block, in the folder the blocks before left it in.

/** What one block printed, and how it ended. */
interface Ran {
  code: number;
  output: string;
  seconds: number;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** One page's shell: the environment it was given, and the folder its last block ended in. */
class Shell {
  cwd: string;
  /** How to stop each command a page left running. */
  private readonly background: (() => Promise<void>)[] = [];

  constructor(
    private readonly root: string,
    readonly env: Record<string, string>,
  ) {
    this.cwd = path.join(root, "work");
    fs.mkdirSync(this.cwd, { recursive: true });
  }

  /**
   * Runs a block with `bash -e`, from the current folder; the folder it ends in is the next block's. The block runs
   * in a process group of its own, which is killed whole at the timeout: a command's children (npm's, the CLI's
   * plugins) would otherwise outlive it, holding its output open.
   */
  run(script: string, timeoutMs = 10 * 60_000): Promise<Ran> {
    const cwdFile = path.join(this.root, "cwd");
    const started = Date.now();
    return new Promise((resolve) => {
      const child = spawn("bash", ["-e", "-c", `${script}\npwd > ${quote(cwdFile)}`], {
        cwd: this.cwd,
        env: this.env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      const killGroup = () => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // The group has ended already.
        }
      };
      const timer = setTimeout(killGroup, timeoutMs);
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      // A process the block left behind keeps the output open: 5 s after bash's exit, it is killed.
      child.on("exit", () => setTimeout(killGroup, 5_000).unref());
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code === 0) this.cwd = fs.readFileSync(cwdFile, "utf8").trim();
        resolve({ code: code ?? 1, output, seconds: (Date.now() - started) / 1000 });
      });
    });
  }

  /**
   * Starts a block as a second terminal would, from the current folder, in a process group of its own (`npx` does
   * not pass a signal on to the program it starts); resolves once it printed `ready`, fails if it exits first.
   */
  async start(script: string, ready: string): Promise<void> {
    const child = spawn("bash", ["-e", "-c", script], {
      cwd: this.cwd,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    this.background.push(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, "SIGTERM");
      const killer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${ready}" in a minute:\n${output}`)), 60_000);
      const check = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(ready)) resolve(clearTimeout(timer));
      };
      child.stdout.on("data", check);
      child.stderr.on("data", check);
      child.on("exit", (code) => reject(new Error(`it exited (${code}) before printing "${ready}":\n${output}`)));
    });
  }

  /** Stops what the page left running, with everything it started. */
  async stop(): Promise<void> {
    await Promise.all(this.background.map((stop) => stop()));
  }
}

// ---------------------------------------------------------------------------------------------
// What the reader observes, checked after each command that shows it.

/** The emulator's state, as users observe it through the API. */
async function platformState() {
  const response = await fetch(`${EMULATOR}/_emulator/state`);
  assert.equal(response.status, 200, "the page's emulator answers on its default address");
  return observableState((await response.json()) as EmulatorState);
}

/** What the program of every page declares, as the emulator holds it. */
async function declaredOnPlatform() {
  const state = await platformState();
  const config = state.configs.find((c) => c.linkedAccountId === "globex" && c.slug === "hubspot")!;
  return {
    field: config.fields.find((f) => f.id === "hs_pipeline")?.name,
    workflow: config.workflows.find((w) => w.id === "wf_hs_contact_sync")?.enabled,
    quota: state.envValues.find((v) => v.definition === "64f0000000000000000000d6" && v.linkedAccountId === "globex")
      ?.value,
  };
}

/** The resources every page's program declares. */
const RESOURCES = ["globex-pipeline", "globex-contact-sync", "globex-quota"];

/** A check of one step of the walk every page takes: the command it follows, and what it asserts. */
interface Check {
  name: string;
  after: RegExp;
  check(output: string, before: Awaited<ReturnType<typeof platformState>>): Promise<void>;
}

/** The check of `pulumi preview --diff`, which only Python's page runs. */
const DIFF_CHECK = "the change's preview shows the one update";

const CHECKS: Check[] = [
  {
    name: "the first preview lists the three resources to create",
    after: /^pulumi preview\s*$/m,
    async check(output) {
      assert.match(output, /\+ 4 to create/);
      for (const name of RESOURCES) assert.match(output, new RegExp(`${name}\\s+create`));
    },
  },
  {
    name: "up creates them, and the platform holds them",
    after: /^pulumi up\s*$/m,
    async check(output) {
      assert.match(output, /\+ 4 created/);
      assert.deepEqual(await declaredOnPlatform(), { field: "Sales pipeline", workflow: true, quota: "250" });
    },
  },
  {
    name: DIFF_CHECK,
    after: /^pulumi preview --diff\s*$/m,
    async check(output) {
      assert.match(output, /~ 1 to update/);
      assert.match(output, /~ name\s*: "Sales pipeline" => "Deals pipeline"/);
    },
  },
  {
    name: "the summary names the linked account and the change",
    after: /pulumi-integration-platform summarize preview\.json/,
    async check(output) {
      assert.match(output, /<summary><b>Linked account <code>globex<\/code><\/b>: 1 change \(1 to update\)/);
      assert.ok(output.includes('`name`: `"Sales pipeline"` → `"Deals pipeline"`'), output);
    },
  },
  {
    name: "destroy puts back what the platform held",
    after: /^pulumi destroy\s*$/m,
    async check(output, before) {
      assert.match(output, /- 4 deleted/);
      assert.deepEqual(await platformState(), before);
    },
  },
];

/** Each line of a shown output is in what the command printed, spaces aside (the CLI aligns its columns). */
function assertShown(shown: string, output: string): void {
  const squeeze = (text: string) => text.replace(/\s+/g, "");
  const printed = squeeze(output);
  for (const line of shown.split("\n").filter((l) => l.trim() !== ""))
    assert.ok(printed.includes(squeeze(line)), `the page shows ${JSON.stringify(line.trim())}; it printed:\n${output}`);
}

// ---------------------------------------------------------------------------------------------
// This machine in place of the internet.

/** A folder of symlinks to every program of /usr/local/bin, /usr/bin and /bin but Node.js's: a machine without it. */
function systemWithoutNode(root: string): string {
  const farm = path.join(root, "system-bin");
  fs.mkdirSync(farm, { recursive: true });
  for (const dir of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) {
      if (["node", "nodejs", "npm", "npx", "corepack"].includes(name)) continue;
      if (!fs.existsSync(path.join(farm, name))) fs.symlinkSync(path.join(dir, name), path.join(farm, name));
    }
  }
  return farm;
}

/** Where a command is found on this process's PATH. */
function whichOnPath(command: string): string {
  const found = (process.env.PATH ?? "").split(path.delimiter).find((dir) => fs.existsSync(path.join(dir, command)));
  assert.ok(found, `${command} is on PATH`);
  return path.join(found, command);
}

/** The folder of the machine's real python3 (not a shim that needs a shell's setup). */
function pythonDir(): string {
  const executable = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" });
  return path.dirname(fs.realpathSync(executable.trim()));
}

/** The executable of a program (the tools, the emulator) from the release's archive for this machine, into `dir`. */
function releaseExecutable(program: ProgramName, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const name = executableName("linux-amd64", program);
  execFileSync("tar", ["-xzf", programArchive(program, "linux-amd64"), "-C", dir, name]);
  return path.join(dir, name);
}

/**
 * Writes the wheel `source` again as version `version` (PEP 440) of the same distribution into `out`, its entries
 * stored rather than compressed: the tools' and the emulator's wheels each carry a 130 MB executable, which the
 * release's own wheel writer compressing again took most of a minute for, on 2 busy cores.
 */
const RELABEL_WHEEL = String.raw`
import base64, hashlib, os, re, sys, zipfile
source, version, out = sys.argv[1:]
dist, old = os.path.basename(source).split("-")[:2]
target = os.path.join(out, os.path.basename(source).replace(f"{dist}-{old}-", f"{dist}-{version}-"))
records, record_name = [], None
with zipfile.ZipFile(source) as wheel, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as relabeled:
    for info in wheel.infolist():
        name = info.filename.replace(f"{dist}-{old}.", f"{dist}-{version}.")
        if name.endswith(".dist-info/RECORD"):
            record_name = name
            continue
        data = wheel.read(info)
        if name.endswith(".dist-info/METADATA"):
            data = re.sub(rb"^Version: .*$", b"Version: " + version.encode(), data, count=1, flags=re.M)
        entry = zipfile.ZipInfo(name, date_time=info.date_time)
        entry.external_attr = info.external_attr
        relabeled.writestr(entry, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        records.append(f"{name},sha256={digest},{len(data)}")
    entry = zipfile.ZipInfo(record_name, date_time=(1980, 1, 1, 0, 0, 0))
    entry.external_attr = 0o100644 << 16
    relabeled.writestr(entry, "\n".join([*records, f"{record_name},,", ""]))
`;

/**
 * The Python packages of the page's version: the SDK's wheel built from sdk/python (which carries package.json's
 * version, and so asks for that plugin), the tools' and the emulator's wheels of the release at that version.
 */
function pythonWheels(work: string): string {
  const wheels = path.join(work, "wheels");
  const source = path.join(work, "sdk-python");
  // A copy: pip builds in place, and sdk/ stays as generated.
  fs.cpSync(path.join(REPO, "sdk", "python"), source, { recursive: true });
  const quiet: ExecFileSyncOptions = { stdio: ["ignore", "ignore", "inherit"] };
  execFileSync("python3", ["-m", "pip", "wheel", "--no-deps", "--quiet", "-w", wheels, source], quiet);
  for (const program of ["tools", "emulator"] as const)
    execFileSync("python3", ["-c", RELABEL_WHEEL, toolWheelFile(program), pythonVersion(VERSION), wheels], quiet);
  return wheels;
}

/**
 * The plugin's archive for this machine at the page's version: the release folder's, if it is that release; else
 * (a snapshot's folder, whose plugin refuses to run under another version) made here as the release makes it, from
 * the same dist/, with the page's version in it.
 */
async function pluginArchive(work: string): Promise<string> {
  if (releaseVersions().version === VERSION) return programArchive("plugin", "linux-amd64");
  const nodes = ensureTool("ensure-sea-node.sh");
  const script = path.join(work, "plugin.js");
  await bundleProgram(REPO, "plugin", script, VERSION);
  const node = path.join(nodes, "linux-amd64", "node");
  const blob = seaBlob(node, script, work, REPO, "plugin", VERSION, usesCodeCache("plugin", "linux-amd64"));
  const executable = path.join(work, "plugin", executableName("linux-amd64"));
  fs.mkdirSync(path.dirname(executable));
  await joinExecutable("linux-amd64", node, blob, executable);
  const archive = path.join(work, archiveName(VERSION, "linux-amd64"));
  // The fastest gzip: this archive is read once, here.
  execFileSync("tar", ["--use-compress-program=gzip -1", "-cf", archive, "-C", path.dirname(executable), "."]);
  return archive;
}

/** A mirror of the GitHub release's plugin archive, as air-gapped CI sets one up; records the paths asked for. */
async function startPluginMirror(
  archive: string,
): Promise<{ override: string; asked: string[]; close(): Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? "");
    if (req.url !== `/v${VERSION}/${path.basename(archive)}`) return void res.writeHead(404).end();
    // The CLI checks the length it was told against what it received.
    res.writeHead(200, { "content-length": fs.statSync(archive).size });
    fs.createReadStream(archive).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The CLI matches the source the SDK names, with the package's repository appended (github://…/<org>/pulumi-<name>).
  const source = `${PLUGIN_DOWNLOAD_URL}/pulumi-integration-platform`.replace(/[.]/g, "\\.");
  return {
    override: `^${source}$=${url}/v\${VERSION}`,
    asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A registry for npm that knows the package at the page's version, from the tarball `npm pack` makes of this
 * checkout, and sends npm to the public registry for every other package.
 */
async function startNpmRegistry(work: string): Promise<{ url: string; close(): Promise<void> }> {
  // The test runner packs the checkout once for all its jobs (scripts/test.ts).
  const tarball = process.env[PACKAGE_TARBALL_ENV] ?? packTarball(REPO, work);
  const bytes = fs.readFileSync(tarball);
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
  ) as { name: string; version: string };
  assert.equal(manifest.version, VERSION, `${tarball} is the package at the page's version`);
  const file = `/${manifest.name}/-/${manifest.name}-${VERSION}.tgz`;
  let url = "";
  const server = http.createServer((req, res) => {
    if (req.url === `/${manifest.name}`) {
      const dist = {
        tarball: `${url}${file}`,
        shasum: createHash("sha1").update(bytes).digest("hex"),
        integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
      };
      const packument = {
        name: manifest.name,
        "dist-tags": { latest: VERSION },
        versions: { [VERSION]: { ...manifest, dist } },
      };
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument));
    }
    if (req.url === file) return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(bytes);
    res.writeHead(302, { location: `https://registry.npmjs.org${req.url}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// ---------------------------------------------------------------------------------------------
// The languages: what each page's reader has installed, and what stands in for the registries.

/** A page's language: the folders on its PATH, and the environment its registries need here. */
interface Language {
  page: string;
  /** Whether its program uses the native provider, whose plugin the first preview downloads. */
  native: boolean;
  /**
   * Whether the page previews the change with `pulumi preview --diff` before the reviewer's preview: Python's does;
   * the others go to the reviewer's, one engine run fewer on CI's 2 cores.
   */
  diff: boolean;
  /** The PATH folders before the system's, for the Pulumi CLI and the toolchain (no Node.js but TypeScript's). */
  path(work: string): string[];
  /** What the registries need on this machine, as environment. */
  env(work: string): Promise<Record<string, string>>;
}

/** The two command-line tools, as a Go, YAML or Java reader installs them from the release: a folder on PATH. */
function toolsFolder(work: string): string {
  const dir = path.join(work, "tools-bin");
  releaseExecutable("tools", dir);
  releaseExecutable("emulator", dir);
  return dir;
}

/** What the pages started for their registries, stopped after the last page. */
const closers: (() => Promise<void>)[] = [];

const LANGUAGE_LIST: Language[] = [
  {
    page: "python",
    native: true,
    diff: true,
    path: () => [engineBinDir(), languageHostsDir(), pythonDir()],
    // Beside the folders this machine's pip may already look in.
    env: async (work) => ({ PIP_FIND_LINKS: `${pythonWheels(work)} ${process.env.PIP_FIND_LINKS ?? ""}`.trim() }),
  },
  {
    page: "typescript",
    native: false,
    diff: false,
    // This process's Node.js first, then the folder of the npm it runs with (a system one, or Node's own).
    path: () => [engineBinDir(), path.dirname(process.execPath), path.dirname(whichOnPath("npm"))],
    env: async (work) => {
      const registry = await startNpmRegistry(work);
      closers.push(registry.close);
      // The audit asks the registry for advisories, which a local registry does not serve.
      return { npm_config_registry: `${registry.url}/`, npm_config_audit: "false" };
    },
  },
  {
    page: "go",
    native: true,
    diff: false,
    path: (work) => [engineBinDir(), languageHostsDir(), path.join(goEnv("GOROOT"), "bin"), toolsFolder(work)],
    env: async (work) => {
      await goProxy(path.join(REPO, "sdk"), VERSION, work);
      // An earlier copy in the module cache would stand in for the proxy's; this one is not left there either.
      forgetGoModule(GO_SDK_MODULE, `v${VERSION}`);
      closers.push(async () => forgetGoModule(GO_SDK_MODULE, `v${VERSION}`));
      return {
        GOPROXY: `file://${path.join(work, GOPROXY_DIR)},${goEnv("GOPROXY")}`,
        GONOSUMDB: "github.com/pulumi-integration-platform/*",
      };
    },
  },
  {
    page: "yaml",
    native: true,
    diff: false,
    path: (work) => [engineBinDir(), languageHostsDir(), toolsFolder(work)],
    env: async () => ({}),
  },
  {
    page: "java",
    native: true,
    diff: false,
    path: (work) => [engineBinDir(), languageHostsDir(), ensureTool("ensure-maven.sh"), toolsFolder(work)],
    env: async () => {
      const repository = javaSdkRepository();
      const sdk = path.join(repository, "io/github/pulumi-integration-platform/integration-platform", VERSION);
      assert.ok(fs.existsSync(sdk), `the tests' Maven repository holds the Java SDK at ${VERSION}, from sdk/java`);
      return { MAVEN_OPTS: mavenOpts(repository) };
    },
  },
];

/**
 * The environment of every page: this machine's own (its certificates, proxies, caches and HOME), without what is
 * this test process's (its Pulumi settings, npm's variables for the script that runs mocha, the provider's settings),
 * with a Pulumi home of the page's own and the answers to the CLI's prompts.
 */
function baseEnv(pulumiHome: string, pathDirs: string[]): Record<string, string> {
  const own = /^(PULUMI_|npm_|INTEGRATION_PLATFORM_|TS_NODE_|MOCHA)/;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !own.test(k)));
  const passed = ["PULUMI_NODEJS_TRANSPILE_ONLY"].filter((k) => process.env[k] !== undefined);
  return {
    ...(env as Record<string, string>),
    PATH: pathDirs.join(path.delimiter),
    // The CLI finds `~` in the system's user database: `pulumi login --local` keeps the state in the user's
    // ~/.pulumi, whatever HOME says. These name the page's own instead, which the CLI then uses (and says so).
    PULUMI_HOME: pulumiHome,
    PULUMI_BACKEND_URL: `file://${pulumiHome}`,
    // What the reader types at `pulumi stack init`'s prompt, and the "yes" of `pulumi up` and `pulumi destroy`.
    PULUMI_CONFIG_PASSPHRASE: "getting-started",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    NO_COLOR: "1",
    // The test runner's saving on 2 cores, for the TypeScript program (docs/development.md, "Running the tests").
    ...Object.fromEntries(passed.map((k) => [k, process.env[k]!])),
  };
}

/** One page's wall time, and each command block's, for the closing table. */
const times: string[] = [];
/** The machine-wide parts every page shares: its temporary root, the system without Node.js, the plugin's mirror. */
const shared: { root: string; system: string; mirror?: Awaited<ReturnType<typeof startPluginMirror>> } = {
  root: "",
  system: "",
};

/**
 * CPU seconds spent so far by this process and the children it waited for (Linux /proc: cutime and cstime, in the
 * kernel's 100 ticks a second), which include each block's bash and everything it ran: what a page costs CI's cores.
 */
function cpuSeconds(): number {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  const own = process.cpuUsage();
  return (Number(fields[13]) + Number(fields[14])) / 100 + (own.user + own.system) / 1e6;
}

/** Runs one language's page from an empty folder; every check of the walk must run, and the plugin download. */
async function runPage(language: Language): Promise<void> {
  const started = Date.now();
  const cpu = cpuSeconds();
  const page = path.join(REPO, "docs", "getting-started", `${language.page}.md`);
  const steps = readPage(page);
  const notRun = steps.filter((s) => s.kind === "notRun");
  assert.ok(notRun.length <= MAX_NOT_RUN, `${notRun.length} blocks not run (lines ${notRun.map((s) => s.line)})`);
  // Made by the first page that needs it: the plugin of the page's version may have to be built.
  if (language.native) shared.mirror ??= await startPluginMirror(await pluginArchive(shared.root));
  const work = path.join(shared.root, language.page);
  const home = path.join(work, "pulumi-home");
  fs.mkdirSync(home, { recursive: true });
  const dirs = [...language.path(work), shared.system];
  if (language.page !== "typescript") pathWithoutNode(...dirs);
  const env = { ...baseEnv(home, dirs), ...(await language.env(work)) };
  if (shared.mirror) env.PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES = shared.mirror.override;
  const shell = new Shell(work, env);
  const node = await shell.run("command -v node");
  if (language.page !== "typescript") assert.notEqual(node.code, 0, `node is on the page's PATH: ${node.output}`);
  const asked = shared.mirror?.asked.length ?? 0;
  try {
    const walk = CHECKS.filter((c) => language.diff || c.name !== DIFF_CHECK).map((c) => c.name);
    assert.deepEqual(await walkPage(shell, steps, language.page), walk);
  } finally {
    await shell.stop();
  }
  if (language.native)
    assert.ok(
      shared.mirror!.asked.slice(asked).includes(`/v${VERSION}/${archiveName(VERSION, "linux-amd64")}`),
      "the first preview downloads the plugin of the page's version by itself",
    );
  const wall = ((Date.now() - started) / 1000).toFixed(1);
  times.push(`${wall.padStart(7)} s  ${language.page}.md, all of it (${(cpuSeconds() - cpu).toFixed(0)} s of CPU)`);
}

// ---------------------------------------------------------------------------------------------

describe(`e2e: the getting-started pages, every command run as the page gives it ${LANGUAGES}`, function () {
  this.timeout(30 * 60_000);
  before(() => {
    releaseFolder();
    shared.root = fs.mkdtempSync(path.join(os.tmpdir(), "pip-getting-started-"));
    shared.system = systemWithoutNode(shared.root);
  });
  after(async () => {
    await shared.mirror?.close();
    for (const close of closers) await close();
    if (shared.root) fs.rmSync(shared.root, { recursive: true, force: true });
    console.log(`getting-started pages, wall time:\n${times.join("\n")}`);
  });

  for (const language of LANGUAGE_LIST)
    it(`docs/getting-started/${language.page}.md: from an empty folder to a pull request's summary, then destroy`, () =>
      runPage(language));
});

/** Runs a page's steps in order, checking each; returns the names of the checks that ran, in order. */
async function walkPage(shell: Shell, steps: Step[], page: string): Promise<string[]> {
  const fired: string[] = [];
  let before: Awaited<ReturnType<typeof platformState>> | undefined;
  let last: Ran | undefined;
  for (const step of steps) {
    const where = `docs/getting-started/${page}.md:${step.line}`;
    if (step.kind === "file") {
      fs.mkdirSync(path.dirname(path.join(shell.cwd, step.note!)), { recursive: true });
      fs.writeFileSync(path.join(shell.cwd, step.note!), step.text);
    } else if (step.kind === "shown") {
      assertShown(step.text, last!.output);
    } else if (step.kind === "background") {
      await shell.start(step.text, step.note!);
      before = await platformState();
    } else if (step.kind === "run") {
      last = await shell.run(step.text);
      times.push(`${last.seconds.toFixed(1).padStart(7)} s  ${where}  ${step.text.split("\n")[0]}`);
      assert.equal(last.code, 0, `${where} failed:\n${step.text}\n--- it printed\n${last.output}`);
      for (const check of CHECKS.filter((c) => c.after.test(step.text))) {
        assert.ok(before, `${where}: the page starts the emulator before "${check.name}"`);
        try {
          await check.check(last.output, before);
        } catch (error) {
          const message = `${where}: ${check.name}: ${(error as Error).message}\n--- it printed\n${last.output}`;
          throw new Error(message, { cause: error });
        }
        fired.push(check.name);
      }
    }
  }
  return fired;
}

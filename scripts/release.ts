// `npm run release`: writes every artifact of this version into one folder (docs/design/release.md):
// the plugin as one executable per platform (archives the Pulumi CLI downloads), the command-line
// tools and the emulator as executables too (archives, and platform wheels for Python), the SDK packages
// (Go's as a module proxy tree), the npm package, the schema, the release's CHANGELOG section and SHA256SUMS
// over all of them.
// The GitHub release workflow (.github/workflows/release.yml) runs it on a tag and uploads the folder.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command, Option } from "commander";
import { compiledNodeSdk } from "../harness/languages";
import { ensureTool, REPO } from "../harness/tools";
import {
  archiveName,
  bundleProgram,
  executableName,
  joinExecutable,
  packArchive,
  PROGRAMS,
  seaBlob,
  TARGETS,
  type ProgramName,
  type Target,
} from "./release/executables";
import { goProxy } from "./release/goproxy";
import { javaPackages } from "./release/java";
import { toolWheel } from "./release/wheels";

/** What one run of the command was asked. */
interface ReleaseOptions {
  out?: string;
  snapshot: boolean;
  targets: Target[];
  only?: string[];
}

/**
 * The parts a release is made of; `--only` picks some (a test that needs only the plugin, say). `tools` and
 * `emulator` are their executables' archives and the platform wheels that carry them; `go` the Go module proxy tree
 * (`goproxy/` and `goproxy.tar.gz`).
 */
const PARTS = ["plugin", "tools", "emulator", "python", "nodejs-sdk", "java", "go", "npm", "schema"] as const;
type Part = (typeof PARTS)[number];

/** Runs a command, its output on stderr (stdout is this command's own summary). */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(command, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/** Prints progress on stderr. */
function log(message: string): void {
  process.stderr.write(`release: ${message}\n`);
}

/** The CHANGELOG section of `version` (`[Unreleased]` for a snapshot), without its heading. */
export function changelogSection(changelog: string, heading: string): string | undefined {
  const lines = changelog.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`## [${heading}]`));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## ["));
  return (
    lines
      .slice(start + 1, end < 0 ? undefined : end)
      .join("\n")
      .trim() + "\n"
  );
}

/** Refuses a release whose version is not the same everywhere a user reads it. */
function checkVersions(version: string): void {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO, "sdk", "schema.json"), "utf8")) as { version: string };
  const python = fs
    .readFileSync(path.join(REPO, "sdk", "python", "pyproject.toml"), "utf8")
    .match(/^\s*version = "([^"]+)"/m)?.[1];
  const nodeSdk = (
    JSON.parse(fs.readFileSync(path.join(REPO, "sdk", "nodejs", "package.json"), "utf8")) as { version: string }
  ).version;
  const java = fs
    .readFileSync(path.join(REPO, "sdk", "java", "pom.xml"), "utf8")
    .match(/<artifactId>integration-platform<\/artifactId>\s*<version>([^<]+)<\/version>/)?.[1];
  const found = {
    "sdk/schema.json": schema.version,
    "sdk/python/pyproject.toml": python,
    "sdk/nodejs/package.json": nodeSdk,
    "sdk/java/pom.xml": java,
  };
  const wrong = Object.entries(found).filter(([, v]) => v !== version);
  if (wrong.length > 0) {
    throw new Error(
      `package.json says ${version}, but ${wrong.map(([file, v]) => `${file} says ${v}`).join(", ")}: run 'npm run gen:schema && bash scripts/gen-sdk.sh' and commit`,
    );
  }
}

/**
 * A program's archives, one per target (and for the tools and the emulator, a platform wheel per target that
 * carries the same executable); returns the archives' paths.
 */
async function programArchives(
  version: string,
  program: ProgramName,
  targets: Target[],
  out: string,
  work: string,
): Promise<string[]> {
  const nodes = ensureTool("ensure-sea-node.sh");
  if (targets.some((t) => t.startsWith("darwin-")))
    process.env.PULUMI_IP_RCODESIGN ||= ensureTool("ensure-rcodesign.sh");
  const script = path.join(work, `${program}.js`);
  const size = await bundleProgram(REPO, program, script);
  log(`bundled ${PROGRAMS[program].name} into one script of ${(size / 1e6).toFixed(1)} MB`);
  // The blob is made by the release's own Node.js (linux-amd64, run here) and serves every target.
  const blob = seaBlob(path.join(nodes, "linux-amd64", "node"), script, work, REPO, program);
  const archives: string[] = [];
  for (const target of targets) {
    const started = Date.now();
    const executable = path.join(work, program, target, executableName(target, program));
    fs.mkdirSync(path.dirname(executable), { recursive: true });
    await joinExecutable(
      target,
      path.join(nodes, target, target.startsWith("windows-") ? "node.exe" : "node"),
      blob,
      executable,
    );
    // The archive and the wheel compress the same executable at once, one on each core.
    const archive = path.join(out, archiveName(version, target, program));
    await Promise.all([
      packArchive(REPO, executable, archive),
      program === "plugin" ? undefined : toolWheel(REPO, program, version, target, executable, out),
    ]);
    fs.rmSync(executable);
    log(
      `${path.basename(archive)}: ${(fs.statSync(archive).size / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    archives.push(archive);
  }
  return archives;
}

/** The Python SDK's wheel and sdist, built by PyPA's `build` (pinned, in a cached virtualenv). */
function pythonPackages(out: string, work: string): void {
  const tools = path.join(
    process.env.PULUMI_IP_CACHE_DIR ?? path.join(os.homedir(), ".cache", "pulumi-integration-platform"),
    "release-python-build-1.6.1",
  );
  if (!fs.existsSync(path.join(tools, ".complete"))) {
    fs.rmSync(tools, { recursive: true, force: true });
    run("python3", ["-m", "venv", tools], REPO);
    run(path.join(tools, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", "build==1.6.1"], REPO);
    fs.writeFileSync(path.join(tools, ".complete"), "");
  }
  // A copy: the build writes into its source folder, and sdk/ stays as generated.
  const source = path.join(work, "python");
  fs.cpSync(path.join(REPO, "sdk", "python"), source, { recursive: true });
  run(path.join(tools, "bin", "python"), ["-m", "build", "--sdist", "--wheel", "--outdir", out, source], work);
}

/**
 * The TypeScript SDK's npm tarball: compiled, then `bin/` packed with its package.json, as Pulumi's generated SDKs are
 * published.
 */
function nodeSdkPackage(out: string, work: string): void {
  run("npm", ["pack", "--ignore-scripts", "--pack-destination", out, "--loglevel", "error"], compiledNodeSdk(work));
}

/** Writes SHA256SUMS over every file of the folder, in `sha256sum`'s format (`sha256sum -c SHA256SUMS` checks it). */
function writeChecksums(out: string): void {
  const lines = fs
    .readdirSync(out)
    .filter((name) => name !== "SHA256SUMS" && fs.statSync(path.join(out, name)).isFile())
    .sort()
    .map(
      (name) =>
        `${createHash("sha256")
          .update(fs.readFileSync(path.join(out, name)))
          .digest("hex")}  ${name}`,
    );
  fs.writeFileSync(path.join(out, "SHA256SUMS"), lines.join("\n") + "\n");
}

/** Makes the release folder; returns its path. */
export async function release(options: ReleaseOptions): Promise<string> {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
  checkVersions(version);
  const heading = options.snapshot ? "Unreleased" : version;
  const notes = changelogSection(fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8"), heading);
  if (notes === undefined)
    throw new Error(
      `CHANGELOG.md has no section "## [${heading}]": write it (or pass --snapshot to release what is unreleased, for a test)`,
    );
  if (!fs.existsSync(path.join(REPO, "dist", "provider", "native", "main.js")))
    throw new Error("dist/ is missing: run 'npm run build' first");

  const out = path.resolve(options.out ?? path.join(REPO, "release", `v${version}`));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pip-release-"));
  const wanted = (part: Part) => !options.only || options.only.includes(part);
  try {
    for (const program of ["plugin", "tools", "emulator"] as const)
      if (wanted(program)) await programArchives(version, program, options.targets, out, work);
    if (wanted("python")) pythonPackages(out, work);
    if (wanted("nodejs-sdk")) nodeSdkPackage(out, work);
    if (wanted("java")) javaPackages(path.join(REPO, "sdk"), version, out, work, process.env, log);
    if (wanted("go")) await goProxy(path.join(REPO, "sdk"), version, out);
    if (wanted("npm")) run("npm", ["pack", "--ignore-scripts", "--pack-destination", out, "--loglevel", "error"], REPO);
    if (wanted("schema")) fs.copyFileSync(path.join(REPO, "sdk", "schema.json"), path.join(out, "schema.json"));
    fs.writeFileSync(
      path.join(out, "CHANGELOG.md"),
      `## ${options.snapshot ? `${version} (snapshot of the unreleased changes)` : version}\n\n${notes}`,
    );
    writeChecksums(out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return out;
}

if (require.main === module) {
  const program = new Command()
    .name("npm run release --")
    .description("Writes every artifact of the version in package.json into one folder (docs/design/release.md).")
    .option("--out <dir>", "the folder to write (emptied first)", "release/v<version>")
    .option(
      "--snapshot",
      "release the CHANGELOG's [Unreleased] section instead of the version's own (for tests and dry runs)",
      false,
    )
    .addOption(
      new Option("--targets <targets...>", "the executables' platforms").choices([...TARGETS]).default([...TARGETS]),
    )
    .addOption(
      new Option("--only <parts...>", "make only these parts (and CHANGELOG.md, SHA256SUMS)").choices([...PARTS]),
    )
    .parse();
  const options = program.opts<ReleaseOptions>();
  if (options.out === "release/v<version>") delete options.out;
  release(options).then(
    (out) => {
      for (const name of fs.readdirSync(out).sort())
        console.log(`${String(fs.statSync(path.join(out, name)).size).padStart(11)}  ${name}`);
      console.log(`release: ${out}`);
    },
    (error: Error) => {
      console.error(`release: ${error.message}`);
      process.exit(1);
    },
  );
}

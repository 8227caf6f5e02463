// `npm run release`: writes every artifact of this version into one folder (docs/design/release.md):
// the plugin as one executable per platform (archives the Pulumi CLI downloads), the command-line
// tools and the emulator as executables too (archives, and platform wheels for Python), the SDK packages
// (Go's as a module proxy tree), the npm package, the schema, the emulator's OpenAPI document, the release's
// CHANGELOG section and SHA256SUMS over all of them.
// The GitHub release workflow (.github/workflows/release.yml) runs it on a tag and uploads the folder.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command, Option } from "commander";
import { openApiText } from "../emulator/openApiDocument";
import { compiledNodeSdk } from "../harness/languages";
import { cacheRoot, ensureTool, REPO } from "../harness/tools";
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
  usesCodeCache,
} from "./release/executables";
import { goProxy } from "./release/goproxy";
import { javaPackages } from "./release/java";
import { toolWheel } from "./release/wheels";
import { packageVersion, releaseContext, releaseVersions, type ReleaseContext } from "./release/context";

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
const PARTS = [
  "plugin",
  "tools",
  "emulator",
  "python",
  "nodejs-sdk",
  "java",
  "go",
  "npm",
  "schema",
  "openapi",
] as const;
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

/**
 * A program's archives, one per target (and for the tools and the emulator, a platform wheel per target that
 * carries the same executable); returns the archives' paths.
 */
async function programArchives(
  { version, out, work }: ReleaseContext,
  program: ProgramName,
  targets: Target[],
): Promise<string[]> {
  const nodes = ensureTool("ensure-sea-node.sh");
  if (targets.some((t) => t.startsWith("darwin-")))
    process.env.PULUMI_IP_RCODESIGN ||= ensureTool("ensure-rcodesign.sh");
  const script = path.join(work, `${program}.js`);
  const size = await bundleProgram(REPO, program, script, version);
  log(`bundled ${PROGRAMS[program].name} into one script of ${(size / 1e6).toFixed(1)} MB`);
  // The blob is made by the release's own Node.js (linux-amd64, run here) and serves every target; the
  // plugin's for linux-amd64 also carries the code cache that Node.js makes (usesCodeCache).
  const node = path.join(nodes, "linux-amd64", "node");
  const blobs = new Map<boolean, string>();
  const blobFor = (target: Target): string => {
    const cached = usesCodeCache(program, target);
    if (!blobs.has(cached)) blobs.set(cached, seaBlob(node, script, work, REPO, program, version, cached));
    return blobs.get(cached)!;
  };
  const archives: string[] = [];
  for (const target of targets) {
    const started = Date.now();
    const executable = path.join(work, program, target, executableName(target, program));
    fs.mkdirSync(path.dirname(executable), { recursive: true });
    await joinExecutable(
      target,
      path.join(nodes, target, target.startsWith("windows-") ? "node.exe" : "node"),
      blobFor(target),
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
function pythonPackages({ sdk, out, work }: ReleaseContext): void {
  const tools = path.join(cacheRoot(), "release-python-build-1.6.1");
  if (!fs.existsSync(path.join(tools, ".complete"))) {
    fs.rmSync(tools, { recursive: true, force: true });
    run("python3", ["-m", "venv", tools], REPO);
    run(path.join(tools, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", "build==1.6.1"], REPO);
    fs.writeFileSync(path.join(tools, ".complete"), "");
  }
  // A copy: the build writes into its source folder, and sdk/ stays as generated.
  const source = path.join(work, "python");
  fs.cpSync(path.join(sdk, "python"), source, { recursive: true });
  run(path.join(tools, "bin", "python"), ["-m", "build", "--sdist", "--wheel", "--outdir", out, source], work);
}

/**
 * The TypeScript SDK's npm tarball: compiled, then `bin/` packed with its package.json, as Pulumi's generated SDKs are
 * published.
 */
function nodeSdkPackage({ sdk, out, work }: ReleaseContext): void {
  run(
    "npm",
    ["pack", "--ignore-scripts", "--pack-destination", out, "--loglevel", "error"],
    compiledNodeSdk(work, sdk),
  );
}

/**
 * This package's npm tarball, packed from a copy of the files `npm pack` takes with package.json saying the
 * release's version: a snapshot's is not package.json's, and the repository is never modified.
 */
function npmPackage({ version, out, work }: ReleaseContext): void {
  const [{ files }] = JSON.parse(
    run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel", "error"], REPO),
  ) as { files: { path: string }[] }[];
  const staged = path.join(work, "npm-package");
  for (const { path: file } of files) {
    fs.mkdirSync(path.dirname(path.join(staged, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO, file), path.join(staged, file));
    fs.chmodSync(path.join(staged, file), fs.statSync(path.join(REPO, file)).mode);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
  fs.writeFileSync(path.join(staged, "package.json"), JSON.stringify({ ...manifest, version }, null, 2) + "\n");
  // The emulator's document says the version the package's emulator reports, as the release's copy does.
  fs.writeFileSync(path.join(staged, "emulator", "openapi.json"), openApiText(version));
  run("npm", ["pack", "--ignore-scripts", "--pack-destination", out, "--loglevel", "error"], staged);
}

/**
 * Writes SHA256SUMS over every file at the folder's top (what the GitHub release uploads: goproxy/ goes up as
 * goproxy.tar.gz, maven/ has its own checksums), in `sha256sum`'s format (`sha256sum --check --strict SHA256SUMS`).
 */
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

/** The CHANGELOG.md heading of the release's own notes: a snapshot's says it is not a release. */
export function releaseHeading(version: string, snapshot: boolean): string {
  return snapshot ? `## ${version} (a snapshot of the unreleased changes, not a release)` : `## ${version}`;
}

/** Makes the release folder; returns its path. */
export async function release(options: ReleaseOptions): Promise<string> {
  const heading = options.snapshot ? "Unreleased" : packageVersion(REPO);
  const notes = changelogSection(fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8"), heading);
  if (notes === undefined)
    throw new Error(
      `CHANGELOG.md has no section "## [${heading}]": write it (or pass --snapshot to release what is unreleased, for a test)`,
    );
  if (!fs.existsSync(path.join(REPO, "dist", "provider", "native", "main.js")))
    throw new Error("dist/ is missing: run 'npm run build' first");

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pip-release-"));
  try {
    const context = releaseContext(REPO, options.snapshot, work, options.out);
    const { version, sdk, out } = context;
    log(`version ${version}${options.snapshot ? " (snapshot)" : ""}, SDKs from ${sdk}`);
    fs.rmSync(out, { recursive: true, force: true });
    fs.mkdirSync(out, { recursive: true });
    const wanted = (part: Part) => !options.only || options.only.includes(part);
    for (const program of ["plugin", "tools", "emulator"] as const)
      if (wanted(program)) await programArchives(context, program, options.targets);
    if (wanted("python")) pythonPackages(context);
    if (wanted("nodejs-sdk")) nodeSdkPackage(context);
    if (wanted("java")) javaPackages(sdk, version, out, work, process.env, log);
    if (wanted("go")) await goProxy(sdk, version, out);
    if (wanted("npm")) npmPackage(context);
    if (wanted("schema")) fs.copyFileSync(path.join(sdk, "schema.json"), path.join(out, "schema.json"));
    if (wanted("openapi")) fs.writeFileSync(path.join(out, "emulator-openapi.json"), openApiText(version));
    fs.writeFileSync(path.join(out, "CHANGELOG.md"), `${releaseHeading(version, options.snapshot)}\n\n${notes}`);
    fs.writeFileSync(path.join(out, "release.json"), JSON.stringify(releaseVersions(version), null, 2) + "\n");
    writeChecksums(out);
    return out;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const program = new Command()
    .name("npm run release --")
    .description(
      "Writes every artifact of the version in package.json (or of a snapshot) into one folder (docs/design/release.md).",
    )
    .option("--out <dir>", "the folder to write (emptied first)", "release/v<version>")
    .option(
      "--snapshot",
      "release the CHANGELOG's [Unreleased] section as <next>-dev.<commits>+g<commit>, a version no release has (for tests and dry runs)",
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
      for (const name of fs.readdirSync(out, { recursive: true, encoding: "utf8" }).sort())
        if (fs.statSync(path.join(out, name)).isFile())
          console.log(`${String(fs.statSync(path.join(out, name)).size).padStart(11)}  ${name}`);
      console.log(`release: ${out}`);
    },
    (error: Error) => {
      console.error(`release: ${error.message}`);
      process.exit(1);
    },
  );
}

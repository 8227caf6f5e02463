// Builds the package's three programs as one executable per platform each: the native provider's
// plugin, the command-line tools and the emulator. Each compiled program (dist/…/main.js) and
// everything it requires is bundled into one script, joined to a Node.js binary of each target with
// Node's single executable application support, then packed in the archive layout the Pulumi CLI
// downloads (the plugin's) or a user unpacks onto PATH. docs/design/release.md tells the whole story.
import { execFile, execFileSync } from "node:child_process";
import type { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { inject } from "postject";
import { promisify } from "node:util";
import { PACKAGE_FILES } from "../../contract/packageFiles";

const execFileAsync = promisify(execFile);

/** The platforms a release ships the executables for, in the Pulumi CLI's own os-arch names. */
export const TARGETS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"] as const;
/** One release platform. */
export type Target = (typeof TARGETS)[number];

/** The plugin's executable name; the CLI looks for exactly this (with `.exe` on Windows). */
export const PLUGIN = "pulumi-resource-integration-platform";

/** One program of the package that the release ships as an executable. */
export interface Program {
  /** The executable's name, which is also the command users type. */
  name: string;
  /** The compiled entry point, relative to the repository. */
  entry: string;
  /** The package's files it reads at run time, joined as assets (contract/packageFiles.ts). */
  assets: readonly string[];
}

/**
 * The programs a release ships as executables: the plugin (the Pulumi CLI downloads its archive), and the
 * tools and the emulator, which the npm package also runs as `npx` commands.
 */
export const PROGRAMS = {
  plugin: { name: PLUGIN, entry: "dist/provider/native/main.js", assets: [] },
  tools: { name: "pulumi-integration-platform", entry: "dist/cli/main.js", assets: PACKAGE_FILES },
  emulator: { name: "pulumi-integration-platform-emulator", entry: "dist/emulator/main.js", assets: PACKAGE_FILES },
} as const satisfies Record<string, Program>;

/** Which of the programs. */
export type ProgramName = keyof typeof PROGRAMS;

// Node's own marker that the binary carries an application (docs: "Single executable applications").
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** A program's executable file name on a target (the plugin's by default). */
export function executableName(target: Target, program: ProgramName = "plugin"): string {
  const name = PROGRAMS[program].name;
  return target.startsWith("windows-") ? `${name}.exe` : name;
}

/**
 * A program's release archive name: <name>-v<version>-<os>-<arch>.tar.gz, which for the plugin is what the
 * Pulumi CLI asks for (pulumi-resource-<package>-v…).
 */
export function archiveName(version: string, target: Target, program: ProgramName = "plugin"): string {
  return `${PROGRAMS[program].name}-v${version}-${target}.tar.gz`;
}

/**
 * An esbuild plugin that gives the bundle the repository's package.json with `version` in it: the plugin
 * inlines package.json (a literal `require`) to report its version, and a snapshot's version is not
 * package.json's. Only the repository's own file is replaced; the dependencies' package.json are left alone.
 */
function packageVersionPlugin(repo: string, version: string): esbuild.Plugin {
  const manifest = path.join(repo, "package.json");
  return {
    name: "package-version",
    setup(build) {
      build.onLoad({ filter: /[\\/]package\.json$/ }, (args) => {
        if (path.resolve(args.path) !== manifest) return undefined;
        const contents = { ...(JSON.parse(fs.readFileSync(manifest, "utf8")) as object), version };
        return { contents: JSON.stringify(contents), loader: "json" };
      });
    },
  };
}

/**
 * Bundles a compiled program into one CommonJS script: a single executable runs one script, and
 * its `require` reaches only Node's built-in modules. The bundle carries `version` as its package.json's
 * (package.json's own when not given). Returns the bundle's size in bytes.
 */
export async function bundleProgram(
  repo: string,
  program: ProgramName,
  outfile: string,
  version?: string,
): Promise<number> {
  await esbuild.build({
    entryPoints: [path.join(repo, PROGRAMS[program].entry)],
    bundle: true,
    platform: "node",
    target: "node24",
    format: "cjs",
    outfile,
    // dist/ holds source maps beside each file: they are not code.
    loader: { ".map": "empty" },
    // Minified, names kept: error messages name classes (`ApiError`), and the start parses less.
    minify: true,
    keepNames: true,
    legalComments: "none",
    logLevel: "error",
    plugins: version ? [packageVersionPlugin(repo, version)] : [],
  });
  return fs.statSync(outfile).size;
}

/** The plugin's bundle: `bundleProgram` for the plugin (BENCHMARKS.md rebuilds it with this name). */
export function bundlePlugin(repo: string, outfile: string): Promise<number> {
  return bundleProgram(repo, "plugin", outfile);
}

/**
 * The target whose executables carry V8's code cache of their script: the only one whose Node.js the build
 * runs (the blob is made by linux-amd64's), and a cache is tied to the Node.js, platform and architecture
 * that made it.
 */
export const CODE_CACHE_TARGET: Target = "linux-amd64";

/** Whether a program's blob for `target` carries a code cache: the plugin's, for CODE_CACHE_TARGET. */
export function usesCodeCache(program: ProgramName, target: Target): boolean {
  return program === "plugin" && target === CODE_CACHE_TARGET;
}

/**
 * Writes the preparation blob for `script` (a file in `work`) with `node` (the release's Node.js, run here), with
 * the program's assets read from `repo`; with `version`, the package.json asset says that version (`--version`
 * prints it). With `codeCache`, the blob carries V8's code cache of the script, made by `node`: only the target
 * `node` is for may use that blob.
 */
export function seaBlob(
  node: string,
  script: string,
  work: string,
  repo: string,
  program: ProgramName = "plugin",
  version?: string,
  codeCache = false,
): string {
  const name = codeCache ? `${program}-cached` : program;
  const config = path.join(work, `${name}-sea-config.json`);
  // No snapshot, and a code cache only when asked: both are tied to the platform that builds them; a
  // blob without them serves all five targets. The cache spares the plugin the parse of its whole
  // script at each start (BENCHMARKS.md). Paths relative to `work`: the blob keeps the script's path as given,
  // and a temporary folder's random name would make each release's archives differ. The assets are
  // keyed by their path in the repository, as contract/packageFiles.ts reads them.
  const assets: Record<string, string> = Object.fromEntries(
    PROGRAMS[program].assets.map((file) => [file, path.join(repo, file)]),
  );
  if (version && "package.json" in assets) {
    const manifest = { ...(JSON.parse(fs.readFileSync(assets["package.json"], "utf8")) as object), version };
    assets["package.json"] = path.join(work, `${program}-package.json`);
    fs.writeFileSync(assets["package.json"], JSON.stringify(manifest, null, 2) + "\n");
  }
  const settings = {
    main: path.relative(work, script),
    output: `${name}.blob`,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: codeCache,
    assets,
  };
  fs.writeFileSync(config, JSON.stringify(settings));
  // V8 seeds its hashes at random, and the cache would differ at each build; a fixed seed while it is made
  // gives the same bytes from the same script (the seed is not kept: the executable's own is random).
  const seed = codeCache ? ["--random-seed=1"] : [];
  execFileSync(node, [...seed, "--experimental-sea-config", path.basename(config)], {
    cwd: work,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return path.join(work, settings.output);
}

/** The `rcodesign` that signs the macOS executables, or undefined when the environment names none. */
function rcodesign(): string | undefined {
  return process.env.PULUMI_IP_RCODESIGN || undefined;
}

/**
 * Joins the blob to a copy of the target's Node.js binary at `out`. A macOS binary is signed again
 * (ad hoc): the join invalidates Node's signature, and macOS on Apple silicon refuses to start an
 * executable without a valid one.
 */
export async function joinExecutable(target: Target, node: string, blob: string, out: string): Promise<void> {
  fs.copyFileSync(node, out);
  fs.chmodSync(out, 0o755);
  const darwin = target.startsWith("darwin-");
  const signer = rcodesign();
  if (darwin && !signer) throw new Error(`a ${target} executable must be signed again after the join: set PULUMI_IP_RCODESIGN to rcodesign (bash scripts/ensure-rcodesign.sh prints it)`);
  // postject's ELF parser warns of each note section it cannot name, harmlessly: quiet while it runs.
  const warn = console.warn;
  console.warn = () => {};
  // Each inject loads postject's Emscripten module afresh, which adds process-wide error listeners
  // and never removes them: they are taken off again, or fifteen joins trip Node's leak warning.
  const emitter: EventEmitter = process;
  const events = ["uncaughtException", "unhandledRejection"];
  const before = events.map((event) => new Set(emitter.listeners(event)));
  try {
    await inject(out, "NODE_SEA_BLOB", fs.readFileSync(blob), { sentinelFuse: SEA_FUSE, ...(darwin ? { machoSegmentName: "NODE_SEA" } : {}) });
  } finally {
    console.warn = warn;
    events.forEach((event, i) =>
      emitter.listeners(event).forEach((listener) => {
        if (!before[i].has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }),
    );
  }
  // `sign` with no certificate signs ad hoc, replacing Node's signature (which the join broke). Its
  // progress is printed only when it fails.
  if (darwin) execFileSync(signer!, ["sign", out], { stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Packs the executable (at the archive's root, as the CLI expects) with the license and README. It
 * links the executable into the archive's folder rather than moving it, so that a wheel can read it
 * at the same time.
 */
export async function packArchive(repo: string, executable: string, archive: string): Promise<void> {
  const staging = fs.mkdtempSync(path.join(path.dirname(archive), ".pack-"));
  try {
    fs.linkSync(executable, path.join(staging, path.basename(executable)));
    fs.copyFileSync(path.join(repo, "LICENSE"), path.join(staging, "LICENSE"));
    fs.copyFileSync(path.join(repo, "README.md"), path.join(staging, "README.md"));
    // Owner and times fixed: the same inputs give the same archive, and its checksum says so.
    const fixed = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0", "--use-compress-program=gzip -n"];
    await execFileAsync("tar", [...fixed, "-cf", archive, "-C", staging, path.basename(executable), "LICENSE", "README.md"]);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

// What a program in each language needs, made the way its users make it: the generated SDK
// installed as a package (npm, pip, a Go module), and the language host on PATH. Each is built
// once per run, cached where it can be, and never skipped: without Go or Python the tests fail.
import { cacheRoot, ensureTool } from "./tools";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "./engine";
import { installTarball, packTarball } from "./program";

/** Marks the per-language suites: CI runs them on Node 24 only (the program's runtime is the language's own). */
export const LANGUAGES = "[languages]";

const CACHE = cacheRoot();
const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(command, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 20 * 60_000 });

/** A hash of a directory's files (names and contents), to key what is built from it. */
function hashOf(dir: string): string {
  const hash = createHash("sha256");
  for (const file of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const full = path.join(dir, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 12);
}

let hosts: string | undefined;
/**
 * The directory of the Python, Go and YAML language hosts (scripts/ensure-languages.sh: installed, cached or built).
 */
export function languageHostsDir(): string {
  hosts ??= ensureTool("ensure-languages.sh");
  return hosts;
}

/** The @pulumi/pulumi version the repository pins: the Python SDK is taken at the same release. */
function pulumiVersion(): string {
  return (
    JSON.parse(fs.readFileSync(path.join(REPO, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
}

let venv: string | undefined;
/**
 * A virtual environment with the `pulumi` Python SDK from PyPI and the generated SDK installed
 * from sdk/python, as `pip install` gives a user; returns its `bin` directory. Cached by both.
 */
export function pythonBin(): string {
  if (venv) return venv;
  const dir = path.join(CACHE, `python-${pulumiVersion()}-${hashOf(path.join(REPO, "sdk", "python"))}`);
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    // Made where it stays: a venv's scripts name its path. `.complete` is written last, so a run
    // that stopped halfway is made again.
    fs.rmSync(dir, { recursive: true, force: true });
    run("python3", ["-m", "venv", dir], REPO);
    const pip = path.join(dir, "bin", "pip");
    run(pip, ["install", "--quiet", "--disable-pip-version-check", `pulumi==${pulumiVersion()}`], REPO);
    // A copy: pip builds in place, and sdk/ stays as generated.
    const source = fs.mkdtempSync(path.join(os.tmpdir(), "pip-sdk-python-"));
    fs.cpSync(path.join(REPO, "sdk", "python"), source, { recursive: true });
    run(pip, ["install", "--quiet", "--disable-pip-version-check", source], REPO);
    fs.rmSync(source, { recursive: true, force: true });
    fs.writeFileSync(path.join(dir, ".complete"), new Date().toISOString());
  }
  venv = path.join(dir, "bin");
  return venv;
}

let nodeSdk: string | undefined;
/**
 * The TypeScript SDK compiled in `work/nodejs` from a copy of `<sdk>/nodejs` (sdk/ by default, a snapshot
 * release's own SDKs otherwise); returns its `bin/`, which holds its package.json, README.md and LICENSE:
 * what the SDK publishes, as Pulumi's generated SDKs are released.
 */
export function compiledNodeSdk(work: string, sdk: string = path.join(REPO, "sdk")): string {
  const source = path.join(work, "nodejs");
  fs.cpSync(path.join(sdk, "nodejs"), source, { recursive: true });
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(source, "node_modules"), "dir");
  // No source maps: they would point at the .ts sources, which the package does not carry.
  const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
  run(process.execPath, [tsc, "-p", "tsconfig.json", "--sourceMap", "false", "--declarationMap", "false"], source);
  for (const file of ["package.json", "README.md", "LICENSE"])
    fs.copyFileSync(path.join(source, file), path.join(source, "bin", file));
  fs.rmSync(path.join(source, "node_modules"));
  return path.join(source, "bin");
}

/**
 * The generated TypeScript SDK built (`tsc`, as its package.json says) and packed, installed with
 * this package's tarball (which brings the plugin); returns the install directory to link.
 */
export function nodeSdkInstall(): string {
  if (nodeSdk) return nodeSdk;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pip-sdk-nodejs-"));
  try {
    const sdkTarball = packTarball(compiledNodeSdk(work), work);
    const mainTarball = packTarball(REPO, work);
    nodeSdk = installTarball(mainTarball, [sdkTarball]);
    return nodeSdk;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The Maven local repository of the tests and the release they build (Maven Central's downloads kept across runs). */
export const MAVEN_REPOSITORY = path.join(CACHE, "maven");

let mavenRepo: string | undefined;
/**
 * A Maven local repository holding the generated Java SDK (sdk/java built and installed, as
 * `mvn install` of the release's jar gives a user) and, once fetched, the Pulumi Java SDK and its
 * dependencies from Maven Central. A program's `mvn` reads it through MAVEN_OPTS (`javaEnv`).
 */
export function javaSdkRepository(): string {
  if (mavenRepo) return mavenRepo;
  const repo = MAVEN_REPOSITORY;
  const marker = path.join(repo, `.sdk-java-${hashOf(path.join(REPO, "sdk", "java"))}`);
  if (!fs.existsSync(marker)) {
    // A copy: Maven builds into target/ beside the sources, and sdk/ stays as generated.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "pip-sdk-java-"));
    try {
      fs.cpSync(path.join(REPO, "sdk", "java"), work, { recursive: true });
      run("mvn", ["--batch-mode", "--quiet", "--no-transfer-progress", `-Dmaven.repo.local=${repo}`, "install"], work);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    fs.writeFileSync(marker, new Date().toISOString());
  }
  mavenRepo = repo;
  return repo;
}

/** The environment a Java program's `mvn` runs with: the local repository that holds the SDK. */
export function javaEnv(): Record<string, string> {
  return { MAVEN_OPTS: mavenOpts(javaSdkRepository()) };
}

/**
 * MAVEN_OPTS naming `repository` as Maven's local repository, after the JVM options already in MAVEN_OPTS
 * (the test runner's: scripts/test.ts), which a suite's own MAVEN_OPTS would otherwise drop.
 */
export function mavenOpts(repository: string): string {
  return [process.env.MAVEN_OPTS, `-Dmaven.repo.local=${repository}`].filter(Boolean).join(" ");
}

/**
 * Copies examples/native/<language> into `parent`, as it is: a Go copy still has the `replace` of the SDK by
 * ../../../sdk/go, which its test drops with the example's README's own command (test/e2e/native/go.test.ts).
 */
export function copyNativeExample(language: "typescript" | "python" | "go" | "yaml" | "java", parent: string): string {
  const dir = path.join(parent, `native-${language}`);
  const built = [`${path.sep}node_modules`, `${path.sep}venv`, `${path.sep}target`];
  fs.cpSync(path.join(REPO, "examples", "native", language), dir, {
    recursive: true,
    filter: (src) => !built.some((part) => src.includes(part)),
  });
  if (language === "typescript")
    fs.symlinkSync(path.join(nodeSdkInstall(), "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

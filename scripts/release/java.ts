// The Java SDK as Maven Central takes it (docs/design/release.md, "The Java SDK"): built with Maven
// from a copy of <sdk>/java, laid out as a Maven repository under maven/ (the jar, the sources and
// javadoc jars, the pom, each with its .md5 and .sha1, and an .asc signature when a key is given),
// which the release workflow zips into the Central Portal's bundle; the same four files also sit at
// the folder's top, where the GitHub release carries them for `mvn install:install-file`.
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The environment variable holding the armored OpenPGP private key the release signs with (unset: a dry run). */
export const GPG_KEY_ENV = "PULUMI_IP_GPG_KEY";
/** The environment variable holding that key's passphrase (unset or empty: a key with none). */
export const GPG_PASSPHRASE_ENV = "PULUMI_IP_GPG_PASSPHRASE";

/** The checksums Maven Central's Central Portal requires beside each file of a bundle. */
export const MAVEN_CHECKSUMS = ["md5", "sha1"] as const;

/** A Maven artifact's coordinates. */
export interface MavenCoordinates {
  groupId: string;
  artifactId: string;
  version: string;
}

/** What javaPackages made: the artifact's coordinates and its files, as paths relative to the release folder. */
export interface JavaRelease extends MavenCoordinates {
  /** The folder under the release folder holding the artifact's files (`maven/<group path>/<artifact>/<version>`). */
  directory: string;
  /** The jar, sources jar, javadoc jar and pom in `directory` (no checksums or signatures). */
  artifacts: string[];
  /** Whether `.asc` signatures were written. */
  signed: boolean;
}

/** A pom's first four elements: modelVersion, then the project's groupId, artifactId and version. */
const POM_COORDINATES = new RegExp(
  ["modelVersion", "groupId", "artifactId", "version"]
    .map((tag, i) => `<${tag}>${i === 0 ? "[^<]*" : "([^<]+)"}</${tag}>`)
    .join("\\s*"),
);

/** The project's own groupId, artifactId and version in a pom (the first three after modelVersion). */
export function pomCoordinates(pom: string, file: string): MavenCoordinates {
  const match = POM_COORDINATES.exec(pom);
  if (!match)
    throw new Error(`${file} does not start with the project's groupId, artifactId and version after modelVersion`);
  return { groupId: match[1], artifactId: match[2], version: match[3] };
}

/** An artifact version's folder in a Maven repository: `<groupId with dots as slashes>/<artifactId>/<version>`. */
export function mavenDirectory({ groupId, artifactId, version }: MavenCoordinates): string {
  return path.posix.join(...groupId.split("."), artifactId, version);
}

/** The plugin.json resources under `<sdk>/java/src/main/resources/com/`, where Pulumi's Java SDK looks for them. */
function pluginJsonFiles(resources: string): string[] {
  const root = path.join(resources, "com");
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((name) => path.basename(name) === "plugin.json")
    .map((name) => path.join(root, name));
}

/** Refuses a Java SDK whose pom or plugin.json does not carry `version`, by file and with what to run. */
function checkSdk(source: string, version: string): MavenCoordinates {
  const pomFile = path.join(source, "pom.xml");
  if (!fs.existsSync(pomFile)) throw new Error(`${pomFile} is missing: run 'bash scripts/gen-sdk.sh'`);
  const coordinates = pomCoordinates(fs.readFileSync(pomFile, "utf8"), pomFile);
  const plugins = pluginJsonFiles(path.join(source, "src", "main", "resources"));
  if (plugins.length !== 1)
    throw new Error(
      `${source} holds ${plugins.length} plugin.json under src/main/resources/com/, not 1: run 'bash scripts/gen-sdk.sh'`,
    );
  const plugin = JSON.parse(fs.readFileSync(plugins[0], "utf8")) as { version?: string };
  const wrong = [
    coordinates.version !== version && `${pomFile} says ${coordinates.version}`,
    plugin.version !== version && `${plugins[0]} says ${plugin.version}`,
  ].filter(Boolean);
  if (wrong.length > 0)
    throw new Error(`the release is ${version}, but ${wrong.join(" and ")}: regenerate the SDK with that version`);
  return coordinates;
}

/** Writes `<file>.md5` and `<file>.sha1` (the bare hex digest, as Maven's deploy writes them). */
function writeChecksums(file: string): void {
  const bytes = fs.readFileSync(file);
  for (const algorithm of MAVEN_CHECKSUMS)
    fs.writeFileSync(`${file}.${algorithm}`, createHash(algorithm).update(bytes).digest("hex"));
}

/** Runs gpg with `options`; on failure, throws `what` and gpg's own stderr (which never echoes its stdin). */
function gpg(args: string[], options: ExecFileSyncOptions, what: string): void {
  try {
    execFileSync("gpg", ["--batch", "--no-tty", ...args], { ...options, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: Buffer };
    if (failure.code === "ENOENT")
      throw new Error(`${GPG_KEY_ENV} is set, but gpg is not on PATH: install GnuPG (Debian's package 'gnupg')`, {
        cause: error,
      });
    throw new Error(`${what}: ${failure.stderr?.toString().trim() || failure.message}`, { cause: error });
  }
}

/**
 * Signs each file with an `.asc` detached, armored signature, with the key in `env[GPG_KEY_ENV]`, imported into a
 * GNUPGHOME of its own that is removed afterwards (the user's keyring is never read or written). The key and the
 * passphrase go to gpg on its standard input only: never in an argument, a file or the output.
 */
export function signFiles(files: string[], env: NodeJS.ProcessEnv = process.env): void {
  const key = env[GPG_KEY_ENV];
  if (!key) throw new Error(`${GPG_KEY_ENV} is not set`);
  if (!key.includes("-----BEGIN PGP PRIVATE KEY BLOCK-----"))
    throw new Error(
      `${GPG_KEY_ENV} is not an armored OpenPGP private key (no "-----BEGIN PGP PRIVATE KEY BLOCK-----"): give the output of 'gpg --armor --export-secret-keys <key id>'`,
    );
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "pip-gpg-"));
  fs.chmodSync(home, 0o700);
  const gpgEnv: NodeJS.ProcessEnv = { ...env, GNUPGHOME: home };
  delete gpgEnv[GPG_KEY_ENV];
  delete gpgEnv[GPG_PASSPHRASE_ENV];
  try {
    gpg(["--import"], { env: gpgEnv, input: key }, `gpg could not import ${GPG_KEY_ENV}`);
    const passphrase = env[GPG_PASSPHRASE_ENV] ?? "";
    for (const file of files)
      gpg(
        [
          "--yes",
          "--pinentry-mode",
          "loopback",
          "--passphrase-fd",
          "0",
          "--detach-sign",
          "--armor",
          "--output",
          `${file}.asc`,
          file,
        ],
        { env: gpgEnv, input: passphrase },
        `gpg could not sign ${path.basename(file)} with ${GPG_KEY_ENV} (is ${GPG_PASSPHRASE_ENV} its passphrase?)`,
      );
  } finally {
    // The agent gpg started for this home would otherwise outlive it.
    try {
      execFileSync("gpgconf", ["--kill", "all"], { env: gpgEnv, stdio: "ignore" });
    } catch {
      // No gpgconf, or no agent: nothing runs.
    }
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Builds the Java SDK in `<sdkDir>/java` (whose pom and plugin.json must carry `version`) with Maven, from a copy in
 * `work`, and writes into `out`: `maven/<group path>/<artifact>/<version>/` with the jar, sources jar, javadoc jar
 * and pom, their `.md5` and `.sha1`, and `.asc` signatures when `env[GPG_KEY_ENV]` holds a key (otherwise a dry run
 * says on stderr what would be signed); the same jars and pom also at the top of `out`.
 */
export function javaPackages(
  sdkDir: string,
  version: string,
  out: string,
  work: string,
  env: NodeJS.ProcessEnv = process.env,
  log: (message: string) => void = (message) => process.stderr.write(`release: ${message}\n`),
): JavaRelease {
  const coordinates = checkSdk(path.join(sdkDir, "java"), version);
  // A copy: Maven builds into target/ beside the sources, and the SDK stays as generated.
  const source = path.join(work, "java");
  fs.cpSync(path.join(sdkDir, "java"), source, { recursive: true });
  execFileSync("mvn", ["--batch-mode", "--quiet", "--no-transfer-progress", "package"], {
    cwd: source,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `${coordinates.artifactId}-${version}`;
  const directory = path.posix.join("maven", mavenDirectory(coordinates));
  fs.mkdirSync(path.join(out, directory), { recursive: true });
  const built: [string, string][] = [
    [path.join(source, "target", `${base}.jar`), `${base}.jar`],
    [path.join(source, "target", `${base}-sources.jar`), `${base}-sources.jar`],
    [path.join(source, "target", `${base}-javadoc.jar`), `${base}-javadoc.jar`],
    [path.join(source, "pom.xml"), `${base}.pom`],
  ];
  for (const [from, name] of built) {
    if (!fs.existsSync(from)) throw new Error(`Maven built no ${path.basename(from)} in ${path.dirname(from)}`);
    fs.copyFileSync(from, path.join(out, directory, name));
    fs.copyFileSync(from, path.join(out, name));
    writeChecksums(path.join(out, directory, name));
  }
  const artifacts = built.map(([, name]) => name);
  const signed = Boolean(env[GPG_KEY_ENV]);
  if (signed) {
    signFiles(
      artifacts.map((name) => path.join(out, directory, name)),
      env,
    );
    log(`signed ${artifacts.join(", ")} in ${directory}`);
  } else {
    log(`dry run: ${GPG_KEY_ENV} is not set, so nothing is signed; it would sign ${artifacts.join(", ")} in ${directory}`);
  }
  return { ...coordinates, directory, artifacts, signed };
}

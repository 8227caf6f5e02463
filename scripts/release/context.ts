// What every part of a release builds from: the version it carries and the SDKs that carry the same
// version. A release of a version builds from the checked-in sdk/ (refused unless it says package.json's
// version); a snapshot regenerates the SDKs from a copy of sdk/schema.json with the snapshot's version
// (scripts/gen-sdk.sh --schema --out), so that no artifact of it says a released version
// (docs/design/release.md, "Versions").
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { packageSchema } from "../../provider/native/schema";
import { goVersion, pythonVersion, snapshotVersion } from "./version";

/** The languages whose SDKs a release ships (the .NET SDK is not released). */
export const RELEASED_SDKS = ["nodejs", "python", "go", "java"] as const;

/** What each part of a release is given: parts read the SDKs and the version from here, never from the repository. */
export interface ReleaseContext {
  /** The release's version (semver): package.json's, or a snapshot's `<next>-dev.<n>+g<commit>`. */
  version: string;
  /** The SDKs to build from, laid out as sdk/ is: schema.json, nodejs/, python/, go/, java/. */
  sdk: string;
  /** The release folder the parts write into. */
  out: string;
  /** A scratch folder of this run, removed after it. */
  work: string;
}

/** The release's version in each registry's spelling: what release.json records. */
export interface ReleaseVersions {
  /** The semver, as the archives, the plugin, the schema and the CHANGELOG say it. */
  version: string;
  /** PEP 440, as the wheels and the sdist carry it. */
  python: string;
  /** The Go module version (no build metadata). */
  go: string;
  /** The Maven version of the Java SDK. */
  maven: string;
  /** The npm version of both tarballs. */
  npm: string;
}

/** The version's spelling in each registry. */
export function releaseVersions(version: string): ReleaseVersions {
  return { version, python: pythonVersion(version), go: goVersion(version), maven: version, npm: version };
}

/** package.json's version. */
export function packageVersion(repo: string): string {
  return (JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string }).version;
}

/** Refuses a release whose version is not the same everywhere in `sdk` a user reads it. */
export function checkVersions(sdk: string, version: string): void {
  const schema = JSON.parse(fs.readFileSync(path.join(sdk, "schema.json"), "utf8")) as { version: string };
  const python = fs.readFileSync(path.join(sdk, "python", "pyproject.toml"), "utf8").match(/^\s*version = "([^"]+)"/m)?.[1];
  const nodeSdk = (JSON.parse(fs.readFileSync(path.join(sdk, "nodejs", "package.json"), "utf8")) as { version: string })
    .version;
  const java = fs
    .readFileSync(path.join(sdk, "java", "pom.xml"), "utf8")
    .match(/<artifactId>integration-platform<\/artifactId>\s*<version>([^<]+)<\/version>/)?.[1];
  const found = {
    "sdk/schema.json": [schema.version, version],
    "sdk/python/pyproject.toml": [python, pythonVersion(version)],
    "sdk/nodejs/package.json": [nodeSdk, version],
    "sdk/java/pom.xml": [java, version],
  };
  const wrong = Object.entries(found).filter(([, [found, wanted]]) => found !== wanted);
  if (wrong.length > 0) {
    throw new Error(
      `package.json says ${version}, but ${wrong.map(([file, [v]]) => `${file} says ${v}`).join(", ")}: run 'npm run gen:schema && bash scripts/gen-sdk.sh' and commit`,
    );
  }
}

/**
 * The context of a release into `out` (by default `release/v<version>`): package.json's version and sdk/
 * (checked), or for a snapshot its own version and the SDKs generated with it into `<work>/sdk`.
 */
export function releaseContext(repo: string, snapshot: boolean, work: string, out?: string): ReleaseContext {
  const folder = (version: string) => path.resolve(out ?? path.join(repo, "release", `v${version}`));
  if (!snapshot) {
    const version = packageVersion(repo);
    checkVersions(path.join(repo, "sdk"), version);
    return { version, sdk: path.join(repo, "sdk"), out: folder(version), work };
  }
  const version = snapshotVersion(repo);
  const sdk = path.join(work, "sdk");
  fs.mkdirSync(sdk, { recursive: true });
  // Built from the definitions as gen:schema builds sdk/schema.json, with the snapshot's version: the
  // version is also in the SDKs' READMEs the schema carries, and the plugin serves this very schema.
  // Written as gen:schema writes it: gen-sdk.sh reads the version from its two-space-indented line.
  fs.writeFileSync(path.join(sdk, "schema.json"), JSON.stringify(packageSchema(version), null, 2) + "\n");
  execFileSync(
    "bash",
    [path.join(repo, "scripts", "gen-sdk.sh"), "--schema", path.join(sdk, "schema.json"), "--out", sdk, ...RELEASED_SDKS],
    { cwd: repo, stdio: ["ignore", "inherit", "inherit"] },
  );
  checkVersions(sdk, version);
  return { version, sdk, out: folder(version), work };
}

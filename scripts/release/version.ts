// The version a release carries, and its spelling in each registry's own scheme. A release of a
// version (`npm run release`) carries package.json's; a snapshot (`--snapshot`) carries
// `<next>-dev.<n>+g<commit>`, which no release in CHANGELOG.md can equal: <next> is the version
// the CHANGELOG's [Unreleased] section will be released as, <n> the commits on the branch, so that
// later snapshots sort after earlier ones (docs/design/release.md, "Versions").
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/;

/** A semantic version's parts. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** The pre-release identifiers (`dev.12`), if any. */
  prerelease?: string;
  /** The build metadata (`gabc1234`), if any. */
  build?: string;
}

/** Parses a semantic version (semver.org 2.0), refusing anything else by name. */
export function parseSemVer(version: string): SemVer {
  const match = SEMVER.exec(version);
  if (!match) throw new Error(`'${version}' is not a semantic version (major.minor.patch[-pre][+build])`);
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: match[4],
    build: match[5],
  };
}

/** The versions CHANGELOG.md lists as released (its `## [x.y.z]` headings), newest first. */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+[^\]]*)\]/gm)].map((m) => m[1]);
}

/**
 * The version the next release will carry: package.json's, unless CHANGELOG.md already lists it as
 * released, then the minor version after it (what [Unreleased] holds is features until a
 * maintainer says otherwise by setting package.json).
 */
export function nextVersion(packageVersion: string, changelog: string): string {
  if (!releasedVersions(changelog).includes(packageVersion)) return packageVersion;
  const { major, minor } = parseSemVer(packageVersion);
  return `${major}.${minor + 1}.0`;
}

/**
 * A snapshot's version: `<next>-dev.<commits>+g<short commit>` (the commit as `git describe` writes it),
 * `+g<commit>.dirty` when the work tree has changes.
 */
export function snapshotVersion(repo: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string };
  const next = nextVersion(pkg.version, fs.readFileSync(path.join(repo, "CHANGELOG.md"), "utf8"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  const commits = git("rev-list", "--count", "HEAD");
  const commit = git("rev-parse", "--short=7", "HEAD");
  const dirty = git("status", "--porcelain", "--untracked-files=no") !== "" ? ".dirty" : "";
  return `${next}-dev.${commits}+g${commit}${dirty}`;
}

/**
 * The version in PEP 440's spelling, as Pulumi's Python SDK reads it back (`_utilities.get_version`):
 * `-alpha.N` `aN`, `-beta.N` `bN`, `-rc.N` `rcN`, `-dev.N` `.devN`; build metadata becomes the local
 * version (`+gabc1234`), which pip installs from a file and PyPI refuses, as a snapshot should be.
 */
export function pythonVersion(version: string): string {
  const { major, minor, patch, prerelease, build } = parseSemVer(version);
  let out = `${major}.${minor}.${patch}`;
  if (prerelease) {
    const match = /^(alpha|beta|rc|dev)\.(\d+)$/.exec(prerelease);
    if (!match) throw new Error(`'${version}': a pre-release must be alpha.N, beta.N, rc.N or dev.N for PEP 440`);
    out += { alpha: "a", beta: "b", rc: "rc", dev: ".dev" }[match[1]]! + match[2];
  }
  return build ? `${out}+${build}` : out;
}

/**
 * The Go module version: `v` and the version without its build metadata, which Go's module versions
 * cannot carry (a module proxy refuses `+…` but for `+incompatible`).
 */
export function goVersion(version: string): string {
  return `v${version.replace(/\+.*$/, "")}`;
}

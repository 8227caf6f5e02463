// A version's spelling in each registry's own scheme (semver for the plugin, npm and Maven; PEP 440
// for Python; Go's module versions), which the release writes and `import` writes into the projects
// it makes (docs/design/release.md, "Versions").

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

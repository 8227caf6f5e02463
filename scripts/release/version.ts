// The version a release carries, and its spelling in each registry's own scheme. A release of a
// version (`npm run release`) carries package.json's; a snapshot (`--snapshot`) carries
// `<next>-dev.<n>+g<commit>`, which no release in CHANGELOG.md can equal: <next> is the version
// the CHANGELOG's [Unreleased] section will be released as, <n> the commits on the branch, so that
// later snapshots sort after earlier ones (docs/design/release.md, "Versions").
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseSemVer } from "../../contract/versions";

export { goVersion, parseSemVer, pythonVersion, type SemVer } from "../../contract/versions";

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

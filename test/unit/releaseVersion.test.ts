// The version a snapshot release carries (scripts/release/version.ts), in each registry's spelling, and
// the plugin's refusal to run installed under another version (provider/native/installedVersion.ts).
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { wrongInstall } from "../../provider/native/installedVersion";
import {
  goVersion,
  nextVersion,
  parseSemVer,
  pythonVersion,
  releasedVersions,
  snapshotVersion,
} from "../../scripts/release/version";
import { releaseVersions } from "../../scripts/release/context";
import { releaseHeading } from "../../scripts/release";
import { REPO } from "../../harness/engine";

const CHANGELOG = "# Changelog\n\n## [Unreleased]\n\n- new\n\n## [0.5.0] - 2026-11-24\n\n## [0.4.0] - 2026-11-24\n";

/** A git repository with package.json at `version` and CHANGELOG, after `commits` commits. */
function repository(version: string, commits: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-version-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, stdio: "pipe" });
  git("init", "--quiet");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "p", version }));
  fs.writeFileSync(path.join(dir, "CHANGELOG.md"), CHANGELOG);
  git("add", ".");
  for (let i = 0; i < commits; i++) git("commit", "--quiet", "--allow-empty", "-m", `c${i}`);
  return dir;
}

describe("release versions", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  const repo = (version: string, commits: number) => {
    const dir = repository(version, commits);
    dirs.push(dir);
    return dir;
  };

  it("reads the released versions from CHANGELOG.md's headings, not [Unreleased]", () => {
    assert.deepEqual(releasedVersions(CHANGELOG), ["0.5.0", "0.4.0"]);
  });

  it("takes package.json's version as the next unless it is released, then the next minor", () => {
    assert.equal(nextVersion("0.5.0", CHANGELOG), "0.6.0");
    assert.equal(nextVersion("0.6.0", CHANGELOG), "0.6.0");
    assert.equal(nextVersion("1.0.0", CHANGELOG), "1.0.0");
  });

  it("names a snapshot <next>-dev.<commits>+g<commit>, .dirty with changes, and no release can equal it", () => {
    const dir = repo("0.5.0", 3);
    const commit = execFileSync("git", ["rev-parse", "--short=7", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();
    const version = snapshotVersion(dir);
    assert.equal(version, `0.6.0-dev.3+g${commit}`);
    assert.ok(!releasedVersions(CHANGELOG).includes(version));
    fs.writeFileSync(path.join(dir, "CHANGELOG.md"), CHANGELOG + "\n- more\n");
    assert.equal(snapshotVersion(dir), `0.6.0-dev.3+g${commit}.dirty`);
  });

  it("counts the commits, so that a later snapshot's pre-release sorts after an earlier one's", () => {
    const version = (commits: number) => parseSemVer(snapshotVersion(repo("0.6.0", commits))).prerelease;
    assert.equal(version(9), "dev.9");
    assert.equal(version(10), "dev.10");
  });

  it("gives this repository's snapshot a version its CHANGELOG does not list", () => {
    const version = snapshotVersion(REPO);
    assert.match(version, /^\d+\.\d+\.\d+-dev\.\d+\+g[0-9a-f]{7}(\.dirty)?$/);
    assert.ok(!releasedVersions(fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8")).includes(version));
  });

  it("spells a version for PEP 440, Go, Maven and npm", () => {
    assert.equal(pythonVersion("0.6.0-dev.363+ga3994d6"), "0.6.0.dev363+ga3994d6");
    assert.equal(pythonVersion("0.6.0-dev.363+ga3994d6.dirty"), "0.6.0.dev363+ga3994d6.dirty");
    assert.equal(pythonVersion("1.2.3-rc.1"), "1.2.3rc1");
    assert.equal(pythonVersion("1.2.3-alpha.2"), "1.2.3a2");
    assert.equal(pythonVersion("1.2.3"), "1.2.3");
    assert.equal(goVersion("0.6.0-dev.363+ga3994d6"), "v0.6.0-dev.363");
    assert.equal(goVersion("0.5.0"), "v0.5.0");
    assert.deepEqual(releaseVersions("0.6.0-dev.363+ga3994d6"), {
      version: "0.6.0-dev.363+ga3994d6",
      python: "0.6.0.dev363+ga3994d6",
      go: "v0.6.0-dev.363",
      maven: "0.6.0-dev.363+ga3994d6",
      npm: "0.6.0-dev.363+ga3994d6",
    });
  });

  it("heads a snapshot's CHANGELOG.md with its version and that it is not a release", () => {
    assert.equal(
      releaseHeading("0.6.0-dev.3+gabc1234", true),
      "## 0.6.0-dev.3+gabc1234 (a snapshot of the unreleased changes, not a release)",
    );
    assert.equal(releaseHeading("0.6.0", false), "## 0.6.0");
  });

  it("refuses what is not a semantic version, or a pre-release PEP 440 cannot spell, by name", () => {
    assert.throws(() => parseSemVer("0.6"), /'0\.6' is not a semantic version/);
    assert.throws(() => pythonVersion("1.0.0-preview.1"), /'1\.0\.0-preview\.1': a pre-release must be alpha\.N/);
  });
});

describe("the plugin installed under another version", () => {
  const home = "/home/u/.pulumi/plugins";

  it("names both versions and the install command for its own archive", () => {
    const message = wrongInstall(
      "0.6.0-dev.3+gabc1234",
      [`${home}/resource-integration-platform-v0.5.0/pulumi-resource-integration-platform`],
      "darwin",
      "arm64",
    );
    assert.match(
      message ?? "",
      /this plugin is version 0\.6\.0-dev\.3\+gabc1234, but it is installed as version 0\.5\.0 /,
    );
    assert.match(
      message ?? "",
      / pulumi plugin install resource integration-platform 0\.6\.0-dev\.3\+gabc1234 --file pulumi-resource-integration-platform-v0\.6\.0-dev\.3\+gabc1234-darwin-arm64\.tar\.gz\n/,
    );
    assert.match(
      wrongInstall("0.5.0", ["/p/resource-integration-platform-v0.4.0/x.exe"], "win32", "x64") ?? "",
      /--file pulumi-resource-integration-platform-v0\.5\.0-windows-amd64\.tar\.gz/,
    );
  });

  it("says nothing installed under its own version, from a checkout's bin/, or from node's own folder", () => {
    const own = `${home}/resource-integration-platform-v0.6.0-dev.3+gabc1234/pulumi-resource-integration-platform`;
    assert.equal(wrongInstall("0.6.0-dev.3+gabc1234", [own]), undefined);
    assert.equal(
      wrongInstall("0.6.0", ["/usr/local/bin/node", path.join(REPO, "bin", "pulumi-resource-integration-platform")]),
      undefined,
    );
    assert.equal(wrongInstall("0.6.0", [undefined, "/opt/resource-integration-platform/main.js"]), undefined);
  });
});

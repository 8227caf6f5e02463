// The release's Go module proxy tree (goproxy/ and goproxy.tar.gz, docs/design/release.md "Go from the release"), checked
// as the go command takes it: `go mod download` from the folder alone accepts both modules at the release's Go version,
// their files are the module folders' with the repository's LICENSE, and each zip's h1: hash is the one the go command
// computes from the module's tag (`sdk/go/v<version>`), so that a go.sum written from the folder still holds once the
// tag is on proxy.golang.org. The program that installs from the tree is go.test.ts.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "../../../harness/engine";
import { LANGUAGES } from "../../../harness/languages";
import { GO_SDK_MODULE, GOPROXY_ARCHIVE, GOPROXY_DIR, goProxyVersions } from "../../../scripts/release/goproxy";
import { goVersion } from "../../../scripts/release/version";
import { releaseFolder, releaseVersions } from "../../support/release";

/** The release's Go modules, each with its folder in this repository. */
const MODULES = [
  { path: GO_SDK_MODULE, dir: "sdk/go" },
  { path: GO_SDK_MODULE.replace(/\/sdk\/go$/, "/webhooks/go"), dir: "webhooks/go" },
];

/** What `go mod download -json` reports of a module. */
interface Downloaded {
  Path: string;
  Version: string;
  Error?: string;
  Dir: string;
  Sum: string;
  GoModSum: string;
}

/** Every file under `dir`, as sorted slash paths relative to it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .map((name) => name.split(path.sep).join("/"))
    .sort();
}

describe(`e2e: the release's Go module proxy tree ${LANGUAGES}`, function () {
  this.timeout(20 * 60_000);
  let scratch: string;
  let tree: string;
  let version: string;
  const downloads: Record<string, Downloaded> = {};
  before(() => {
    tree = path.join(releaseFolder(), GOPROXY_DIR);
    version = goVersion(releaseVersions().version);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-goproxy-"));
  });
  after(() => {
    // The module cache is read-only but for its owner's `chmod`.
    if (scratch) execFileSync("chmod", ["-R", "u+w", scratch]);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** `go mod download -json` of one module into a module cache of its own, with `env` (GOPROXY and the rest). */
  const download = (module: string, cache: string, env: Record<string, string>): Downloaded => {
    const out = execFileSync("go", ["mod", "download", "-json", `${module}@${version}`], {
      cwd: scratch, // outside any module
      env: {
        ...process.env,
        GOMODCACHE: path.join(scratch, cache),
        GONOSUMDB: "github.com/pulumi-integration-platform/*",
        GOFLAGS: "-modcacherw",
        ...env,
      },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return JSON.parse(out) as Downloaded;
  };
  /** A module as `go mod download` takes it from the release folder alone (once). */
  const fromFolder = (module: string): Downloaded =>
    (downloads[module] ??= download(module, "from-folder", { GOPROXY: `file://${tree}` }));

  it("holds both modules at the release's Go version: list, .info with the commit's time, .mod as each go.mod", () => {
    const commitTime = new Date(
      execFileSync("git", ["log", "-1", "--format=%cI", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim(),
    );
    for (const module of MODULES) {
      assert.deepEqual(goProxyVersions(releaseFolder(), module.path), [version]);
      const at = path.join(tree, module.path, "@v");
      assert.deepEqual(fs.readdirSync(at).sort(), ["list", `${version}.info`, `${version}.mod`, `${version}.zip`]);
      const info = JSON.parse(fs.readFileSync(path.join(at, `${version}.info`), "utf8")) as {
        Version: string;
        Time: string;
      };
      assert.equal(info.Version, version);
      assert.equal(new Date(info.Time).getTime(), commitTime.getTime());
      assert.equal(
        fs.readFileSync(path.join(at, `${version}.mod`), "utf8"),
        fs.readFileSync(path.join(REPO, module.dir, "go.mod"), "utf8"),
      );
    }
  });

  it("go mod download accepts it from the folder alone: each module's files are its folder's, with the repository's LICENSE", () => {
    for (const module of MODULES) {
      const got = fromFolder(module.path);
      assert.equal(got.Error, undefined, got.Error);
      assert.equal(got.Version, version);
      assert.match(got.Sum, /^h1:/);
      // The files git holds in the module's folder (a clean checkout's, as the release workflow builds from).
      const committed = execFileSync("git", ["ls-files", "--", "."], {
        cwd: path.join(REPO, module.dir),
        encoding: "utf8",
      })
        .trim()
        .split("\n");
      // A module folder without a LICENSE of its own gets the repository's, as the go command zips a tag.
      assert.deepEqual(filesUnder(got.Dir), [...new Set([...committed, "LICENSE"])].sort());
      assert.equal(
        fs.readFileSync(path.join(got.Dir, "LICENSE"), "utf8"),
        fs.readFileSync(path.join(REPO, "LICENSE"), "utf8"),
      );
    }
  });

  it("each zip is the one the go command makes from the module's tag: the same h1: as `go mod download` of a git tag", () => {
    // A repository as the tag would hold it: the repository's LICENSE at its root, each module's files in its folder.
    const repo = path.join(scratch, "repo");
    fs.mkdirSync(repo);
    fs.copyFileSync(path.join(REPO, "LICENSE"), path.join(repo, "LICENSE"));
    for (const module of MODULES) {
      const got = fromFolder(module.path);
      assert.equal(got.Error, undefined, got.Error);
      // The LICENSE the folder added stays out (the tag's zip adds it again); a module's own stays in.
      const own = fs.existsSync(path.join(REPO, module.dir, "LICENSE"));
      fs.cpSync(got.Dir, path.join(repo, module.dir), {
        recursive: true,
        filter: (src) => own || src !== path.join(got.Dir, "LICENSE"),
      });
    }
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=release", "-c", "user.email=release@localhost", ...args], { cwd: repo });
    git("init", "--quiet");
    git("add", "--all");
    git("commit", "--quiet", "--message", "the release's modules");
    for (const module of MODULES) git("tag", `${module.dir}/${version}`);
    // The go command fetches github.com modules with git; the URL is pointed at the local repository.
    const config = path.join(scratch, "gitconfig");
    fs.writeFileSync(
      config,
      `[url "file://${repo}"]\n\tinsteadOf = https://${GO_SDK_MODULE.replace(/\/sdk\/go$/, "")}\n`,
    );
    for (const module of MODULES) {
      const fromTag = download(module.path, "from-tag", {
        GOPROXY: "direct",
        GIT_CONFIG_GLOBAL: config,
        GIT_TERMINAL_PROMPT: "0",
      });
      assert.equal(fromTag.Error, undefined, fromTag.Error);
      assert.equal(fromTag.Sum, downloads[module.path].Sum, `${module.path}: the tag's zip hash`);
      assert.equal(fromTag.GoModSum, downloads[module.path].GoModSum);
    }
  });

  it(`${GOPROXY_ARCHIVE} holds the tree, for the GitHub release (whose assets are single files)`, () => {
    const unpacked = path.join(scratch, "unpacked");
    fs.mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", path.join(releaseFolder(), GOPROXY_ARCHIVE), "-C", unpacked]);
    assert.deepEqual(fs.readdirSync(unpacked), [GOPROXY_DIR]);
    const files = filesUnder(tree);
    assert.deepEqual(filesUnder(path.join(unpacked, GOPROXY_DIR)), files);
    for (const name of files)
      assert.ok(
        fs.readFileSync(path.join(unpacked, GOPROXY_DIR, name)).equals(fs.readFileSync(path.join(tree, name))),
        `${name} is the tree's`,
      );
  });
});

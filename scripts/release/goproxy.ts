// The Go modules of a release as a Go module proxy tree (docs/design/release.md, "Go from the release"): the SDK and
// the webhook check, each at the release's Go version, written by tools/goproxy (golang.org/x/mod's module zip, as
// the go command makes it from a tag) into `<out>/goproxy/`, so that `GOPROXY=file://<out>/goproxy` or any static
// server of the folder installs them before and without the `sdk/go/v<version>` tag; and the same tree as one
// archive, `goproxy.tar.gz`, for the GitHub release, whose assets are single files.
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { ensureTool, REPO } from "../../harness/tools";
import { goVersion } from "./version";

const execFileAsync = promisify(execFile);

/** The proxy tree's folder in the release folder. */
export const GOPROXY_DIR = "goproxy";

/** The proxy tree as one archive in the release folder (`tar -xzf` gives `goproxy/`). */
export const GOPROXY_ARCHIVE = "goproxy.tar.gz";

/** The Go SDK's module path (sdk/go/go.mod), which a Go program requires. */
export const GO_SDK_MODULE = "github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go";

/** The folders of the Go modules a release serves: the SDK (in the SDK folder it builds from) and webhooks/go. */
export function goModuleDirs(sdkDir: string): string[] {
  return [path.join(sdkDir, "go"), path.join(REPO, "webhooks", "go")];
}

/** The time of the commit the release is made from, in RFC 3339, which each version's `.info` carries. */
function commitTime(repo: string): string {
  return execFileSync("git", ["log", "-1", "--format=%cI", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
}

/**
 * Writes `<out>/goproxy/<escaped module path>/@v/{list, <v>.info, <v>.mod, <v>.zip}` for each module of
 * `goModuleDirs(sdkDir)` at `goVersion(version)`, and `<out>/goproxy.tar.gz` of that tree; returns the `@v` folders.
 */
export async function goProxy(sdkDir: string, version: string, out: string): Promise<string[]> {
  const writer = ensureTool("ensure-goproxy.sh");
  const tree = path.join(out, GOPROXY_DIR);
  const time = commitTime(REPO);
  const written: string[] = [];
  for (const dir of goModuleDirs(sdkDir)) {
    const { stdout } = await execFileAsync(writer, [
      "-dir",
      dir,
      // As the go command does for a module in a repository's subfolder: the zip is then the tag's, byte for byte.
      "-license",
      path.join(REPO, "LICENSE"),
      "-version",
      goVersion(version),
      "-time",
      time,
      "-out",
      tree,
    ]);
    written.push(stdout.trim());
  }
  // Owner, times and order fixed, as the executables' archives: the same tree gives the same bytes.
  const fixed = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0", "--use-compress-program=gzip -n"];
  await execFileAsync("tar", [...fixed, "-cf", path.join(out, GOPROXY_ARCHIVE), "-C", out, GOPROXY_DIR]);
  return written;
}

/** The versions the proxy tree in a release folder holds for a module (its `@v/list`), oldest first. */
export function goProxyVersions(releaseDir: string, module = GO_SDK_MODULE): string[] {
  // Module paths are escaped (`!x` for an upper-case X) in a proxy's URLs; ours are lower-case.
  const list = path.join(releaseDir, GOPROXY_DIR, module, "@v", "list");
  if (!fs.existsSync(list)) throw new Error(`${list} is missing: the release was made without its 'go' part`);
  return fs.readFileSync(list, "utf8").trim().split("\n");
}

// The native provider from Go, installed as a new Go team does it from the release folder alone, before the SDK's tag
// exists: no clone, no `replace`. The example's copy drops its `replace` and placeholder requirement with the command
// its README gives (nothing in the module cache may stand in for them: CI empties it of our modules first). `go get` takes the SDK at the release's Go version from the folder's module proxy tree
// (GOPROXY=file://…/goproxy, docs/design/release.md), and the program's first `pulumi preview` installs the plugin by
// itself from a mirror of the release (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), with no Node.js on the CLI's PATH. Then
// the quickstart's resources walk their whole life through the real CLI, against the emulator at its default rate
// limit (the walk is harness/native.ts).
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { archiveName } from "../../../scripts/release/executables";
import { GO_SDK_MODULE, GOPROXY_DIR } from "../../../scripts/release/goproxy";
import { engineBinDir, REPO, Stack } from "../../../harness/engine";
import { step, useEmulatorStack } from "../../../harness/e2e";
import { copyNativeExample, LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { nativeSecrets, walkNativeStack } from "../../../harness/native";
import {
  forgetGoModule,
  goEnv,
  pathWithoutNode,
  releaseFolder,
  releaseGoEnv,
  releaseGoVersion,
  startMirror,
  releaseVersions,
  type ReleaseMirror,
} from "../../support/release";

/**
 * The `go mod edit` command examples/native/go/README.md gives a copy of the example, as the go command's arguments,
 * with the release's `version` where it names one (`-require=<module>@v0.6.0`).
 */
function readmeGoModEdit(version: string): string[] {
  const readme = fs.readFileSync(path.join(REPO, "examples", "native", "go", "README.md"), "utf8");
  const commands = readme.split("\n").filter((line) => line.startsWith("go mod edit "));
  assert.equal(commands.length, 1, "examples/native/go/README.md gives one `go mod edit` command");
  const required = `-require=${GO_SDK_MODULE}@`;
  assert.ok(commands[0].includes(required), `the README's command requires a release: ${commands[0]}`);
  return commands[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((arg) => (arg.startsWith(required) ? `${required}${version}` : arg));
}

describe(`e2e: the native provider from Go (the SDK from the release's module proxy, the plugin from its mirror) ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  const secrets = nativeSecrets();
  let mirror: ReleaseMirror;
  let version: string;
  let program: string;
  const goRun = (args: string[]) =>
    execFileSync("go", args, {
      cwd: program,
      env: { ...process.env, ...releaseGoEnv() },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 10 * 60_000,
    });
  // Made (or found) before the emulator starts: the first run on a machine takes minutes.
  before(async () => {
    releaseFolder();
    version = releaseGoVersion();
    // An earlier run may have left this version in the module cache: `go get` must fetch it from the folder.
    forgetGoModule(GO_SDK_MODULE, version);
    mirror = await startMirror();
  });
  after(async () => mirror?.close());
  const e2e = useEmulatorStack(
    (workspace) => {
      program = copyNativeExample("go", workspace.root);
      // What the team types: the README's edit of the copy, then `go get` with the release folder's proxy first and
      // our modules kept from the checksum database.
      goRun(readmeGoModEdit(version));
      goRun(["get", `${GO_SDK_MODULE}@${version}`]);
      return new Stack(workspace, program, "dev", {
        PATH: pathWithoutNode(engineBinDir(), languageHostsDir(), path.join(goEnv("GOROOT"), "bin")),
        ...releaseGoEnv(),
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: undefined,
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: mirror.override,
      });
    },
    { emulator: { apiKey: secrets.apiKey }, secrets: { crmToken: secrets.crmToken, accountQuota: secrets.quota } },
  );

  it("go get takes the SDK from the release folder: the release's version, no replace, the release's very zip", () => {
    const gomod = fs.readFileSync(path.join(program, "go.mod"), "utf8");
    assert.doesNotMatch(gomod, /^replace /m, "the program replaces nothing");
    assert.match(gomod, new RegExp(`^\\s*${GO_SDK_MODULE.replace(/[.]/g, "\\.")} ${version}$`, "m"));
    const listed = JSON.parse(goRun(["list", "-m", "-json", GO_SDK_MODULE])) as {
      Version: string;
      Dir: string;
      Replace?: unknown;
      GoModSum?: string;
    };
    assert.equal(listed.Version, version);
    assert.equal(listed.Replace, undefined);
    assert.ok(listed.Dir.startsWith(goEnv("GOMODCACHE")), `${listed.Dir} is in the module cache`);
    // The go command keeps the zip it downloaded: the one in the release folder, byte for byte.
    const zip = `${GO_SDK_MODULE}/@v/${version}.zip`;
    assert.ok(
      fs
        .readFileSync(path.join(goEnv("GOMODCACHE"), "cache", "download", zip))
        .equals(fs.readFileSync(path.join(releaseFolder(), GOPROXY_DIR, zip))),
      "the module cache holds the release's zip",
    );
    assert.match(
      fs.readFileSync(path.join(program, "go.sum"), "utf8"),
      new RegExp(`^${GO_SDK_MODULE.replace(/[.]/g, "\\.")} ${version} h1:`, "m"),
    );
  });

  it("installs the plugin from the mirror, validates at preview, creates, previews no change with no call, finds drift, imports with no write, and destroys back to the fixture", async () => {
    const plugins = path.join(e2e.workspace.root, "home", "plugins");
    const installed = () =>
      fs.existsSync(plugins) &&
      fs.readdirSync(plugins).some((name) => name.startsWith("resource-integration-platform"));
    await step("0. no plugin is installed, and none is on PATH", async () => assert.ok(!installed()));
    await walkNativeStack(e2e, secrets);
    await step("after: the CLI fetched the linux-amd64 archive from the mirror once, and installed it", async () => {
      const { version } = releaseVersions();
      assert.deepEqual(mirror.asked, [`/v${version}/${archiveName(version, "linux-amd64")}`]);
      assert.ok(
        fs.existsSync(
          path.join(plugins, `resource-integration-platform-v${version}`, "pulumi-resource-integration-platform"),
        ),
      );
    });
  });
});

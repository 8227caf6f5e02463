// The check that runs after publishing (scripts/verify-release.ts, .github/workflows/verify-release.yml),
// run here against this checkout's release folder served on 127.0.0.1 as a registry would serve it:
// for each language, the SDK installed as its users install it (pip, npm, the Go module proxy,
// Maven), the plugin downloaded by the Pulumi CLI, and a preview against the release's own emulator.
// The server's log shows that each of our packages came from the folder, and nowhere else.
import * as assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import * as path from "node:path";
import { engineBinDir, REPO } from "../../../harness/engine";
import { LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { SDK_NAMES } from "../../../provider/native/schema";
import { serveFolder, type StaticServer } from "../../../scripts/lib/staticServer";
import { archiveName } from "../../../scripts/release/executables";
import {
  CREATE_LINE,
  escapeModulePath,
  GO_MODULE,
  VERIFY_LANGUAGES,
  type ReleaseVersions,
  type VerifyLanguage,
} from "../../../scripts/verify-release";
import { releaseFolder, releaseVersions } from "../../support/release";

/** This machine's Go module cache's download tree, which `go` serves from as a `file://` proxy. */
function goModuleDownloads(): string {
  return path.join(execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim(), "cache", "download");
}

/** The driver's report of one language: its heading's verdict and the lines under it. */
function section(output: string, language: VerifyLanguage): { verdict: string; body: string } {
  const match = new RegExp(`^== ${language}: (pass|FAIL) .*\\n((?:  .*\\n?)*)`, "m").exec(output);
  assert.ok(match, `the report has a section for ${language}:\n${output}`);
  return { verdict: match[1], body: match[2] };
}

describe(`e2e: the published release checked as users install it, in every language ${LANGUAGES}`, function () {
  this.timeout(30 * 60_000);
  let server: StaticServer;
  let versions: ReleaseVersions;
  let report: { code: number | null; output: string; seconds: number };
  /** The paths fetched (GET) from the folder and answered. */
  const fetched = () => server.requests.filter((r) => r.method === "GET" && r.status === 200).map((r) => r.path);

  before(async () => {
    const folder = releaseFolder();
    versions = releaseVersions();
    server = await serveFolder(folder);
    const hosts = languageHostsDir();
    const started = Date.now();
    // The driver as a person runs it; not a synchronous call: this process serves the folder meanwhile.
    // All languages at once, with one emulator: each waits mostly on its package manager.
    const child = spawn(
      process.execPath,
      [
        "-r",
        "ts-node/register/transpile-only",
        path.join(REPO, "scripts", "verify-release.ts"),
        "--from",
        server.url,
        "--jobs",
        String(VERIFY_LANGUAGES.length),
      ],
      {
        cwd: REPO,
        env: {
          ...process.env,
          PATH: [engineBinDir(), hosts, process.env.PATH].join(path.delimiter),
          // The modules the other Go suites fetched, read from this machine's module cache (a proxy
          // tree itself) before the public proxy: the driver's own cache starts empty on a fresh machine.
          GOPROXY: process.env.GOPROXY ?? `file://${goModuleDownloads()},https://proxy.golang.org`,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    report = { code, output, seconds: (Date.now() - started) / 1000 };
    // Each language's verdict and time, for the run's log.
    const verdicts = output.split("\n").filter((line) => line.startsWith("== "));
    process.stderr.write(`verify-release took ${report.seconds.toFixed(0)} s\n${verdicts.join("\n")}\n`);
  });
  after(async () => server?.close());

  /** What each language's SDK is, in the folder, as its package manager asks for it. */
  const sdkFiles: Record<Exclude<VerifyLanguage, "yaml">, () => string[]> = {
    python: () => [`/${SDK_NAMES.python}-${versions.python}-py3-none-any.whl`],
    typescript: () => [`/${SDK_NAMES.nodejs}-${versions.npm}.tgz`],
    go: () => {
      const at = `/goproxy/${escapeModulePath(GO_MODULE)}/@v/${versions.go}`;
      return [`${at}.mod`, `${at}.zip`];
    },
    java: () => {
      const [group, artifact] = SDK_NAMES.java.split(":");
      const at = `/maven/${group.replace(/\./g, "/")}/${artifact}/${versions.maven}/${artifact}-${versions.maven}`;
      return [`${at}.pom`, `${at}.jar`];
    },
  };

  for (const language of VERIFY_LANGUAGES) {
    it(`${language}: the SDK from the folder, the plugin downloaded by the CLI, a preview that would create the WorkflowToggle`, () => {
      const { verdict, body } = section(report.output, language);
      assert.equal(verdict, "pass", body);
      assert.match(body, CREATE_LINE, "the preview would create the resource");
      assert.match(body, /\+ 2 to create/, "the stack and the WorkflowToggle, nothing else");
      assert.ok(
        body.includes(
          `installed: plugin integration-platform ${versions.version} (downloaded by the CLI from ${server.url})`,
        ),
        body,
      );
      if (language === "yaml") assert.match(body, /installed: no SDK/);
      else
        for (const file of sdkFiles[language]())
          assert.ok(fetched().includes(file), `${file} was fetched from the folder`);
    });
  }

  it("fetches the plugin's archive once per language, the emulator's once, and the driver exits 0 saying all passed", () => {
    const plugin = `/${archiveName(versions.version, "linux-amd64")}`;
    assert.equal(fetched().filter((p) => p === plugin).length, VERIFY_LANGUAGES.length, fetched().join("\n"));
    const emulator = `/${archiveName(versions.version, "linux-amd64", "emulator")}`;
    assert.equal(fetched().filter((p) => p === emulator).length, 1);
    assert.match(
      report.output,
      new RegExp(`verify-release: ${VERIFY_LANGUAGES.length} of ${VERIFY_LANGUAGES.length} passed\\n`),
    );
    assert.equal(report.code, 0, report.output);
  });
});

// The check after publishing, its parts that need no registry: the folder server the local check
// installs from (nothing outside the folder, names with `+`, the page pip reads), where each
// package is looked for in the registries, and the workflow that runs the check on a release.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { REPO } from "../../harness/engine";
import { serveFolder, type StaticServer } from "../../scripts/lib/staticServer";
import { artifactUrls, escapeModulePath, VERIFY_LANGUAGES, versionsOf } from "../../scripts/verify-release";

/** A GET (or another method) with the path sent as written: fetch() would resolve `..` before sending. */
function raw(url: string, rawPath: string, method = "GET"): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: rawPath, method }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("verify-release: the folder server", () => {
  let parent: string;
  let server: StaticServer;
  const wheel = "pulumi_integration_platform-0.6.0.dev3+gabc1234-py3-none-any.whl";
  before(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "verify-server-"));
    fs.writeFileSync(path.join(parent, "secret.txt"), "outside the folder");
    const root = path.join(parent, "release");
    fs.mkdirSync(path.join(root, "goproxy", "example.com", "@v"), { recursive: true });
    fs.writeFileSync(path.join(root, wheel), "wheel bytes");
    fs.writeFileSync(path.join(root, "goproxy", "example.com", "@v", "list"), "v0.6.0-dev.3\n");
    fs.symlinkSync(path.join(parent, "secret.txt"), path.join(root, "link-out"));
    server = await serveFolder(root);
  });
  after(async () => {
    await server.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it("serves a file whose name has '+', asked with '+' or with %2B", async () => {
    for (const asked of [wheel, encodeURIComponent(wheel)]) {
      const answer = await raw(server.url, `/${asked}`);
      assert.equal(answer.status, 200, asked);
      assert.equal(answer.body, "wheel bytes");
    }
  });

  it("refuses every way out of the folder: '..' plain or escaped, an escaped slash, a link leading out", async () => {
    // `..` plain or as %2e%2e is resolved against the folder's root (a URL's rule): nothing there.
    for (const asked of ["/../secret.txt", "/%2e%2e/secret.txt", "/goproxy/../../secret.txt"]) {
      const answer = await raw(server.url, asked);
      assert.equal(answer.status, 404, asked);
    }
    // A slash or a backslash escaped inside one name, or a link out, is refused.
    for (const asked of ["/..%2Fsecret.txt", "/goproxy/..%5C..%5Csecret.txt", "/link-out"]) {
      const answer = await raw(server.url, asked);
      assert.equal(answer.status, 403, asked);
      assert.ok(!answer.body.includes("outside the folder"), asked);
    }
  });

  it("answers a folder with the page of links pip's --find-links reads, '+' escaped in the links", async () => {
    const page = await raw(server.url, "/");
    assert.equal(page.status, 200);
    assert.ok(page.body.includes(`<a href="${encodeURIComponent(wheel)}">${wheel}</a>`), page.body);
    assert.ok(page.body.includes('<a href="goproxy/">goproxy/</a>'));
    assert.equal((await raw(server.url, "/goproxy")).status, 301, "a folder without its slash is redirected");
    assert.equal((await raw(server.url, "/goproxy/example.com/@v/list")).body, "v0.6.0-dev.3\n");
  });

  it("answers 404 for a missing file, 405 for a write, and records every request", async () => {
    server.requests.length = 0;
    assert.equal((await raw(server.url, "/missing.tgz")).status, 404);
    assert.equal((await raw(server.url, `/${wheel}`, "POST")).status, 405);
    assert.equal((await raw(server.url, `/${encodeURIComponent(wheel)}`, "HEAD")).status, 200);
    assert.deepEqual(server.requests, [
      { method: "GET", path: "/missing.tgz", status: 404 },
      { method: "POST", path: `/${wheel}`, status: 405 },
      { method: "HEAD", path: `/${wheel}`, status: 200 },
    ]);
  });

  it("leaves no file open after a HEAD, whose stream nobody reads (Linux: /proc/self/fd)", async () => {
    /** This process's descriptors open on the wheel. */
    const onWheel = () =>
      fs.readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).endsWith(wheel);
        } catch {
          return false; // closed while listed
        }
      });
    assert.equal((await raw(server.url, `/${encodeURIComponent(wheel)}`, "HEAD")).status, 200);
    // A stream made for the HEAD would open the file a moment later and keep it open: with the
    // folder removed first, that open failed as an uncaught ENOENT.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(onWheel(), [], "no descriptor left open on the wheel");
  });

  it("refuses to serve what is not a folder, naming it", async () => {
    await assert.rejects(serveFolder(path.join(parent, "secret.txt")), /secret\.txt is not a folder/);
  });
});

describe("verify-release: where each package is looked for", () => {
  it("asks each registry for the version in its own spelling", () => {
    const urls = artifactUrls({ kind: "registries" }, versionsOf("0.6.0-rc.1"), "darwin-arm64");
    assert.equal(urls.python, "https://pypi.org/pypi/pulumi_integration_platform/0.6.0rc1/json");
    assert.equal(urls.typescript, "https://registry.npmjs.org/pulumi-integration-platform-sdk/0.6.0-rc.1");
    assert.equal(
      urls.go,
      "https://proxy.golang.org/github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go/@v/v0.6.0-rc.1.info",
    );
    assert.equal(
      urls.java,
      "https://repo1.maven.org/maven2/io/github/pulumi-integration-platform/integration-platform/0.6.0-rc.1/integration-platform-0.6.0-rc.1.pom",
    );
    assert.equal(
      urls.plugin,
      "https://github.com/pulumi-integration-platform/pulumi-integration-platform/releases/download/v0.6.0-rc.1/pulumi-resource-integration-platform-v0.6.0-rc.1-darwin-arm64.tar.gz",
    );
  });

  it("asks a release folder for a snapshot's files, '+' escaped, Go's @v as it is", () => {
    const urls = artifactUrls(
      { kind: "http", url: "http://127.0.0.1:9/" },
      versionsOf("0.6.0-dev.3+gabc1234"),
      "linux-amd64",
    );
    assert.equal(urls.python, "http://127.0.0.1:9/pulumi_integration_platform-0.6.0.dev3%2Bgabc1234-py3-none-any.whl");
    assert.equal(
      urls.go,
      "http://127.0.0.1:9/goproxy/github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go/@v/v0.6.0-dev.3.info",
    );
    assert.equal(
      urls.emulator,
      "http://127.0.0.1:9/pulumi-integration-platform-emulator-v0.6.0-dev.3%2Bgabc1234-linux-amd64.tar.gz",
    );
  });

  it("escapes a module path's capitals as the module proxy protocol says", () => {
    assert.equal(escapeModulePath("github.com/BurntSushi/toml"), "github.com/!burnt!sushi/toml");
  });
});

describe("verify-release: the workflow", () => {
  const workflow = parse(fs.readFileSync(path.join(REPO, ".github", "workflows", "verify-release.yml"), "utf8"));
  const job = workflow.jobs.verify;
  const run = job.steps.find((s: { run?: string }) => s.run?.includes("scripts/verify-release.ts"));

  it("runs on a published release and by hand with a version", () => {
    assert.deepEqual(workflow.on.release, { types: ["published"] });
    assert.equal(workflow.on.workflow_dispatch.inputs.version.required, true);
  });

  it("checks every language on Linux, macOS and Windows, each job on its own, from the registries", () => {
    assert.deepEqual(job.strategy.matrix.os, ["ubuntu-latest", "macos-latest", "windows-latest"]);
    assert.deepEqual(job.strategy.matrix.language, [...VERIFY_LANGUAGES]);
    assert.equal(job.strategy["fail-fast"], false);
    assert.match(run.run, /--from registries --version "\$version" --languages "\$LANGUAGE"/);
    assert.equal(job.defaults.run.shell, "bash", "one shell on every runner, Windows included");
  });

  it("gives the CLI a token for the plugin's download, and installs each language's toolchain for its jobs", () => {
    assert.equal(run.env.GITHUB_TOKEN, "${{ github.token }}");
    const uses = (action: string) => job.steps.find((s: { uses?: string }) => s.uses?.startsWith(action));
    assert.ok(uses("pulumi/actions@"));
    assert.equal(uses("actions/setup-python@").if, "matrix.language == 'python'");
    assert.equal(uses("actions/setup-go@").if, "matrix.language == 'go'");
    assert.equal(uses("actions/setup-java@").if, "matrix.language == 'java'");
  });
});

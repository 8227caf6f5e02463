// The sharding helpers of the Python, Go and Java SDKs (sdk-overlays/, copied into sdk/ by
// scripts/gen-sdk.sh), each through its own runner against contract/shardVectors.json, the
// TypeScript shardOf's answers: pytest on the SDK installed in a virtualenv, go test in a copy of
// sdk/go, Maven against the SDK's jar in the tests' local repository. A vector file with one shard
// changed must fail each of them, which shows that they read it. Without python3, go or mvn the
// tests fail: they never skip.
import { after, before, describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LANGUAGES, MAVEN_REPOSITORY, pythonBin } from "../../harness/languages";
import { DEFAULT_SHARD_VECTORS_FILE, type ShardVector } from "../../scripts/record-shard-vectors";

const REPO = path.resolve(__dirname, "../..");

/** A hash of a directory's files (names and contents), to name what is built from it. */
function hashOf(dir: string): string {
  const hash = createHash("sha256");
  for (const file of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const full = path.join(dir, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 12);
}

/** What a finished command left: its exit code and everything it printed. */
interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command to its end; rejects, naming the command, when it is not on PATH. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error(`${command} is not on PATH: the SDKs' sharding tests need it (${error.message})`)
          : error,
      ),
    );
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe(`the SDKs' sharding helpers in Python, Go and Java, on the TypeScript shardOf's vectors ${LANGUAGES}`, function () {
  // A first run builds the virtualenv and the Java SDK's jar, and fetches Go modules.
  this.timeout(15 * 60_000);
  let dir: string;
  let vectors: string;
  let forged: string;
  /** The vector the forged file changes, to find in each runner's failure. */
  let changed: ShardVector;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-sdk-sharding-"));
    // A copy, so that the runners read the file this suite names, not the checkout's by a relative path.
    vectors = path.join(dir, "shardVectors.json");
    fs.copyFileSync(DEFAULT_SHARD_VECTORS_FILE, vectors);
    const all = JSON.parse(fs.readFileSync(vectors, "utf8")) as ShardVector[];
    const index = all.findIndex((v) => v.shards === 10 && v.linkedAccountId === "globex");
    changed = all[index];
    all[index] = { ...changed, shard: (changed.shard + 1) % 10 };
    forged = path.join(dir, "forged.json");
    fs.writeFileSync(forged, JSON.stringify(all, null, 2));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  describe("Python: pytest of pulumi_integration_platform.sharding, installed from sdk/python", () => {
    let sitePackages: string;
    before(() => {
      const python = path.join(pythonBin(), "python");
      sitePackages = execFileSync(python, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], {
        encoding: "utf8",
      }).trim();
    });
    // The machine's pytest, on the SDK's virtualenv's packages: the SDK as pip installed it, with no test tool in it.
    const pytest = (file: string) =>
      run(
        "python3",
        ["-m", "pytest", "-p", "no:cacheprovider", "-q", path.join(REPO, "sdk-overlays", "tests", "python")],
        dir,
        { SHARD_VECTORS: file, PYTHONPATH: sitePackages, PYTHONDONTWRITEBYTECODE: "1" },
      );

    it("passes on the vectors", async () => {
      const { code, output } = await pytest(vectors);
      assert.equal(code, 0, output);
      const passed = /^(\d+) passed in [\d.]+s$/m.exec(output);
      assert.ok(passed && Number(passed[1]) >= 80, `pytest ran fewer tests than there are:\n${output}`);
      // The module it tested is the installed one, not the overlay's source.
      assert.ok(fs.existsSync(path.join(sitePackages, "pulumi_integration_platform", "sharding.py")));
    });

    it("fails on a vector changed by one shard", async () => {
      const { code, output } = await pytest(forged);
      assert.equal(code, 1, output);
      // The changed vector's own case, and in_this_shard's at 10 shards, which reads it too.
      assert.match(output, /^2 failed, \d+ passed/m);
      assert.match(output, /FAILED .*test_shard_of_agrees_with_the_typescript\[.globex.\/10\]/);
    });
  });

  describe("Go: go test of sdk/go/integrationplatform", () => {
    let module: string;
    before(() => {
      // A copy: `-mod=mod` writes go.mod and go.sum beside the sources, and sdk/ stays as generated.
      module = path.join(dir, "go");
      fs.cpSync(path.join(REPO, "sdk", "go"), module, { recursive: true });
    });
    // -count=1: a result from Go's test cache would show nothing about this file.
    const goTest = (file: string) =>
      run("go", ["test", "-count=1", "-v", "-run", "Shard", "./integrationplatform/"], module, {
        SHARD_VECTORS: file,
        GOFLAGS: "-mod=mod",
        GOTOOLCHAIN: "local",
      });

    it("passes on the vectors", async () => {
      const { code, output } = await goTest(vectors);
      assert.equal(code, 0, output);
      assert.match(
        output,
        /^ok\s+github\.com\/pulumi-integration-platform\/pulumi-integration-platform\/sdk\/go\/integrationplatform\s/m,
      );
      assert.ok(
        (output.match(/^--- PASS: /gm) ?? []).length >= 7,
        `go test ran fewer tests than there are:\n${output}`,
      );
    });

    it("fails on a vector changed by one shard", async () => {
      const { code, output } = await goTest(forged);
      assert.equal(code, 1, output);
      assert.match(output, /^--- FAIL: TestShardOfAgreesWithEveryVector/m);
      assert.match(output, /^--- FAIL: TestInThisShardKeepsTheShardsItemsInTheirOrder/m);
      assert.match(output, new RegExp(`ShardOf\\("globex", 10\\) = ${changed.shard}, <nil>; the TypeScript says`));
    });
  });

  describe("Java: mvn test against the SDK's jar", () => {
    let project: string;
    let version: string;
    before(() => {
      // The SDK built from a copy of sdk/java under a version of its own, the hash of its files: the
      // tests' local repository is the machine's, where any checkout installs its SDK as <package version>.
      const sdk = path.join(dir, "sdk-java");
      fs.cpSync(path.join(REPO, "sdk", "java"), sdk, { recursive: true });
      const pom = path.join(sdk, "pom.xml");
      const base = /<version>([^<]+)<\/version>/.exec(fs.readFileSync(pom, "utf8"))![1];
      version = `${base}-sharding-${hashOf(path.join(REPO, "sdk", "java"))}`;
      if (
        !fs.existsSync(
          path.join(MAVEN_REPOSITORY, "io/github/pulumi-integration-platform/integration-platform", version),
        )
      ) {
        fs.writeFileSync(
          pom,
          fs.readFileSync(pom, "utf8").replace(`<version>${base}</version>`, `<version>${version}</version>`),
        );
        execFileSync(
          "mvn",
          ["--batch-mode", "--quiet", "--no-transfer-progress", `-Dmaven.repo.local=${MAVEN_REPOSITORY}`, "install"],
          { cwd: sdk, stdio: ["ignore", "pipe", "pipe"] },
        );
      }
      // A copy: Maven builds into target/ beside the sources.
      project = path.join(dir, "java");
      fs.cpSync(path.join(REPO, "sdk-overlays", "tests", "java"), project, { recursive: true });
    });
    // Not -q: Surefire's "Tests run:" lines are INFO, and they show that the tests ran.
    const mvnTest = (file: string) =>
      run(
        "mvn",
        [
          "--batch-mode",
          "--no-transfer-progress",
          `-Dmaven.repo.local=${MAVEN_REPOSITORY}`,
          `-Dsdk.version=${version}`,
          "test",
        ],
        project,
        { SHARD_VECTORS: file },
      );

    it("passes on the vectors", async () => {
      const { code, output } = await mvnTest(vectors);
      assert.equal(code, 0, output);
      const summary = /^\[INFO\] Tests run: (\d+), Failures: 0, Errors: 0, Skipped: 0$/m.exec(output);
      assert.ok(summary && Number(summary[1]) >= 18, `Surefire ran fewer tests than there are:\n${output}`);
    });

    it("fails on a vector changed by one shard", async () => {
      const { code, output } = await mvnTest(forged);
      assert.equal(code, 1, output);
      assert.match(output, /Tests run: \d+, Failures: 2, Errors: 0, Skipped: 0/);
      assert.match(output, /globex at 10 shards/);
    });
  });
});

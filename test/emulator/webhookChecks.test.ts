// The webhook signature checks in Python, Go and Java (webhooks/) and the Python receiver example
// against deliveries the emulator signs now: they are recorded fresh (scripts/record-webhook-deliveries.ts)
// and each language's own tests run on them through WEBHOOK_DELIVERIES. A recording with one forged
// signature must fail each of them, which shows that they read it. Without python3 (with pytest), go or
// mvn on PATH the tests fail: they never skip.
import { after, before, describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LANGUAGES, MAVEN_REPOSITORY } from "../../harness/languages";
import {
  recordWebhookDeliveries,
  writeDeliveries,
  type RecordedDelivery,
} from "../../scripts/record-webhook-deliveries";
import { WEBHOOK_EVENTS } from "../../provider/webhooks";

const REPO = path.resolve(__dirname, "../..");

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
          ? new Error(`${command} is not on PATH: the webhook checks' tests need it (${error.message})`)
          : error,
      ),
    );
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The recording with one delivery's signature swapped for another's: well-formed, and wrong. */
function forged(deliveries: RecordedDelivery[]): RecordedDelivery[] {
  const copy = deliveries.map((d) => ({ ...d }));
  copy[0].signature = deliveries[1].signature;
  return copy;
}

describe(`webhook signature checks in Python, Go and Java, on deliveries the emulator signs now ${LANGUAGES}`, function () {
  // A first Maven run fetches JUnit and Surefire into the tests' local repository; a first Go run builds the stdlib.
  this.timeout(10 * 60_000);
  let dir: string;
  let deliveries: RecordedDelivery[];
  let fresh: string;
  let forgedFile: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-webhook-checks-"));
    deliveries = await recordWebhookDeliveries();
    fresh = path.join(dir, "deliveries.json");
    writeDeliveries(fresh, deliveries);
    forgedFile = path.join(dir, "forged.json");
    writeDeliveries(forgedFile, forged(deliveries));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("records each of the four events, from two keys, with a non-ASCII body", () => {
    const events = deliveries.map((d) => (JSON.parse(d.body) as { event: string }).event);
    assert.deepEqual(new Set(events), new Set(Object.values(WEBHOOK_EVENTS)));
    assert.equal(new Set(deliveries.map((d) => d.apiKey)).size, 2);
    assert.ok(deliveries.some((d) => Buffer.byteLength(d.body) > d.body.length));
    for (const d of deliveries) assert.match(d.signature, /^[0-9a-f]{64}$/);
    // The file the scripts wrote is what was recorded, byte for byte.
    assert.deepEqual(JSON.parse(fs.readFileSync(fresh, "utf8")), deliveries);
  });

  describe("Python: pytest of webhooks/python and examples/webhook-receiver/python", () => {
    // No .pytest_cache in the checkout, nor __pycache__ in the shipped example.
    const pytest = (file: string) =>
      run(
        "python3",
        ["-m", "pytest", "-p", "no:cacheprovider", "webhooks/python", "examples/webhook-receiver/python"],
        REPO,
        { WEBHOOK_DELIVERIES: file, PYTHONDONTWRITEBYTECODE: "1" },
      );

    it("passes on the fresh deliveries", async () => {
      const { code, output } = await pytest(fresh);
      assert.equal(code, 0, output);
      const passed = /^=+ (\d+) passed(?:, \d+ warnings?)? in [\d.]+s =+$/m.exec(output);
      assert.ok(passed && Number(passed[1]) >= 40, `pytest ran fewer tests than it has:\n${output}`);
    });

    it("fails on a forged one", async () => {
      const { code, output } = await pytest(forgedFile);
      assert.equal(code, 1, output);
      assert.match(output, /FAILED webhooks\/python\/test_webhooks\.py::test_takes_every_delivery_the_emulator_signed/);
      assert.match(output, /FAILED examples\/webhook-receiver\/python\/test_receiver\.py::test_takes_each_delivery/);
    });
  });

  describe("Go: go test of webhooks/go", () => {
    // -count=1: a result from Go's test cache would show nothing about this recording. The build cache is
    // the machine's own (GOCACHE), which the other Go suites warm: a cold one takes minutes here.
    const goTest = (file: string) =>
      run("go", ["test", "-count=1", "-v", "./..."], path.join(REPO, "webhooks", "go"), {
        WEBHOOK_DELIVERIES: file,
        GOFLAGS: "-mod=mod",
        GOTOOLCHAIN: "local",
      });

    it("passes on the fresh deliveries", async () => {
      const { code, output } = await goTest(fresh);
      assert.equal(code, 0, output);
      assert.match(
        output,
        /^ok\s+github\.com\/pulumi-integration-platform\/pulumi-integration-platform\/webhooks\/go\s/m,
      );
      assert.ok((output.match(/^--- PASS: /gm) ?? []).length >= 10, `go test ran fewer tests than it has:\n${output}`);
    });

    it("fails on a forged one", async () => {
      const { code, output } = await goTest(forgedFile);
      assert.equal(code, 1, output);
      assert.match(output, /^--- FAIL: TestTakesEveryDeliveryTheEmulatorSignedAndRefusesItTampered/m);
      assert.match(output, /delivery 0 of .*forged\.json was refused/);
    });
  });

  describe("Java: mvn test of webhooks/java", () => {
    let project: string;
    before(() => {
      // A copy: Maven builds into target/ beside the sources, and the checkout stays as it is.
      project = path.join(dir, "java");
      fs.cpSync(path.join(REPO, "webhooks", "java"), project, {
        recursive: true,
        filter: (source) => !source.includes(`${path.sep}target`),
      });
    });
    // Not -q: Surefire's "Tests run:" lines are INFO, and they show that the tests ran.
    const mvnTest = (file: string) =>
      run(
        "mvn",
        ["--batch-mode", "--no-transfer-progress", `-Dmaven.repo.local=${MAVEN_REPOSITORY}`, "test"],
        project,
        {
          WEBHOOK_DELIVERIES: file,
        },
      );

    it("passes on the fresh deliveries", async () => {
      const { code, output } = await mvnTest(fresh);
      assert.equal(code, 0, output);
      const summary = /^\[INFO\] Tests run: (\d+), Failures: 0, Errors: 0, Skipped: 0$/m.exec(output);
      assert.ok(summary && Number(summary[1]) >= 10, `Surefire ran fewer tests than there are:\n${output}`);
    });

    it("fails on a forged one", async () => {
      const { code, output } = await mvnTest(forgedFile);
      assert.equal(code, 1, output);
      assert.match(output, /Tests run: \d+, Failures: 1, Errors: 0, Skipped: 0/);
      assert.match(output, /delivery 0 of .*forged\.json was refused/);
    });
  });
});

// The emulator fuzzed from its own OpenAPI document (docs/emulator.md, "Its API described"):
// schemathesis, from PyPI (scripts/ensure-schemathesis.sh), generates requests to every operation,
// valid and not, and checks that no answer is a 5xx and every answer is one the document describes,
// in status, content type, headers and body; then the --data file the emulator kept through it all
// must load in a fresh emulator, to the same state, which answers.
import { spawn } from "node:child_process";
import { strict as assert } from "node:assert";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultFixturePath, startEmulator, type RunningEmulator } from "../../emulator";
import { ensureTool } from "../../harness/tools";
import { client, ok } from "../support/emulatorClients";

/** What every answer is held to. */
const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_headers_conformance",
  "response_schema_conformance",
];

/**
 * Operations left out, and why: each would turn the run against itself rather than test it.
 * addFaults: a rule can answer every later request 5xx, reset it or hold it for ten minutes.
 * setRateLimit: a limit of 0.5 requests per second would leave the rest of the run 429s.
 * addWebhookReceiver: its URL would have the emulator send workflow events to hosts of the fuzzer's choosing.
 */
const LEFT_OUT = ["addFaults", "setRateLimit", "addWebhookReceiver"];

/** The same cases on every run: a failure reproduces with `--seed`. */
const SEED = "20261129";

/** Runs `schemathesis run` against the emulator's document; resolves with its exit code and output. */
function schemathesis(
  bin: string,
  emulator: RunningEmulator,
  cwd: string,
  extra: string[],
): Promise<{ code: number | null; output: string }> {
  const args = [
    "run",
    `${emulator.url}/_emulator/openapi.json`,
    "--checks",
    CHECKS.join(","),
    "--header",
    `x-api-key: ${emulator.apiKey}`,
    "--seed",
    SEED,
    // One at a time, so that the emulator's state goes through the same sequence on every run.
    "--workers",
    "1",
    "--generation-database",
    "none",
    "--no-color",
    ...extra,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(join(bin, "schemathesis"), args, { cwd, timeout: 4 * 60_000 });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The run's report, past its progress lines, for an assertion's message. */
function report(output: string): string {
  const at = output.search(/^=+ (FAILURES|ERRORS|SUMMARY) =+$/m);
  return (at >= 0 ? output.slice(at) : output).slice(-12_000);
}

describe("emulator: fuzzed from its OpenAPI document (schemathesis)", function () {
  this.timeout(5 * 60_000);
  let bin: string;
  let dir: string;
  before(function () {
    // The first run installs schemathesis into the cache (about 30 s), later ones find it there.
    this.timeout(15 * 60_000);
    bin = ensureTool("ensure-schemathesis.sh", { timeoutMinutes: 15 });
    dir = mkdtempSync(join(tmpdir(), "emulator-fuzz-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("answers every generated request without a 5xx and as the document says, and its --data file loads again", async () => {
    const data = join(dir, "state.json");
    copyFileSync(defaultFixturePath(), data);
    // The rate limit off: the fuzzer checks the answers' shapes, not the pacing, and at 20 requests
    // per second most answers would be 429s. The next test sees the limit's 429 conform.
    const first = await startEmulator({ data, rateLimit: "off", quiet: true });
    let run;
    try {
      run = await schemathesis(bin, first, dir, [
        ...LEFT_OUT.flatMap((id) => ["--exclude-operation-id", id]),
        "--phases",
        "examples,coverage,fuzzing",
        "--max-examples",
        "3",
      ]);
    } finally {
      await first.close();
    }
    assert.equal(run.code, 0, `schemathesis found answers the document does not describe:\n${report(run.output)}`);
    // Every operation but those left out was tested, with over a thousand cases in all.
    const [, selected, total] = /Selected: (\d+)\/(\d+)/.exec(run.output) ?? [];
    assert.equal(Number(total) - Number(selected), LEFT_OUT.length, report(run.output));
    assert.equal(/Tested: (\d+)/.exec(run.output)?.[1], selected, report(run.output));
    assert.ok(Number(/(\d+) generated/.exec(run.output)?.[1]) > 1000, report(run.output));
    const kept: unknown = JSON.parse(JSON.stringify(first.store.state));

    const second = await startEmulator({ data, quiet: true });
    try {
      assert.deepEqual(JSON.parse(JSON.stringify(second.store.state)), kept, "the data file holds the state");
      const accounts = ok(await client(second, { "x-api-key": second.apiKey }).get("/linked-account"));
      assert.ok(accounts.totalDocs >= 3);
    } finally {
      await second.close();
    }
  });

  it("sees the rate limit's 429 as the document describes it, Retry-After included", async () => {
    const emulator = await startEmulator({ rateLimit: "1/3", retryAfter: true, quiet: true });
    const har = join(dir, "limited.har");
    let run;
    try {
      run = await schemathesis(bin, emulator, dir, [
        "--include-operation-id",
        "listLinkedAccounts",
        "--phases",
        "coverage",
        "--report",
        "har",
        "--report-har-path",
        har,
      ]);
    } finally {
      await emulator.close();
    }
    assert.equal(run.code, 0, report(run.output));
    type Entry = { response: { status: number; headers: { name: string; value: string }[] } };
    const { entries } = (JSON.parse(readFileSync(har, "utf8")) as { log: { entries: Entry[] } }).log;
    const limited = entries.filter((entry) => entry.response.status === 429);
    assert.ok(limited.length > 0, `no 429 among ${entries.length} answers`);
    for (const { response } of limited)
      assert.match(response.headers.find((h) => h.name.toLowerCase() === "retry-after")?.value ?? "", /^\d+$/);
  });
});

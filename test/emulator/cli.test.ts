import { after, before, describe, it } from "mocha";
import axios from "axios";
import { spawn, type ChildProcess } from "node:child_process";
import { strict as assert } from "node:assert";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { FIXTURE } from "./helpers";

const MAIN = resolve(__dirname, "../../emulator/main.ts");
// Transpile-only keeps each child's start-up around a second; the type check runs elsewhere.
const NODE_ARGS = ["-r", "ts-node/register/transpile-only", MAIN];

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): { child: ChildProcess; exited: Promise<Exit>; output: () => string } {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], { cwd: resolve(__dirname, "../.."), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<Exit>((resolvePromise) =>
    child.on("exit", (code, signal) => resolvePromise({ code, signal, stdout, stderr })),
  );
  return { child, exited, output: () => stdout };
}

async function waitForBanner(output: () => string, exited: Promise<Exit>): Promise<string> {
  const deadline = Date.now() + 15_000;
  let done = false;
  void exited.then(() => (done = true));
  while (!output().includes("Control plane:")) {
    if (done) throw new Error(`emulator exited early: ${JSON.stringify(await exited)}`);
    if (Date.now() > deadline) throw new Error(`no banner after 15 s: ${output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return output();
}

describe("emulator: command line (main.ts as a child process)", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "emulator-cli-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("prints URL, key, token and control plane; --port 0 picks a port; SIGTERM flushes --data and exits 0", async () => {
    const data = join(dir, "state.json");
    const { child, exited, output } = run(["--port", "0", "--data", data]);
    try {
      const banner = await waitForBanner(output, exited);
      const url = /Integration platform emulator listening on (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(banner);
      assert.ok(url, banner);
      assert.notEqual(Number(url[2]), 0);
      assert.match(banner, /^API key: tk_emulator$/m);
      assert.match(banner, /^Bearer token: emulator_token$/m);
      assert.ok(banner.includes(`Control plane: ${url[1]}/_emulator/`));

      assert.equal((await axios.get(`${url[1]}/_emulator/health`)).data.status, "ok");
      const created = await axios.post(
        `${url[1]}/api/v2/public/env/values`,
        { variable_definition_id: FIXTURE.definitions.accountQuota, value: "77", linked_account_id: "globex" },
        { headers: { "x-api-key": "tk_emulator" } },
      );
      child.kill("SIGTERM");
      const exit = await exited;
      assert.deepEqual([exit.code, exit.signal], [0, null], exit.stderr);
      const state = JSON.parse(await readFile(data, "utf8"));
      assert.equal(state.envValues.find((v: { _id: string }) => v._id === created.data._id).value, "77");
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes --api-key and --token, and exits 0 on SIGINT", async () => {
    const { child, exited, output } = run(["--port", "0", "--api-key", "tk_cli", "--token", "cli_token"]);
    try {
      const banner = await waitForBanner(output, exited);
      assert.match(banner, /^API key: tk_cli$/m);
      assert.match(banner, /^Bearer token: cli_token$/m);
      const base = /listening on (\S+)/.exec(banner)![1];
      const res = await axios.get(`${base}/api/v2/public/audit/event-received`, {
        headers: { authorization: "Bearer cli_token" },
      });
      assert.equal(res.status, 200);
      child.kill("SIGINT");
      assert.equal((await exited).code, 0);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("exits 2 with a clear message for bad arguments and a bad fixture, 0 for --help", async () => {
    const [badPort, host, positional, missingFixture, help] = await Promise.all(
      [["--port", "http"], ["--host", "0.0.0.0"], ["serve"], ["--port", "0", "--fixtures", join(dir, "nope.json")], ["--help"]].map(
        (args) => run(args).exited,
      ),
    );
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /--port must be an integer from 0 to 65535/);
    assert.equal(host.code, 2);
    assert.match(host.stderr, /Unknown option '--host'/);
    assert.match(host.stderr, /Usage:/);
    assert.equal(positional.code, 2);
    assert.equal(missingFixture.code, 2);
    assert.match(missingFixture.stderr, /cannot read fixture .*nope\.json/);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--fixtures FILE/);
  });
});

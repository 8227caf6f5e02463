import { afterEach, describe, it } from "mocha";
import axios from "axios";
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseWebhookPayload, verifyWebhookSignature } from "../../provider/webhooks";
import { bannerUrl, runEmulator, waitForBanner } from "../support/emulatorProcess";
import { startReceiver, type TestReceiver } from "../support/receiver";

// The newer options of the emulator's command line; the first ones are in cli.test.ts.
describe("emulator: command line's --version, --rate-limit-status and --webhook options", () => {
  const receivers: TestReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  it("registers --webhook receivers, names them in the banner, and delivers only the events given before @", async () => {
    const all = await startReceiver();
    const stops = await startReceiver();
    receivers.push(all, stops);
    const emulator = runEmulator([
      "--port",
      "0",
      "--api-key",
      "tk_cli_test",
      "--webhook",
      all.url,
      "--webhook",
      `stopped@${stops.url}`,
    ]);
    try {
      const banner = await waitForBanner(emulator);
      assert.ok(
        banner.includes(
          `Webhook receiver rcv_1: ${all.url} (Workflow Completed, Workflow Errored, Workflow Stopped, Workflow Timed Out)`,
        ),
        banner,
      );
      assert.ok(banner.includes(`Webhook receiver rcv_2: ${stops.url} (Workflow Stopped)`), banner);
      const control = `${bannerUrl(banner)}/_emulator`;
      const run = { linked_account_id: "acme", slug: "hubspot", workflow_id: "wf_hs_contact_sync" };
      await axios.post(`${control}/workflow-runs`, run);
      const started = (await axios.post(`${control}/workflow-runs`, { ...run, delay_ms: 60_000 })).data.run;
      await axios.post(`${control}/workflow-runs/${started.instance_id}/stop`);
      const got = await all.waitFor(2);
      const [stopped] = await stops.waitFor(1);
      for (const request of [...got, stopped])
        verifyWebhookSignature(request.rawBody, request.headers["x-cobalt-signature"], "tk_cli_test");
      assert.deepEqual(got.map((r) => parseWebhookPayload(r.rawBody).status).sort(), ["COMPLETED", "STOPPED"]);
      assert.equal(parseWebhookPayload(stopped.rawBody).instance_id, started.instance_id);
      assert.equal(stops.received.length, 1);
    } finally {
      emulator.child.kill("SIGTERM");
      await emulator.exited;
    }
  });

  it("ends within a few seconds of SIGTERM while deliveries hang, are queued and wait between retries", async function () {
    this.timeout(30_000);
    const hang = await startReceiver(() => "hang");
    const failing = await startReceiver(() => 500);
    receivers.push(hang, failing);
    const emulator = runEmulator([
      "--port",
      "0",
      "--webhook",
      hang.url,
      "--webhook",
      failing.url,
      "--webhook-timeout",
      "600000",
      "--webhook-backoff",
      "600000",
    ]);
    const control = `${bannerUrl(await waitForBanner(emulator))}/_emulator`;
    const run = { linked_account_id: "acme", slug: "hubspot", workflow_id: "wf_hs_contact_sync" };
    // 40 runs: 8 deliveries hang at the receiver, the failing ones wait 10 minutes to retry, the rest queue.
    await Promise.all(Array.from({ length: 40 }, () => axios.post(`${control}/workflow-runs`, run)));
    await axios.post(`${control}/workflow-runs`, { ...run, delay_ms: 3_600_000 });
    await hang.waitFor(1);
    const sent = Date.now();
    emulator.child.kill("SIGTERM");
    const exit = await emulator.exited;
    const took = Date.now() - sent;
    assert.equal(exit.code, 0, exit.stderr);
    assert.ok(took < 4_000, `exited ${took} ms after SIGTERM`);
  });

  it("prints the package's version with --version and -V, and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(resolve(__dirname, "../../package.json"), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-V"]) {
      const exit = await runEmulator([flag]).exited;
      assert.deepEqual([exit.code, exit.stdout, exit.stderr], [0, `${version}\n`, ""]);
    }
  });

  it('answers the limit with 403 "Rate Limit Hit" under --rate-limit-status 403, and says so in the banner', async () => {
    const emulator = runEmulator(["--port", "0", "--rate-limit", "1/1", "--rate-limit-status", "403"]);
    try {
      const banner = await waitForBanner(emulator);
      assert.match(
        banner,
        /^Rate limit: 1 requests\/s, burst 1, per credential, answered 403 "Rate Limit Hit" \(--rate-limit off to disable\)$/m,
      );
      const api = axios.create({
        baseURL: `${bannerUrl(banner)}/api/v2/public`,
        headers: { "x-api-key": "tk_emulator" },
        validateStatus: () => true,
      });
      const answers = await Promise.all([api.get("/linked-account"), api.get("/linked-account")]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 403]);
      assert.equal(answers.find((a) => a.status === 403)!.data.message, "Rate Limit Hit");
    } finally {
      emulator.child.kill("SIGTERM");
      await emulator.exited;
    }
  });

  for (const [args, message] of [
    [["--rate-limit-status", "401"], '--rate-limit-status must be 429 or 403; got "401"'],
    [["--webhook", "ftp://127.0.0.1/x"], "--webhook: receiver URL must be http or https, got ftp:"],
    [["--webhook", "started@http://127.0.0.1/x"], '--webhook: unknown webhook event "started"'],
    [["--webhook", "http://u:p@127.0.0.1/x"], "--webhook: receiver URL must not carry a user name or password"],
    [["--webhook-timeout", "0"], '--webhook-timeout must be a whole number of milliseconds from 1 to 3600000, got "0"'],
    [
      ["--webhook-backoff", "1.5"],
      '--webhook-backoff must be a whole number of milliseconds from 0 to 3600000, got "1.5"',
    ],
  ] as const) {
    it(`refuses ${args.join(" ")} with exit 2 and a message naming the option`, async () => {
      const exit = await runEmulator([...args]).exited;
      assert.equal(exit.code, 2);
      assert.ok(exit.stderr.includes(message), exit.stderr);
    });
  }
});

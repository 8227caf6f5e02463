// `pulumi-integration-platform webhook send` against a real HTTP receiver: what arrives, that the
// exported check accepts it, the exit statuses, and the refusals of its options.
import * as assert from "node:assert/strict";
import { afterEach } from "mocha";
import { main } from "../../cli/main";
import { checkWebhookSignature, parseWebhookPayload } from "../../provider/webhooks";
import { startReceiver, type TestReceiver } from "../support/receiver";

/** Runs the command line in-process with `env`; returns its exit status and output. */
async function cli(args: string[], env: NodeJS.ProcessEnv) {
  const run = { stdout: "", stderr: "" };
  const code = await main(args, {
    stdout: (t) => (run.stdout += t),
    stderr: (t) => (run.stderr += t),
    readStdin: async () => "",
    env,
  });
  return { code, ...run };
}

describe("the command line: webhook send", () => {
  const KEY = { INTEGRATION_PLATFORM_API_KEY: "tk_receiver_test" };
  let receiver: TestReceiver | undefined;
  afterEach(async () => receiver?.close());

  it("posts one signed event with the payload given, which the exported check accepts; exit 0 on a 2xx", async () => {
    receiver = await startReceiver(() => 202);
    const run = await cli(
      [
        "webhook",
        "send",
        "--url",
        receiver.url,
        "--event",
        "timed_out",
        "--linked-account-id",
        "acme",
        "--workflow-id",
        "wf_1",
        "--workflow-name",
        "Sync",
        "--instance-id",
        "run-1",
      ],
      KEY,
    );
    assert.equal(run.code, 0, run.stderr);
    const [got] = await receiver.waitFor(1);
    assert.equal(
      checkWebhookSignature(got.rawBody, got.headers["x-cobalt-signature"], KEY.INTEGRATION_PLATFORM_API_KEY).valid,
      true,
    );
    assert.deepEqual(parseWebhookPayload(got.rawBody), {
      linked_account_id: "acme",
      instance_id: "run-1",
      workflow_id: "wf_1",
      config_id: "acme",
      event: "Workflow Timed Out",
      workflow_name: "Sync",
      status: "TIMED_OUT",
    });
    // It prints the request as sent (the body byte for byte), then the answer; never the key.
    assert.ok(
      run.stdout.startsWith(
        `POST ${receiver.url}\nx-cobalt-signature: ${got.headers["x-cobalt-signature"]}\n${got.rawBody.toString()}\n`,
      ),
      run.stdout,
    );
    assert.match(run.stdout, /^accepted: 202 in \d+ ms$/m);
    assert.ok(!(run.stdout + run.stderr).includes(KEY.INTEGRATION_PLATFORM_API_KEY));
  });

  it("reads the key from the variable --key-env names, and exits 1 when the receiver refuses", async () => {
    receiver = await startReceiver(() => 401);
    const run = await cli(["webhook", "send", "--url", receiver.url, "--key-env", "MY_KEY"], { MY_KEY: "tk_other" });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^refused: 401 in \d+ ms$/m);
    const [got] = await receiver.waitFor(1);
    assert.equal(checkWebhookSignature(got.rawBody, got.headers["x-cobalt-signature"], "tk_other").valid, true);
  });

  it("exits 1 with the reason when nothing listens or the receiver does not answer in time", async () => {
    receiver = await startReceiver(() => "hang");
    const slow = await cli(["webhook", "send", "--url", receiver.url, "--timeout", "100"], KEY);
    assert.equal(slow.code, 1);
    assert.match(slow.stderr, /webhook send: no answer within 100 ms\n$/);
    await receiver.close();
    const down = await cli(["webhook", "send", "--url", receiver.url], KEY);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /webhook send: connection refused: is the receiver running\?\n$/);
    receiver = undefined;
  });

  for (const [args, env, message] of [
    [[], KEY, /webhook send needs --url/],
    [["--url", "file:///etc/passwd"], KEY, /--url: receiver URL must be http or https, got file:/],
    [["--url", "http://127.0.0.1:1/x", "--event", "started"], KEY, /--event: unknown webhook event "started"/],
    [
      ["--url", "http://127.0.0.1:1/x"],
      {},
      /the signing key is read from INTEGRATION_PLATFORM_API_KEY, which is not set/,
    ],
    [["--url", "http://127.0.0.1:1/x", "--timeout", "soon"], KEY, /--timeout must be a whole number of milliseconds/],
    [["--url", "http://127.0.0.1:1/x", "--linked-account-id", " "], KEY, /--linked-account-id must not be empty/],
  ] as const) {
    it(`refuses ${args.join(" ") || "no options"} with exit 2, sending nothing`, async () => {
      const run = await cli(["webhook", "send", ...args], { ...env });
      assert.equal(run.code, 2);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, message);
      assert.match(run.stderr, /Run `pulumi-integration-platform webhook send --help` for usage.\n$/);
    });
  }
});

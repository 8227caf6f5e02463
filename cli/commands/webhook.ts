// `webhook send`: fires one workflow event at a receiver, signed as the platform signs, so that a
// receiver's author can try it by hand or from a test (docs/guides/webhook-receivers.md).
import axios from "axios";
import { randomUUID } from "node:crypto";
import { Command } from "commander";
import { webhookEventOf, receiverUrlProblem, runStatusOf } from "../../contract/webhookReceivers";
import { WEBHOOK_EVENTS, WEBHOOK_SIGNATURE_HEADER, type WebhookPayload } from "../../contract/webhooks";
import { signWebhookBody } from "../../provider/webhooks/signature";
import type { Io } from "../io";
import { COMMAND, INVOCATION, UsageError } from "../usage";

/** The environment variable the signing key is read from by default: the provider's API key. */
const DEFAULT_KEY_ENV = "INTEGRATION_PLATFORM_API_KEY";
/** How long the receiver may take to answer by default. */
const DEFAULT_TIMEOUT_MS = 10_000;

/** The options as commander parsed them, before they are checked. */
interface GivenOptions {
  url?: string;
  event: string;
  linkedAccountId: string;
  configId?: string;
  workflowId: string;
  workflowName: string;
  instanceId?: string;
  keyEnv: string;
  timeout: string;
}

/** The payload and where to send it, from checked options. */
function sendOptions(positionals: string[], values: GivenOptions, env: NodeJS.ProcessEnv) {
  if (positionals.length > 0)
    throw new UsageError(
      "webhook send takes no arguments besides its options; " +
        `got ${positionals.map((p) => JSON.stringify(p)).join(", ")}`,
    );
  if (!values.url)
    throw new UsageError("webhook send needs --url: the receiver's address, e.g. --url http://127.0.0.1:3000/webhooks");
  const problem = receiverUrlProblem(values.url);
  if (problem) throw new UsageError(`--url: ${problem}`);
  try {
    webhookEventOf(values.event);
  } catch (err) {
    throw new UsageError(`--event: ${(err as Error).message}`);
  }
  const status = runStatusOf(values.event)!;
  const key = env[values.keyEnv];
  if (!key) {
    throw new UsageError(
      `the signing key is read from ${values.keyEnv}, which is not set: ` +
        `export ${values.keyEnv} with the API key your receiver checks with`,
    );
  }
  const timeoutMs = Number(values.timeout);
  if (!/^\d+$/.test(values.timeout) || timeoutMs < 1)
    throw new UsageError(`--timeout must be a whole number of milliseconds, at least 1, got "${values.timeout}"`);
  for (const [option, value] of [
    ["--linked-account-id", values.linkedAccountId],
    ["--workflow-id", values.workflowId],
    ["--config-id", values.configId],
    ["--instance-id", values.instanceId],
  ] as const) {
    if (value !== undefined && value.trim() === "") throw new UsageError(`${option} must not be empty`);
  }
  const payload: WebhookPayload = {
    linked_account_id: values.linkedAccountId,
    instance_id: values.instanceId ?? randomUUID(),
    workflow_id: values.workflowId,
    config_id: values.configId ?? values.linkedAccountId,
    event: WEBHOOK_EVENTS[status],
    workflow_name: values.workflowName,
    status,
  };
  return { url: values.url, payload, key, timeoutMs };
}

/** Sends the event once; resolves to the exit status: 0 for a 2xx answer, 1 for any other or none. */
async function send({ url, payload, key, timeoutMs }: ReturnType<typeof sendOptions>, io: Io): Promise<number> {
  const body = JSON.stringify(payload);
  io.stdout(`POST ${url}\n${WEBHOOK_SIGNATURE_HEADER}: ${signWebhookBody(body, key)}\n${body}\n`);
  const started = performance.now();
  try {
    const response = await axios.post(url, body, {
      headers: {
        "content-type": "application/json",
        [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(body, key),
        "user-agent": COMMAND,
      },
      transformRequest: [(data: unknown) => data],
      timeout: timeoutMs,
      maxRedirects: 0,
      responseType: "text",
      validateStatus: () => true,
    });
    const took = Math.round(performance.now() - started);
    const accepted = response.status >= 200 && response.status < 300;
    (accepted ? io.stdout : io.stderr)(`${accepted ? "accepted" : "refused"}: ${response.status} in ${took} ms\n`);
    return accepted ? 0 : 1;
  } catch (err) {
    const error = err as { code?: string; message: string };
    const reason =
      error.code === "ECONNABORTED"
        ? `no answer within ${timeoutMs} ms`
        : error.code === "ECONNREFUSED"
          ? "connection refused: is the receiver running?"
          : error.message;
    io.stderr(`${COMMAND} webhook send: ${reason}\n`);
    return 1;
  }
}

/** `webhook`, with its one subcommand `send`; the action hands its exit status to `done`. */
export function webhookCommand(io: Io, done: (status: number) => void): Command {
  const sendCommand = new Command("send")
    .summary("Send one signed workflow event to a webhook receiver, as the platform would.")
    .usage(
      "--url <url> [--event <event>] [--linked-account-id <id>] [--config-id <id>]\n" +
        "         [--workflow-id <id>] [--workflow-name <name>] [--instance-id <id>] " +
        "[--key-env <name>] [--timeout <ms>]",
    )
    .description(
      "Posts one workflow lifecycle event, " +
        "{linked_account_id, instance_id, workflow_id, config_id, event, workflow_name, status}, " +
        `to <url>, signed with ${WEBHOOK_SIGNATURE_HEADER} ` +
        "(the hex HMAC-SHA256 of the body, keyed with the API key read from " +
        `${DEFAULT_KEY_ENV}, or the variable --key-env names; ` +
        "never from an argument, which other users of the machine can see). " +
        "Prints the request as sent, then the answer. Sends once: the platform's retries are the emulator's to try.",
    )
    .option("--url <url>", "The receiver's address (http or https). Required.")
    .option(
      "--event <event>",
      'completed, errored, stopped or timed_out (or the event\'s name, "Workflow Completed").',
      "completed",
    )
    .option("--linked-account-id <id>", "The payload's linked_account_id.", "test-linked-account")
    .option(
      "--config-id <id>",
      "The payload's config_id (default: the linked account's id, as the platform's configs).",
    )
    .option("--workflow-id <id>", "The payload's workflow_id.", "test-workflow")
    .option("--workflow-name <name>", "The payload's workflow_name.", "Test workflow")
    .option("--instance-id <id>", "The payload's instance_id (default: a new UUID).")
    .option("--key-env <name>", "The environment variable holding the signing key.", DEFAULT_KEY_ENV)
    .option("--timeout <ms>", "How long the receiver may take to answer.", String(DEFAULT_TIMEOUT_MS))
    .allowExcessArguments()
    .addHelpText(
      "after",
      `
Example:
  export ${DEFAULT_KEY_ENV}=tk_emulator
  ${INVOCATION} webhook send --url http://127.0.0.1:3000/webhooks --event errored

Exit status: 0 when the receiver answered 2xx; 1 when it answered anything
else or not at all; 2 for bad usage or no signing key; 3 for an unexpected failure.
`,
    )
    .action(async (values: GivenOptions, command: Command) =>
      done(await send(sendOptions(command.args, values, io.env ?? process.env), io)),
    );
  return new Command("webhook")
    .summary("Send a signed workflow event to a webhook receiver (`webhook send`).")
    .description("Tools for the authors of webhook receivers. `webhook send` posts one signed workflow event.")
    .usage("send [options]")
    .addCommand(sendCommand);
}

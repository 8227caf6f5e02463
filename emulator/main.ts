#!/usr/bin/env node
// The emulator's command line (`pulumi-integration-platform-emulator`): options checked before the
// server and its dependencies load, then the emulator runs until a signal stops it.
import { parseArgs } from "node:util";
import type { RunningEmulator } from "./index";
import {
  DEFAULT_RATE_LIMIT,
  parseRateLimit,
  parseRateLimitStatus,
  type RateLimitAnswerStatus,
  type RateLimitStatus,
} from "./rateLimit";
import { receiverUrlProblem, webhookEventOf } from "../contract/webhookReceivers";
import { parseReceiverOption } from "./webhookReceivers";
import type { WebhookSettings } from "./webhooks";

/** Default port of the command line (the library defaults to 0, a free port). */
export const DEFAULT_PORT = 4010;

/** The command's name, as users type it; its messages start with it. */
const COMMAND = "pulumi-integration-platform-emulator";

const USAGE = `Usage: ${COMMAND} [options]

Runs a local emulator of the integration platform's public API on 127.0.0.1.

Options:
  --port N          TCP port (default ${DEFAULT_PORT}; 0 picks a free port)
  --fixtures FILE   seed state from FILE instead of the bundled default fixture
  --data FILE       load state from FILE if it exists; write every change to it
  --snapshots DIR   keep the snapshots saved on /_emulator/snapshots in DIR too, as <name>.json,
                    for a later emulator to restore (default: in memory only)
  --api-key KEY     API key to accept in x-api-key (default tk_emulator)
  --token TOKEN     bearer token to accept in Authorization (default emulator_token)
  --rate-limit RPS/BURST|off
                    requests per second and burst allowed per credential, e.g. 0.5/1
                    (default ${DEFAULT_RATE_LIMIT}, the platform's documented limit); off disables it
  --retry-after     send Retry-After (whole seconds) with the rate limit's answers (the platform documents none)
  --rate-limit-status 429|403
                    answer the rate limit with 429 (default) or with 403 "Rate Limit Hit", the form
                    one older page of the platform's docs describes
  --webhook [EVENTS@]URL
                    send workflow events to URL, signed with the API key; EVENTS is a comma list
                    of completed, errored, stopped, timed_out (default all four); repeatable
  --webhook-timeout MS
                    time a receiver may take to answer one attempt (default 5000)
  --webhook-backoff MS
                    wait before the first retry of a failed delivery, doubling for each next
                    one, 3 retries at most (default 1000)
  --quiet           do not print warnings
  -V, --version     print the version
  -h, --help        show this help
`;

/** Exit status for unusable arguments, a bad fixture or a bad data file. */
const EXIT_USAGE = 2;

class UsageError extends Error {}

interface CliOptions {
  port: number;
  fixtures?: string;
  data?: string;
  snapshots?: string;
  apiKey?: string;
  token?: string;
  rateLimit: string;
  retryAfter: boolean;
  rateLimitStatus: RateLimitAnswerStatus;
  webhooks: WebhookSettings;
  quiet: boolean;
  help: boolean;
  version: boolean;
}

/** parseArgs' refusal in the emulator's words: Node's own text explains parseArgs, not the emulator. */
function parseProblem(err: NodeJS.ErrnoException): string {
  const quoted = /'([^']*)'/.exec(err.message)?.[1];
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted ?? ""}`.trim();
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      // "Option '--port <value>' argument missing": name the option and show it with a value.
      return quoted ? `${quoted.split(" ")[0]} needs a value: ${quoted}` : err.message;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `takes options only; got ${JSON.stringify(quoted ?? "")}`;
    default:
      return err.message;
  }
}

function parseCommandLine(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        fixtures: { type: "string" },
        data: { type: "string" },
        snapshots: { type: "string" },
        "api-key": { type: "string" },
        token: { type: "string" },
        "rate-limit": { type: "string", default: DEFAULT_RATE_LIMIT },
        "retry-after": { type: "boolean", default: false },
        "rate-limit-status": { type: "string", default: "429" },
        webhook: { type: "string", multiple: true },
        "webhook-timeout": { type: "string" },
        "webhook-backoff": { type: "string" },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "V", default: false },
      },
    });
  } catch (err) {
    throw new UsageError(parseProblem(err as NodeJS.ErrnoException));
  }
  const { values } = parsed;
  const portText = values.port ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${portText}"`);
  }
  for (const name of ["api-key", "token", "snapshots"] as const) {
    if (values[name] === "") throw new UsageError(`--${name} must not be empty`);
  }
  const rateLimit = values["rate-limit"] ?? DEFAULT_RATE_LIMIT;
  try {
    parseRateLimit(rateLimit, "--rate-limit");
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let rateLimitStatus: RateLimitAnswerStatus;
  try {
    rateLimitStatus = parseRateLimitStatus(values["rate-limit-status"], "--rate-limit-status");
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const webhooks: WebhookSettings = {
    receivers: (values.webhook ?? []).map((text) => {
      const receiver = parseReceiverOption(text);
      const problem = receiverUrlProblem(receiver.url);
      if (problem) throw new UsageError(`--webhook: ${problem}`);
      try {
        receiver.events?.forEach(webhookEventOf);
      } catch (err) {
        throw new UsageError(`--webhook: ${(err as Error).message}`);
      }
      return receiver;
    }),
    timeoutMs: milliseconds(values["webhook-timeout"], "--webhook-timeout", 1),
    backoffMs: milliseconds(values["webhook-backoff"], "--webhook-backoff", 0),
  };
  return {
    port,
    fixtures: values.fixtures,
    data: values.data,
    snapshots: values.snapshots,
    apiKey: values["api-key"],
    token: values.token,
    rateLimit,
    retryAfter: values["retry-after"] ?? false,
    rateLimitStatus,
    webhooks,
    quiet: values.quiet ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
  };
}

/** A whole number of milliseconds from `min` to an hour, or undefined when the option is absent. */
function milliseconds(text: string | undefined, option: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > 3_600_000) {
    throw new UsageError(`${option} must be a whole number of milliseconds from ${min} to 3600000, got "${text}"`);
  }
  return value;
}

/**
 * The lines that point a Pulumi stack at this emulator: the provider's settings
 * (provider/settings.ts), as `pulumi config set` commands and as environment variables.
 */
export function stackSettings(emulator: Pick<RunningEmulator, "url" | "apiKey">): string[] {
  return [
    "",
    "Point a stack at it, in the Pulumi program's directory:",
    `  pulumi config set integration-platform:baseUrl ${emulator.url}`,
    `  pulumi config set --secret integration-platform:apiKey ${emulator.apiKey}`,
    "or, for every stack run from this shell:",
    `  export INTEGRATION_PLATFORM_BASE_URL=${emulator.url}`,
    `  export INTEGRATION_PLATFORM_API_KEY=${emulator.apiKey}`,
  ];
}

async function main(argv: string[]): Promise<void> {
  let options: CliOptions;
  try {
    options = parseCommandLine(argv);
  } catch (err) {
    process.stderr.write(`${COMMAND}: ${(err as Error).message}\nRun \`${COMMAND} --help\` for usage.\n`);
    process.exit(EXIT_USAGE);
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    // The package's own package.json (the single executable's asset), as the other command prints it.
    const { packageVersion } = await import("./stateFile");
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }

  // Loaded only now so that --help and argument errors answer without loading the server.
  const { startEmulator, EmulatorConfigError, CONTROL_PREFIX } = await import("./index");
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(options);
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(err instanceof EmulatorConfigError ? EXIT_USAGE : 1);
  }

  process.stdout.write(
    [
      `Integration platform emulator listening on ${emulator.url}`,
      `API key: ${emulator.apiKey}`,
      `Bearer token: ${emulator.token}`,
      `Control plane: ${emulator.url}${CONTROL_PREFIX}/`,
      `Dashboard: ${emulator.url}${CONTROL_PREFIX}/ (open it in a browser)`,
      options.data ? `State file: ${options.data}` : "State: in memory (use --data FILE to keep it)",
      ...(options.snapshots ? [`Snapshots: in memory and in ${options.snapshots}`] : []),
      describeRateLimit(emulator.rateLimit.get()),
      ...emulator.webhooks.listReceivers().map((r) => `Webhook receiver ${r.id}: ${r.url} (${r.events.join(", ")})`),
      ...stackSettings(emulator),
      "",
    ].join("\n"),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal while flushing means "now": exit without waiting for the disk.
    if (stopping) process.exit(1);
    stopping = true;
    // Never wedged: a disk that does not answer cannot keep the process past a few seconds.
    setTimeout(() => {
      process.stderr.write(
        `emulator: the state could not be written within ${STOP_DEADLINE_MS / 1000} s of ${signal}; ` +
          "exiting without it\n",
      );
      process.exit(1);
    }, STOP_DEADLINE_MS);
    emulator.close().then(
      () => {
        if (!options.quiet) process.stderr.write(`emulator: stopped on ${signal}\n`);
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`error while stopping: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** How long a stop may take to close the server and write the state before the process exits anyway. */
const STOP_DEADLINE_MS = 5_000;

function describeRateLimit({ requestsPerSecond, burst, retryAfter, status }: RateLimitStatus): string {
  if (requestsPerSecond === null) return "Rate limit: off (--rate-limit RPS/BURST to enable)";
  const answer = status === 403 ? ', answered 403 "Rate Limit Hit"' : "";
  const withRetryAfter = retryAfter ? ", with Retry-After" : "";
  return (
    `Rate limit: ${requestsPerSecond} requests/s, burst ${burst}, per credential${answer}${withRetryAfter} ` +
    "(--rate-limit off to disable)"
  );
}

void main(process.argv.slice(2));

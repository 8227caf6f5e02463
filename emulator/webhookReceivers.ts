// How a webhook receiver is named: its URL, its events, and the command line's `[EVENTS@]URL`.
// Apart from emulator/webhooks.ts so that the command line checks its options without loading axios.
import {
  WEBHOOK_EVENTS,
  WORKFLOW_RUN_STATUSES,
  type WebhookEvent,
  type WorkflowRunStatus,
} from "../provider/webhooks/payload";

/** How to register a receiver: its URL and, optionally, the events it wants (all four by default). */
export interface WebhookReceiverInput {
  url: string;
  /** Event names ("Workflow Completed") or statuses ("COMPLETED", "completed", "timed_out"); default all four. */
  events?: string[];
}

/** A receiver or event that cannot be used; the control plane answers 400 with its message. */
export class WebhookInputError extends Error {}

// "Timed Out", "timed-out" and "TIMED_OUT" are one name.
const nameKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "_");
const STATUS_BY_NAME: Record<string, WorkflowRunStatus> = Object.fromEntries(
  WORKFLOW_RUN_STATUSES.flatMap((status) => [
    [nameKey(status), status],
    [nameKey(WEBHOOK_EVENTS[status]), status],
  ]),
);

/** The run status for a status or event name, in any case ("timed_out", "Workflow Timed Out"), or undefined. */
export function runStatusOf(name: string): WorkflowRunStatus | undefined {
  return Object.hasOwn(STATUS_BY_NAME, nameKey(name)) ? STATUS_BY_NAME[nameKey(name)] : undefined;
}

/** The webhook event for a name or status, in any case ("timed_out", "Workflow Timed Out"); throws when unknown. */
export function webhookEventOf(name: string): WebhookEvent {
  const status = runStatusOf(name);
  if (!status) {
    throw new WebhookInputError(
      `unknown webhook event ${JSON.stringify(name)}: use ${WORKFLOW_RUN_STATUSES.map((s) => s.toLowerCase()).join(", ")} or the event names ("Workflow Completed")`,
    );
  }
  return WEBHOOK_EVENTS[status];
}

/** The URL a receiver may have: http(s), no credentials in it (they would be sent to the receiver in clear). */
export function receiverUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `receiver URL ${JSON.stringify(url.slice(0, 200))} is not an absolute URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `receiver URL must be http or https, got ${parsed.protocol}`;
  if (parsed.username || parsed.password) return "receiver URL must not carry a user name or password";
  return null;
}

/** The command line's form of a receiver, `[EVENTS@]URL`, e.g. `completed,errored@http://127.0.0.1:9000/hook`. */
export function parseReceiverOption(text: string): WebhookReceiverInput {
  const match = /^([A-Za-z_ ,]+)@(https?:\/\/.*)$/.exec(text);
  return match ? { url: match[2], events: match[1].split(",").filter((e) => e.trim() !== "") } : { url: text };
}

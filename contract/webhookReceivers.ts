// How the tools name a webhook receiver and its events: the emulator's control plane and command line
// and the CLI's `webhook send` accept the same spellings and refuse the same URLs.
import { WEBHOOK_EVENTS, WORKFLOW_RUN_STATUSES, type WebhookEvent, type WorkflowRunStatus } from "./webhooks";

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
    const statuses = WORKFLOW_RUN_STATUSES.map((s) => s.toLowerCase()).join(", ");
    throw new WebhookInputError(
      `unknown webhook event ${JSON.stringify(name)}: use ${statuses} or the event names ("Workflow Completed")`,
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

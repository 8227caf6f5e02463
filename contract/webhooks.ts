// What a webhook delivery is, as the platform describes it (docs/design/contract.md#webhooks): one
// workflow lifecycle event, its header and its retries. The provider, the CLI and the emulator read them here.
import { z } from "zod";

/** How a workflow run ends, as the payload's `status` says it. */
export const WORKFLOW_RUN_STATUSES = ["COMPLETED", "ERRORED", "STOPPED", "TIMED_OUT"] as const;
/** A run's final status. */
export type WorkflowRunStatus = (typeof WORKFLOW_RUN_STATUSES)[number];

/** The four webhook events, in the platform's words, by the status they report. */
export const WEBHOOK_EVENTS = {
  COMPLETED: "Workflow Completed",
  ERRORED: "Workflow Errored",
  STOPPED: "Workflow Stopped",
  TIMED_OUT: "Workflow Timed Out",
} as const satisfies Record<WorkflowRunStatus, string>;
/** One of the four webhook event names. */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[WorkflowRunStatus];

/** The header that carries a delivery's signature (Node.js lower-cases header names). */
export const WEBHOOK_SIGNATURE_HEADER = "x-cobalt-signature";

/** Retries after a failed first attempt: a non-2xx answer is "retried up to 3 times", with exponential backoff. */
export const WEBHOOK_RETRIES = 3;

/** Schema of a delivery's body; extra properties the platform may add are kept. */
export const webhookPayloadSchema = z.looseObject({
  linked_account_id: z.string(),
  instance_id: z.string(),
  workflow_id: z.string(),
  config_id: z.string(),
  event: z.enum(Object.values(WEBHOOK_EVENTS) as [WebhookEvent, ...WebhookEvent[]]),
  workflow_name: z.string(),
  status: z.enum(WORKFLOW_RUN_STATUSES),
});

/** A delivery's body: which run of which workflow, for which linked account and config, ended how. */
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/**
 * Parses a delivery's raw body into a `WebhookPayload`, after its signature was checked; throws
 * an Error naming the first property that does not fit.
 */
export function parseWebhookPayload(rawBody: Buffer | Uint8Array | string): WebhookPayload {
  const text = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`webhook body is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const result = webhookPayloadSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`webhook body: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return result.data;
}

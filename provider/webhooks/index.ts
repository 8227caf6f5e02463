// For the authors of webhook receivers: `pulumi-integration-platform/webhooks` loads only this
// (no Pulumi SDK), so a receiver's server can import it cheaply. The payload and its names are the
// platform's contract (contract/webhooks.ts); checking a signature is the receiver's side.
export {
  checkWebhookSignature,
  signWebhookBody,
  verifyWebhookSignature,
  WebhookSignatureError,
  type RawWebhookBody,
  type WebhookSignatureCheck,
  type WebhookSignatureProblem,
} from "./signature";
export {
  WEBHOOK_EVENTS,
  WEBHOOK_SIGNATURE_HEADER,
  WORKFLOW_RUN_STATUSES,
  parseWebhookPayload,
  webhookPayloadSchema,
  type WebhookEvent,
  type WebhookPayload,
  type WorkflowRunStatus,
} from "../../contract/webhooks";

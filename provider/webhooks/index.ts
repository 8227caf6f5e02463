// For the authors of webhook receivers: `pulumi-integration-platform/webhooks` loads only this
// (no Pulumi SDK), so a receiver's server can import it cheaply.
export {
  WEBHOOK_SIGNATURE_HEADER,
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
  WORKFLOW_RUN_STATUSES,
  parseWebhookPayload,
  webhookPayloadSchema,
  type WebhookEvent,
  type WebhookPayload,
  type WorkflowRunStatus,
} from "./payload";

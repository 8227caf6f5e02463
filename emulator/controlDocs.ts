// The control plane's operations as the OpenAPI document describes them (openApiDocument.ts), beside
// control.ts and controlWebhooks.ts, which register them: the schemas their routes parse requests
// with, and the schemas of their answers, each checked at compile time against the type it describes.
import { z } from "zod";
import { webhookPayloadSchema, WEBHOOK_EVENTS, WORKFLOW_RUN_STATUSES } from "../contract/webhooks";
import { CONTROL_PREFIX, faultIdSchema, rateLimitChangeSchema } from "./control";
import { deliveryParamsSchema, receiverParamsSchema, runParamsSchema } from "./controlWebhooks";
import { faultRuleSchema, faultRulesBodySchema, type FaultRule } from "./faults";
import { emulatorStateSchema } from "./model";
import type { Describes, OperationDocs } from "./operationDoc";
import { RATE_LIMIT_STATUSES, type RateLimitStatus } from "./rateLimit";
import type { RequestLogEntry } from "./requestLog";
import { sinceQuerySchema } from "./requests";
import { runRequestSchema, type WorkflowRun } from "./runs";
import { snapshotNameSchema, type SnapshotInfo } from "./snapshots";
import { webhookReceiverBodySchema, type Delivery, type DeliveryAttempt, type WebhookReceiver } from "./webhooks";

const count = z.number().int().min(0);
const timestamp = z.string().meta({ description: "ISO 8601" });

/** A snapshot as the control plane tells of it: never the state itself. */
export const snapshotInfoSchema = z.object({
  name: snapshotNameSchema,
  savedAt: timestamp,
  linkedAccounts: count.optional().meta({ description: "Absent for a file not read yet" }),
  file: z.string().optional().meta({ description: "The file it is kept in, with --snapshots DIR" }),
});
true satisfies Describes<typeof snapshotInfoSchema, SnapshotInfo>;

/** A fault rule as listed, with its bookkeeping. */
export const faultRuleViewSchema = z.object({
  id: z.number().int().min(1),
  method: z.string(),
  path: z.string(),
  action: faultRuleSchema.shape.action,
  probability: z.number().min(0).max(1).optional(),
  times: z.number().int().min(1).optional(),
  remaining: count.optional().meta({ description: "Firings left of a `times` rule" }),
  fired: count,
});
true satisfies Describes<typeof faultRuleViewSchema, FaultRule>;

/** The rate limit in force. */
export const rateLimitStatusSchema = z.object({
  rateLimit: z.string().meta({ description: '"RPS/BURST", or "off"', example: "20/5" }),
  requestsPerSecond: z.number().nullable(),
  burst: z.number().int().nullable(),
  retryAfter: z.boolean(),
  status: z.union(RATE_LIMIT_STATUSES.map((status) => z.literal(status))),
});
true satisfies Describes<typeof rateLimitStatusSchema, RateLimitStatus>;

/** One API request in the request log. */
export const requestLogEntrySchema = z.object({
  seq: z.number().int().min(1),
  time: timestamp,
  method: z.string(),
  path: z.string(),
  query: z.record(z.string(), z.unknown()),
  status: z.number().int().meta({ description: "0 for a connection a fault reset, 499 for a client that gave up" }),
  auth: z.enum(["api_key", "bearer", "none", "invalid"]),
  durationMs: z.number().min(0),
  fault: z.enum(["status", "reset", "delay"]).optional(),
  rateLimited: z.literal(true).optional(),
  linkedAccountId: z.string().optional().meta({ description: "The linked account the request names" }),
});
true satisfies Describes<typeof requestLogEntrySchema, RequestLogEntry>;

/** One workflow run. */
export const workflowRunSchema = z.object({
  instance_id: z.string(),
  linked_account_id: z.string(),
  slug: z.string(),
  config_id: z.string(),
  workflow_id: z.string(),
  workflow_name: z.string(),
  status: z.enum(["RUNNING", ...WORKFLOW_RUN_STATUSES]),
  outcome: z.enum(WORKFLOW_RUN_STATUSES),
  startedAt: timestamp,
  finishedAt: timestamp.nullable(),
  deliveries: z.array(z.string()),
});
true satisfies Describes<typeof workflowRunSchema, WorkflowRun>;

const webhookEventSchema = z.enum(Object.values(WEBHOOK_EVENTS));

/** A registered webhook receiver. */
export const webhookReceiverSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventSchema),
  source: z.enum(["options", "control plane"]),
});
true satisfies Describes<typeof webhookReceiverSchema, WebhookReceiver>;

const deliveryAttemptSchema = z.object({
  number: z.number().int().min(1),
  startedAt: timestamp,
  durationMs: z.number().min(0),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
});
true satisfies Describes<typeof deliveryAttemptSchema, DeliveryAttempt>;

/** One webhook delivery, with every attempt. */
export const deliverySchema = z.object({
  seq: z.number().int().min(1),
  id: z.string(),
  receiverId: z.string(),
  url: z.string(),
  event: webhookEventSchema,
  payload: webhookPayloadSchema,
  state: z.enum(["queued", "sending", "delivered", "failed", "dropped", "cancelled"]),
  attempts: z.array(deliveryAttemptSchema),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
  redeliveryOf: z.string().nullable(),
});
true satisfies Describes<typeof deliverySchema, Delivery>;

const ok = z.object({ status: z.literal("ok") });
const rules = z.object({ rules: z.array(faultRuleViewSchema) });
const receivers = z.object({ receivers: z.array(webhookReceiverSchema) });
const snapshotParams = z.object({ name: snapshotNameSchema.meta({ examples: ["seeded"] }) });
const SNAPSHOT = `${CONTROL_PREFIX}/snapshots/:name`;
const RUNS = `${CONTROL_PREFIX}/workflow-runs`;
const WEBHOOKS = `${CONTROL_PREFIX}/webhooks`;
const BAD_NAME = "A name that is not a snapshot's: 1 to 64 letters, digits, '.', '_' or '-'";

/** The control plane's own operations: health, reset, snapshots, state, request log, faults and rate limit. */
const emulatorDocs: OperationDocs = {
  [`${CONTROL_PREFIX}/health`]: {
    get: {
      operationId: "health",
      summary: "Answers ok",
      caller: "control plane",
      answer: { schema: ok, description: "Up" },
    },
  },
  [`${CONTROL_PREFIX}/reset`]: {
    post: {
      operationId: "reset",
      summary: "Puts the fixture's state back (and writes it to --data); refills the rate limit, forgets runs",
      caller: "control plane",
      answer: { schema: ok, description: "Reset" },
    },
  },
  [`${CONTROL_PREFIX}/snapshots`]: {
    get: {
      operationId: "listSnapshots",
      summary: "Lists the snapshots, in memory and in the --snapshots folder",
      caller: "control plane",
      answer: { schema: z.object({ snapshots: z.array(snapshotInfoSchema) }), description: "The snapshots, by name" },
    },
  },
  [SNAPSHOT]: {
    put: {
      operationId: "saveSnapshot",
      summary: "Saves the state under a name, replacing a snapshot of that name",
      caller: "control plane",
      params: { path: snapshotParams },
      answer: { schema: snapshotInfoSchema, description: "Saved" },
      errors: { 400: BAD_NAME },
    },
    delete: {
      operationId: "deleteSnapshot",
      summary: "Deletes a snapshot, from memory and from the folder",
      caller: "control plane",
      params: { path: snapshotParams },
      answer: { schema: z.object({ deleted: snapshotNameSchema }), description: "Deleted" },
      errors: { 400: BAD_NAME, 404: "No snapshot of this name" },
    },
  },
  [`${SNAPSHOT}/restore`]: {
    post: {
      operationId: "restoreSnapshot",
      summary: "Puts a snapshot's state in place of the current one, as a reset does the fixture's",
      caller: "control plane",
      params: { path: snapshotParams },
      answer: { schema: snapshotInfoSchema, description: "Restored" },
      errors: { 400: `${BAD_NAME}; or its file is not a valid state`, 404: "No snapshot of this name" },
    },
  },
  [`${CONTROL_PREFIX}/state`]: {
    get: {
      operationId: "getState",
      summary: "The whole state, encrypted env values in clear, in the format of a --data file and a fixture",
      caller: "control plane",
      answer: { schema: emulatorStateSchema, description: "The state", asFormat: "EmulatorState" },
    },
  },
  [`${CONTROL_PREFIX}/requests`]: {
    get: {
      operationId: "listRequests",
      summary: "The request log: API requests, oldest first",
      caller: "control plane",
      params: { query: sinceQuerySchema },
      answer: { schema: z.array(requestLogEntrySchema), description: "The entries after `since`" },
      errors: { 400: "A since that is no whole number" },
    },
    delete: {
      operationId: "clearRequests",
      summary: "Empties the request log; sequence numbers keep counting",
      caller: "control plane",
      answer: { schema: z.object({ cleared: count }), description: "How many entries were dropped" },
    },
  },
  [`${CONTROL_PREFIX}/faults`]: {
    get: {
      operationId: "listFaults",
      summary: "Lists the fault rules",
      caller: "control plane",
      answer: { schema: rules, description: "The rules, in evaluation order" },
    },
    post: {
      operationId: "addFaults",
      summary: "Appends fault rules: matching API requests get a status, a reset connection or a delay",
      caller: "control plane",
      body: faultRulesBodySchema,
      answer: { schema: rules, description: "Every rule" },
      errors: { 400: "A rule that does not fit; none is added" },
    },
    delete: {
      operationId: "clearFaults",
      summary: "Removes every fault rule",
      caller: "control plane",
      answer: { schema: rules, description: "No rules" },
    },
  },
  [`${CONTROL_PREFIX}/faults/:id`]: {
    delete: {
      operationId: "deleteFault",
      summary: "Removes one fault rule",
      caller: "control plane",
      params: { path: faultIdSchema },
      answer: { schema: rules, description: "The rules left" },
      errors: { 400: "An id that is no whole number from 1", 404: "No rule has this id" },
    },
  },
  [`${CONTROL_PREFIX}/rate-limit`]: {
    get: {
      operationId: "getRateLimit",
      summary: "The rate limit in force",
      caller: "control plane",
      answer: { schema: rateLimitStatusSchema, description: "The limit" },
    },
    put: {
      operationId: "setRateLimit",
      summary: "Changes the rate limit, Retry-After and the status it answers with; at once, for every credential",
      caller: "control plane",
      body: rateLimitChangeSchema,
      answer: { schema: rateLimitStatusSchema, description: "The new limit" },
      errors: { 400: "A change that does not fit; nothing changes" },
    },
  },
};

/** Workflow runs and webhooks (controlWebhooks.ts). */
const runAndWebhookDocs: OperationDocs = {
  [RUNS]: {
    post: {
      operationId: "startWorkflowRun",
      summary: "Starts a run of a published workflow enabled for a config; it ends with `outcome` after `delay_ms`",
      caller: "control plane",
      body: runRequestSchema,
      answer: { schema: z.object({ run: workflowRunSchema }), status: 201, description: "Started" },
      errors: {
        400: "A body that does not fit",
        404: "No such linked account, application, workflow or config",
        409: "A draft or disabled workflow, or 1,000 runs running",
      },
    },
    get: {
      operationId: "listWorkflowRuns",
      summary: "Lists the runs kept: every running one and the last 1,000 finished",
      caller: "control plane",
      answer: { schema: z.object({ runs: z.array(workflowRunSchema) }), description: "The runs, oldest first" },
    },
  },
  [`${RUNS}/:id`]: {
    get: {
      operationId: "getWorkflowRun",
      summary: "One run",
      caller: "control plane",
      params: { path: runParamsSchema },
      answer: { schema: z.object({ run: workflowRunSchema }), description: "The run" },
      errors: { 404: "No run kept has this instance_id" },
    },
  },
  [`${RUNS}/:id/stop`]: {
    post: {
      operationId: "stopWorkflowRun",
      summary: "Stops a running run: it ends STOPPED, with its audit entry and webhook",
      caller: "control plane",
      params: { path: runParamsSchema },
      answer: { schema: z.object({ run: workflowRunSchema }), description: "Stopped" },
      errors: { 404: "No run kept has this instance_id", 409: "The run has ended already" },
    },
  },
  [`${WEBHOOKS}/receivers`]: {
    get: {
      operationId: "listWebhookReceivers",
      summary: "Lists the webhook receivers, and the deliveries' timing",
      caller: "control plane",
      answer: {
        schema: receivers.extend({ timeoutMs: z.number(), backoffMs: z.number(), retries: count }),
        description: "The receivers, oldest first",
      },
    },
    post: {
      operationId: "addWebhookReceiver",
      summary: "Registers a webhook receiver for some or all of the four workflow events",
      caller: "control plane",
      body: webhookReceiverBodySchema,
      answer: { schema: z.object({ receiver: webhookReceiverSchema }), status: 201, description: "Registered" },
      errors: { 400: "A URL that is not http(s) or carries credentials, an unknown event, or 100 receivers already" },
    },
  },
  [`${WEBHOOKS}/receivers/:id`]: {
    delete: {
      operationId: "removeWebhookReceiver",
      summary: "Unregisters a receiver; its queued deliveries are still sent",
      caller: "control plane",
      params: { path: receiverParamsSchema },
      answer: { schema: receivers, description: "The receivers left" },
      errors: { 404: "No receiver has this id" },
    },
  },
  [`${WEBHOOKS}/deliveries`]: {
    get: {
      operationId: "listWebhookDeliveries",
      summary: "The delivery log: the newest 1,000 deliveries, oldest first",
      caller: "control plane",
      params: { query: sinceQuerySchema },
      answer: {
        schema: z.object({ deliveries: z.array(deliverySchema), pending: count }),
        description: "The deliveries after `since`, and how many are queued or being sent",
      },
      errors: { 400: "A since that is no whole number" },
    },
  },
  [`${WEBHOOKS}/deliveries/:id`]: {
    get: {
      operationId: "getWebhookDelivery",
      summary: "One delivery, with every attempt",
      caller: "control plane",
      params: { path: deliveryParamsSchema },
      answer: { schema: z.object({ delivery: deliverySchema }), description: "The delivery" },
      errors: { 404: "No delivery in the log has this id" },
    },
  },
  [`${WEBHOOKS}/deliveries/:id/redeliver`]: {
    post: {
      operationId: "redeliverWebhookDelivery",
      summary: "Sends a logged delivery's payload again to the same URL, as a new delivery",
      caller: "control plane",
      params: { path: deliveryParamsSchema },
      answer: { schema: z.object({ delivery: deliverySchema }), status: 201, description: "Queued" },
      errors: { 404: "No delivery in the log has this id" },
    },
  },
};

/** Every operation of the control plane but the document's own (openApiDocument.ts). */
export const CONTROL_DOCS: OperationDocs = { ...emulatorDocs, ...runAndWebhookDocs };

// The audit log (docs/design/contract.md#audit-logs): every write through the public API, and every
// workflow run's steps, record one entry here; its public operation lists them, newest first.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { OperationDocs } from "../operationDoc";
import { pageSchema, paginate, paginationQuerySchema } from "../pagination";
import {
  defineObject,
  idSchema,
  newObjectId,
  now,
  timestampSchema,
  type Actor,
  type StoreCore,
} from "../platformObject";
import { accepts } from "../requests";
import { parseInput } from "../validation";

/** Newest audit entries kept; older ones are dropped so the data file stays small. */
export const AUDIT_CAPACITY = 10_000;

/** Kinds of audit entries the emulator writes. */
export const AUDIT_EVENT_TYPES = [
  "CONFIG_FIELD_UPDATED",
  "APPLICATION_EVENT_UPDATED",
  "WORKFLOW_ENABLED",
  "WORKFLOW_DISABLED",
  "ENV_VALUE_SET",
  "ENV_VALUE_DELETED",
  "WORKFLOW_RUN_STARTED",
  "WORKFLOW_RUN_COMPLETED",
  "WORKFLOW_RUN_ERRORED",
  "WORKFLOW_RUN_STOPPED",
  "WORKFLOW_RUN_TIMED_OUT",
] as const;

/** One audit log entry (the platform does not document this shape; this is the emulator's). */
export const auditEntrySchema = z.object({
  _id: idSchema,
  event_type: z.enum(AUDIT_EVENT_TYPES),
  linked_account_id: z.string().nullable(),
  slug: z.string().nullable(),
  config_id: z.string().nullable(),
  workflow_id: z.string().nullable(),
  resource_id: z.string().nullable(),
  /** Who caused it: a credential of the public API, or the platform itself (a workflow run). */
  auth: z.enum(["api_key", "bearer", "platform"]),
  createdAt: timestampSchema,
});

/** Kind of an audit entry. */
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
/** An audit entry. */
export type AuditEntry = z.output<typeof auditEntrySchema>;

/** What an audit entry points at; anything omitted is recorded as null. */
export type AuditRefs = Partial<
  Pick<AuditEntry, "linked_account_id" | "slug" | "config_id" | "workflow_id" | "resource_id">
>;

/** The audit log's part of the state. */
export interface AuditState {
  audit: AuditEntry[];
}

/** The audit log's operations: `store.audit`. Every object that writes records through them. */
export class Audit {
  constructor(private readonly store: StoreCore<AuditState>) {}

  /** Appends an audit entry (dropping the oldest beyond AUDIT_CAPACITY). */
  record(entry: Omit<AuditEntry, "_id" | "createdAt">): AuditEntry {
    const log = this.store.state.audit;
    const recorded: AuditEntry = { _id: newObjectId(), ...entry, createdAt: now() };
    log.push(recorded);
    if (log.length > AUDIT_CAPACITY) log.splice(0, log.length - AUDIT_CAPACITY);
    return recorded;
  }

  /** Audits a change made through the public API and persists it; the answer goes out only after this resolves. */
  async recordChange(eventType: AuditEventType, refs: AuditRefs, actor: Actor): Promise<void> {
    this.record({
      event_type: eventType,
      linked_account_id: null,
      slug: null,
      config_id: null,
      workflow_id: null,
      resource_id: null,
      ...refs,
      auth: actor,
    });
    await this.store.commit();
  }

  /** The audit log, newest entry first. */
  newestFirst(): AuditEntry[] {
    return [...this.store.state.audit].reverse();
  }
}

/** An audit log item as the list answers it: the entry as stored. */
export const auditViewSchema = auditEntrySchema;

/** An audit log item (the emulator's own shape; the platform does not document one). */
export function auditView(entry: AuditEntry): z.output<typeof auditViewSchema> {
  const { _id, event_type, linked_account_id, slug, config_id, workflow_id, resource_id, auth, createdAt } = entry;
  return { _id, event_type, linked_account_id, slug, config_id, workflow_id, resource_id, auth, createdAt };
}

const LIST_URL = `${API_PREFIX}/audit/event-received`;

/** The audit log's list, as the OpenAPI document describes it. */
const auditDocs: OperationDocs = {
  [LIST_URL]: {
    get: {
      operationId: "listAuditEvents",
      summary: "Lists the audit log, newest entry first, a page at a time",
      caller: "api_key_or_bearer",
      params: { query: paginationQuerySchema },
      answer: { schema: pageSchema(auditViewSchema), description: "A page of audit entries" },
      errors: { 400: "A bad page or limit" },
    },
  },
};

/** Audit log of received events, newest first; accepts the API key or a bearer token. */
function registerAuditRoutes(app: FastifyInstance, { audit }: { audit: Audit }): void {
  app.get(LIST_URL, accepts("api_key_or_bearer"), async (request) => {
    const query = parseInput(paginationQuerySchema, request.query, "query");
    return paginate(audit.newestFirst(), query, auditView);
  });
}

/** The audit log: its entries in the state, and its list operation. */
export const audit = defineObject({
  name: "audit",
  state: { audit: z.array(auditEntrySchema).default([]) },
  operations: (store: StoreCore<AuditState>) => new Audit(store),
  routes: registerAuditRoutes,
  docs: auditDocs,
});

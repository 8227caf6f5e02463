import type { FastifyRequest } from "fastify";
import type { AuthPolicy } from "../auth";
import { badRequest, missingLinkedAccountId, notFound, workflowNotPublished } from "../errors";
import type { App, AuditEntry, AuditEventType, Config, WorkflowDefinition } from "../model";
import type { ConfigKey, EmulatorStore } from "../store";

/** Route options that declare which credentials an operation accepts. */
export function accepts(auth: AuthPolicy) {
  return { config: { auth } };
}

/** A header's value, or undefined when absent or empty. */
export function optionalHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A required header's value, or 400 "<name> is required". */
export function requireHeader(request: FastifyRequest, name: string): string {
  const value = optionalHeader(request, name);
  if (value === undefined) throw badRequest(`${name} is required`);
  return value;
}

/** The `linked_account_id` header, or the platform's 400 INVALID_LINKED_ACCOUNT_ID. */
export function requireLinkedAccountId(request: FastifyRequest): string {
  const value = optionalHeader(request, "linked_account_id");
  if (value === undefined) throw missingLinkedAccountId();
  return value;
}

/** Who made a change, as audit entries and `created_by`/`updated_by` record it. */
export function actorOf(request: FastifyRequest): "api_key" | "bearer" {
  return request.apiCall?.auth === "bearer" ? "bearer" : "api_key";
}

/** The config at `key` and its application, or 404 "Config with config id <id> not found". */
export function requireConfig(store: EmulatorStore, key: ConfigKey): { app: App; config: Config } {
  const config = store.config(key);
  const app = store.app(key.slug);
  if (!config || !app) throw configNotFound(key.configId);
  return { app, config };
}

/** 404 for a config that does not exist. */
export function configNotFound(configId: string) {
  return notFound(`Config with config id ${configId} not found`);
}

/** The workflow found for `workflowId`, or 404 when none was; a draft gives 400 WORKFLOW_NOT_PUBLISHED. */
export function requirePublishedWorkflow(
  workflow: WorkflowDefinition | undefined,
  workflowId: string,
): WorkflowDefinition {
  if (!workflow) throw notFound(`Workflow ${workflowId} not found`);
  if (!workflow.published) throw workflowNotPublished(workflowId);
  return workflow;
}

/** The linked account with this account_id, or 404. */
export function requireLinkedAccount(store: EmulatorStore, accountId: string) {
  const account = store.linkedAccount(accountId);
  if (!account) throw notFound(`Linked account ${accountId} not found`);
  return account;
}

/** What an audit entry points at; anything omitted is recorded as null. */
export type AuditRefs = Partial<
  Pick<AuditEntry, "linked_account_id" | "slug" | "config_id" | "workflow_id" | "resource_id">
>;

/** Audits a change and persists it; a route sends its response only after this resolves. */
export async function commitChange(
  store: EmulatorStore,
  request: FastifyRequest,
  eventType: AuditEventType,
  refs: AuditRefs,
): Promise<void> {
  store.recordAudit({
    event_type: eventType,
    linked_account_id: null,
    slug: null,
    config_id: null,
    workflow_id: null,
    resource_id: null,
    ...refs,
    auth: actorOf(request),
  });
  await store.commit();
}

// The emulator's state and the platform's rules over it, as a service's backend keeps them: the
// routes parse a request, call one named operation here, and render what it returns.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { bodyEntryFor, bodyWorkflowIdOf, resolveField, type FieldUpdate, type ResolvedField } from "./configFields";
import { badRequest, notFound, workflowNotPublished } from "./errors";
import {
  describeSample,
  scopeIdProblem,
  varFormatProblem,
  type App,
  type ApplicationEvent,
  type AuditEntry,
  type AuditEventType,
  type Config,
  type EmulatorState,
  type EnvDefinition,
  type EnvScope,
  type EnvValue,
  type EnvValueIds,
  type FieldState,
  type LinkedAccount,
  type NameValue,
  type VarFormat,
  type WorkflowDefinition,
  type WorkflowState,
} from "./model";
import { readDefaultFixture, readStateFile, StateFileWriter } from "./stateFile";

export { defaultFixturePath, EmulatorConfigError, packageRoot, readStateFile } from "./stateFile";

/** Newest audit entries kept; older ones are dropped so the data file stays small. */
export const AUDIT_CAPACITY = 10_000;

/** A new object id, shaped like the platform's 24-hex-digit ids. */
export function newObjectId(): string {
  return randomBytes(12).toString("hex");
}

/** The current time as the ISO string the state stores. */
export function now(): string {
  return new Date().toISOString();
}

/** Options of `EmulatorStore.open`. */
export interface StoreOptions {
  /** Fixture file that seeds the state and that `reset()` returns to (default: the package's default fixture). */
  fixtures?: string;
  /** State file: loaded at start when it exists, rewritten after every change. */
  data?: string;
}

/** Where a config lives: the linked account, the application and the config id. */
export interface ConfigKey {
  linkedAccountId: string;
  slug: string;
  configId: string;
}

/** Who changed something, as audit entries and `created_by`/`updated_by` record it. */
export type Actor = "api_key" | "bearer";

/** What an audit entry points at; anything omitted is recorded as null. */
export type AuditRefs = Partial<
  Pick<AuditEntry, "linked_account_id" | "slug" | "config_id" | "workflow_id" | "resource_id">
>;

/** Filters of the env variable definitions' list; `name` matches any part of the name, in any case. */
export interface EnvDefinitionFilter {
  scope?: EnvScope;
  var_format?: VarFormat;
  name?: string;
}

/** Filters of the env values' list, besides the scope. */
export interface EnvValueFilter extends EnvValueIds {
  variable_definition_id?: string;
}

/** A value to set through the public API: which definition, the text, and where it applies. */
export interface EnvValueRequest extends EnvValueIds {
  variable_definition_id: string;
  value: string;
}

/** An env value with its definition, which says how the value is shown. */
export interface DefinedEnvValue {
  definition: EnvDefinition;
  value: EnvValue;
}

/** Filters of the linked accounts' list: part of the name, or a linked_account-scope env value. */
export interface LinkedAccountFilter {
  search?: string;
  envVariable?: { name: string; value: string };
}

/** A field update as the route parsed it: where the field is, which one, and the body. */
export interface FieldUpdateRequest {
  key: ConfigKey;
  fieldId: string;
  /** The `workflow_id` query, which names the field's workflow outright. */
  workflowId?: string;
  update: FieldUpdate;
}

/** A value to upsert with `setEnvValue`. */
export interface EnvValueInput {
  definition: EnvDefinition;
  value: string;
  linkedAccountId: string | null;
  workflowId: string | null;
  actor: string;
}

/**
 * The emulator's state and its persistence. Finders return live objects; the synchronous
 * mutators change them in place and must be followed by `await store.commit()` (or run inside
 * `store.update(fn)`) so the change reaches the data file before anyone is told about it.
 */
export class EmulatorStore {
  private constructor(
    private readonly fixture: EmulatorState,
    /** The live state; `reset()` refills this same object, so references to it stay valid. */
    readonly state: EmulatorState,
    private readonly writer: StateFileWriter | null,
  ) {}

  /** Loads the fixture, then the data file when it exists (else seeds it from the fixture and writes it). */
  static async open(options: StoreOptions): Promise<EmulatorStore> {
    const fixture =
      options.fixtures === undefined
        ? await readDefaultFixture()
        : await readStateFile(resolve(options.fixtures), "fixture");
    const dataPath = options.data === undefined ? undefined : resolve(options.data);
    const state =
      dataPath && existsSync(dataPath) ? await readStateFile(dataPath, "data file") : structuredClone(fixture);
    let writer: StateFileWriter | null = null;
    if (dataPath) {
      await mkdir(dirname(dataPath), { recursive: true });
      writer = new StateFileWriter(dataPath, () => `${JSON.stringify(state, null, 2)}\n`);
    }
    const store = new EmulatorStore(fixture, state, writer);
    await store.commit();
    return store;
  }

  /** Persists the current state (no-op without a data file); resolves once it is on disk. */
  commit(): Promise<void> {
    return this.writer ? this.writer.save() : Promise.resolve();
  }

  /** Runs a synchronous mutation on the live state, then persists it. */
  async update(mutate: (state: EmulatorState) => void): Promise<void> {
    mutate(this.state);
    await this.commit();
  }

  /** Puts the fixture's state back and persists it. */
  async reset(): Promise<void> {
    Object.assign(this.state, structuredClone(this.fixture));
    await this.commit();
  }

  /** A deep copy of the state, safe to keep. */
  snapshot(): EmulatorState {
    return structuredClone(this.state);
  }

  /** Waits until every requested write has reached the disk. */
  async flush(): Promise<void> {
    await this.writer?.flush();
  }

  /** The application with this slug. */
  app(slug: string): App | undefined {
    return this.state.apps.find((a) => a.slug === slug);
  }

  /** The workflow with this id, in whichever application holds it. */
  workflow(workflowId: string): { app: App; workflow: WorkflowDefinition } | undefined {
    for (const app of this.state.apps) {
      const workflow = app.workflows.find((w) => w.id === workflowId);
      if (workflow) return { app, workflow };
    }
    return undefined;
  }

  /** The linked account whose `account_id` (what clients send as linked_account_id) is given. */
  linkedAccount(accountId: string): LinkedAccount | undefined {
    return this.state.linkedAccounts.find((a) => a.account_id === accountId);
  }

  /** The config at this key. */
  config({ linkedAccountId, slug, configId }: ConfigKey): Config | undefined {
    return this.state.configs.find(
      (c) => c.linked_account_id === linkedAccountId && c.slug === slug && c.config_id === configId,
    );
  }

  /** Every config of an application with this config id, across linked accounts. */
  configsWithId(slug: string, configId: string): Config[] {
    return this.state.configs.filter((c) => c.slug === slug && c.config_id === configId);
  }

  /** The application event with this id. */
  event(eventId: string): ApplicationEvent | undefined {
    return this.state.events.find((e) => e._id === eventId);
  }

  /** The env variable definition with this id. */
  envDefinition(definitionId: string): EnvDefinition | undefined {
    return this.state.envDefinitions.find((d) => d._id === definitionId);
  }

  /** The env variable definition with this name. */
  envDefinitionByName(name: string): EnvDefinition | undefined {
    return this.state.envDefinitions.find((d) => d.name === name);
  }

  /** The env value with this id. */
  envValue(valueId: string): EnvValue | undefined {
    return this.state.envValues.find((v) => v._id === valueId);
  }

  /** The one value of a definition for (linked account, workflow); null means "not set for any". */
  envValueFor(definitionId: string, linkedAccountId: string | null, workflowId: string | null): EnvValue | undefined {
    return this.state.envValues.find(
      (v) =>
        v.variable_definition_id === definitionId &&
        v.linked_account_id === linkedAccountId &&
        v.workflow_id === workflowId,
    );
  }

  /** The config's state for a workflow, created (disabled) if the config has none yet. */
  configWorkflowState(config: Config, workflowId: string): WorkflowState {
    let state = config.workflows.find((w) => w.id === workflowId);
    if (!state) {
      state = { id: workflowId, enabled: false, fields: [] };
      config.workflows.push(state);
    }
    return state;
  }

  /** The config's overrides for a global field (workflowId null) or a workflow field, created empty if absent. */
  configFieldState(config: Config, workflowId: string | null, fieldId: string): FieldState {
    const fields = workflowId === null ? config.fields : this.configWorkflowState(config, workflowId).fields;
    let state = fields.find((f) => f.id === fieldId);
    if (!state) {
      state = { id: fieldId };
      fields.push(state);
    }
    return state;
  }

  /** Creates the config (all workflows disabled) or replaces its labels; `created` says which. */
  upsertConfig(key: ConfigKey, labels: NameValue[] | undefined): { config: Config; created: boolean } {
    const existing = this.config(key);
    const timestamp = now();
    if (existing) {
      if (labels !== undefined) Object.assign(existing, { labels, updatedAt: timestamp });
      return { config: existing, created: false };
    }
    const workflows = (this.app(key.slug)?.workflows ?? []).map((w) => ({ id: w.id, enabled: false, fields: [] }));
    const config: Config = {
      linked_account_id: key.linkedAccountId,
      slug: key.slug,
      config_id: key.configId,
      labels: labels ?? [],
      fields: [],
      workflows,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.state.configs.push(config);
    return { config, created: true };
  }

  /** Adds a linked account (without configs); use `upsertConfig` to give it some. */
  addLinkedAccount(account: { account_id: string; name: string; udf?: LinkedAccount["udf"] }): LinkedAccount {
    const timestamp = now();
    const linked: LinkedAccount = {
      _id: newObjectId(),
      account_id: account.account_id,
      name: account.name,
      environment: this.state.org.environment,
      udf: account.udf ?? [],
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.state.linkedAccounts.push(linked);
    return linked;
  }

  /** Creates or updates in place the one value of (definition, linked account, workflow). */
  setEnvValue({ definition, value, linkedAccountId, workflowId, actor }: EnvValueInput): EnvValue {
    const timestamp = now();
    const existing = this.envValueFor(definition._id, linkedAccountId, workflowId);
    if (existing) {
      return Object.assign(existing, { value, updated_by: actor, updatedAt: timestamp });
    }
    const created: EnvValue = {
      _id: newObjectId(),
      variable_definition_id: definition._id,
      org_id: this.state.org._id,
      environment: this.state.org.environment,
      linked_account_id: linkedAccountId,
      workflow_id: workflowId,
      value,
      created_by: actor,
      updated_by: actor,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.state.envValues.push(created);
    return created;
  }

  /** Removes an env value; returns it, or undefined when there was none. */
  deleteEnvValue(valueId: string): EnvValue | undefined {
    const index = this.state.envValues.findIndex((v) => v._id === valueId);
    return index === -1 ? undefined : this.state.envValues.splice(index, 1)[0];
  }

  /** Appends an audit entry (dropping the oldest beyond AUDIT_CAPACITY). */
  recordAudit(entry: Omit<AuditEntry, "_id" | "createdAt">): AuditEntry {
    const recorded: AuditEntry = { _id: newObjectId(), ...entry, createdAt: now() };
    this.state.audit.push(recorded);
    if (this.state.audit.length > AUDIT_CAPACITY) this.state.audit.splice(0, this.state.audit.length - AUDIT_CAPACITY);
    return recorded;
  }

  /** Audits a change made through the public API and persists it; the answer goes out only after this resolves. */
  async recordChange(eventType: AuditEventType, refs: AuditRefs, actor: Actor): Promise<void> {
    this.recordAudit({
      event_type: eventType,
      linked_account_id: null,
      slug: null,
      config_id: null,
      workflow_id: null,
      resource_id: null,
      ...refs,
      auth: actor,
    });
    await this.commit();
  }

  // Configs (docs/design/contract.md#config-fields).

  /** The config at `key` and its application, or 404 "Config with config id <id> not found". */
  requireConfig(key: ConfigKey): { app: App; config: Config } {
    const config = this.config(key);
    const app = this.app(key.slug);
    if (!config || !app) throw configNotFound(key.configId);
    return { app, config };
  }

  /** The linked account with this account_id, or 404. */
  requireLinkedAccount(accountId: string): LinkedAccount {
    const account = this.linkedAccount(accountId);
    if (!account) throw notFound(`Linked account ${accountId} not found`);
    return account;
  }

  /** Creates a linked account's config of an application, or replaces its labels; 404 for an unknown app or account. */
  async saveConfig(key: ConfigKey, labels: NameValue[] | undefined): Promise<{ app: App; config: Config }> {
    const app = this.app(key.slug);
    if (!app) throw notFound(`Application with slug ${key.slug} not found`);
    this.requireLinkedAccount(key.linkedAccountId);
    const { config } = this.upsertConfig(key, labels);
    await this.commit();
    return { app, config };
  }

  /**
   * Sets a config's field from a field update: the spec's body keeps the entry's name, options and
   * labels, the `{value}` body the value. A body that does not fit changes nothing.
   */
  async updateConfigField(request: FieldUpdateRequest, actor: Actor): Promise<ResolvedField & { state: FieldState }> {
    const { key, fieldId, update } = request;
    const { app, config } = this.requireConfig(key);
    const { definition, workflow } = resolveField(app, fieldId, request.workflowId, bodyWorkflowIdOf(update, fieldId));
    if (workflow && !workflow.published) throw workflowNotPublished(workflow.id);
    const workflowId = workflow?.id ?? null;
    // Looked up before any state is touched, so that a refused body leaves the config as it was.
    const entry = update.form === "spec" ? bodyEntryFor(update, fieldId, workflowId) : undefined;
    const state = this.configFieldState(config, workflowId, fieldId);
    if (entry) {
      for (const property of ["name", "options", "labels"] as const) {
        if (entry[property] !== undefined) Object.assign(state, { [property]: entry[property] });
      }
    } else if (update.form === "value") {
      state.value = update.value;
    }
    config.updatedAt = now();
    const refs = { linked_account_id: key.linkedAccountId, slug: key.slug, config_id: key.configId };
    await this.recordChange("CONFIG_FIELD_UPDATED", { ...refs, workflow_id: workflowId, resource_id: fieldId }, actor);
    return { definition, workflow, state };
  }

  // Workflows (docs/design/contract.md#workflows).

  /**
   * Enables or disables a published workflow for a config. Without a linked account the config id
   * alone must say whose config it is.
   */
  async toggleWorkflow(
    where: { linkedAccountId?: string; slug: string; configId: string },
    workflowId: string,
    enabled: boolean,
    actor: Actor,
  ): Promise<{ app: App; config: Config }> {
    const { slug, configId } = where;
    const linkedAccountId = where.linkedAccountId ?? this.soleLinkedAccountOf(slug, configId);
    const { app, config } = this.requireConfig({ linkedAccountId, slug, configId });
    requirePublishedWorkflow(
      app.workflows.find((w) => w.id === workflowId),
      workflowId,
    );
    this.configWorkflowState(config, workflowId).enabled = enabled;
    config.updatedAt = now();
    await this.recordChange(
      enabled ? "WORKFLOW_ENABLED" : "WORKFLOW_DISABLED",
      {
        linked_account_id: linkedAccountId,
        slug,
        config_id: configId,
        workflow_id: workflowId,
        resource_id: workflowId,
      },
      actor,
    );
    return { app, config };
  }

  /** The one linked account with a config of this id; 404 for none, 400 when several have one. */
  private soleLinkedAccountOf(slug: string, configId: string): string {
    const candidates = this.configsWithId(slug, configId);
    if (candidates.length === 0) throw configNotFound(configId);
    if (candidates.length > 1) {
      throw badRequest(
        `Config id ${configId} of ${slug} exists for ${candidates.length} linked accounts; ` +
          "send the linked_account_id header",
      );
    }
    return candidates[0].linked_account_id;
  }

  // Application events (docs/design/contract.md#application-events).

  /** Every application event. */
  applicationEvents(): ApplicationEvent[] {
    return this.state.events;
  }

  /** Renames an application event and declares its response structure from a sample; 404 when unknown. */
  async updateApplicationEvent(
    eventId: string,
    change: { name: string; response: Record<string, unknown> },
    actor: Actor,
  ): Promise<ApplicationEvent> {
    const event = this.event(eventId);
    if (!event) throw notFound("Event not found");
    Object.assign(event, {
      name: change.name,
      response: describeSample(change.response),
      raw_response: JSON.stringify(change.response),
    });
    await this.recordChange("APPLICATION_EVENT_UPDATED", { resource_id: eventId }, actor);
    return event;
  }

  // Env variables (docs/design/contract.md#env-variables).

  /** The env variable definition with this id, or 404 "Variable definition not found". */
  requireEnvDefinition(definitionId: string): EnvDefinition {
    const definition = this.envDefinition(definitionId);
    if (!definition) throw notFound("Variable definition not found");
    return definition;
  }

  /** The definitions that pass every filter given. */
  findEnvDefinitions(filter: EnvDefinitionFilter): EnvDefinition[] {
    const name = filter.name?.toLowerCase();
    return this.state.envDefinitions.filter(
      (d) =>
        (filter.scope === undefined || d.scope === filter.scope) &&
        (filter.var_format === undefined || d.var_format === filter.var_format) &&
        (name === undefined || d.name.toLowerCase().includes(name)),
    );
  }

  /** The values of a scope's definitions that pass every filter; 400 when the ids do not fit the scope. */
  findEnvValues(scope: EnvScope, filter: EnvValueFilter): DefinedEnvValue[] {
    requireFittingIds(scope, filter);
    const definitions = new Map(this.state.envDefinitions.filter((d) => d.scope === scope).map((d) => [d._id, d]));
    const wanted = (id: string | undefined | null, actual: string | null) => id === undefined || id === actual;
    return this.state.envValues
      .filter(
        (v) =>
          definitions.has(v.variable_definition_id) &&
          wanted(filter.variable_definition_id, v.variable_definition_id) &&
          wanted(filter.linked_account_id, v.linked_account_id) &&
          wanted(filter.workflow_id, v.workflow_id),
      )
      .map((value) => ({ definition: definitions.get(value.variable_definition_id)!, value }));
  }

  /** A definition's one value at (linked account, workflow); 404 for an unknown definition or no value. */
  envValueAt(definitionId: string, ids: EnvValueIds): DefinedEnvValue {
    const definition = this.requireEnvDefinition(definitionId);
    requireFittingIds(definition.scope, ids);
    const value = this.envValueFor(definition._id, ids.linked_account_id ?? null, ids.workflow_id ?? null);
    if (!value) throw notFound("Variable value not found");
    return { definition, value };
  }

  /**
   * Sets a definition's value at (linked account, workflow), after the platform's checks: ids that
   * fit the scope, an existing linked account, a published workflow and a value in the definition's format.
   */
  async putEnvValue(request: EnvValueRequest, actor: Actor): Promise<DefinedEnvValue> {
    const definition = this.requireEnvDefinition(request.variable_definition_id);
    requireFittingIds(definition.scope, request);
    const linkedAccountId = request.linked_account_id ?? null;
    const workflowId = request.workflow_id ?? null;
    if (linkedAccountId !== null) this.requireLinkedAccount(linkedAccountId);
    if (workflowId !== null) requirePublishedWorkflow(this.workflow(workflowId)?.workflow, workflowId);
    const formatProblem = varFormatProblem(definition.var_format, request.value);
    if (formatProblem) throw badRequest(formatProblem);
    const value = this.setEnvValue({ definition, value: request.value, linkedAccountId, workflowId, actor });
    // Audit entries never carry the value: it may be a secret.
    const refs = { linked_account_id: linkedAccountId, workflow_id: workflowId, resource_id: value._id };
    await this.recordChange("ENV_VALUE_SET", refs, actor);
    return { definition, value };
  }

  /** Deletes an env value; 404 "Variable value not found" when there is none. */
  async removeEnvValue(valueId: string, actor: Actor): Promise<EnvValue> {
    const deleted = this.deleteEnvValue(valueId);
    if (!deleted) throw notFound("Variable value not found");
    const refs = { linked_account_id: deleted.linked_account_id, workflow_id: deleted.workflow_id };
    await this.recordChange("ENV_VALUE_DELETED", { ...refs, resource_id: deleted._id }, actor);
    return deleted;
  }

  // Linked accounts (docs/design/contract.md#linked-accounts) and the audit log (#audit-logs).

  /** The linked accounts that pass every filter given. */
  findLinkedAccounts(filter: LinkedAccountFilter): LinkedAccount[] {
    const search = filter.search?.toLowerCase();
    const withValue =
      filter.envVariable && this.accountsWithEnvValue(filter.envVariable.name, filter.envVariable.value);
    return this.state.linkedAccounts.filter(
      (a) =>
        (search === undefined || a.name.toLowerCase().includes(search)) &&
        (withValue === undefined || withValue.has(a.account_id)),
    );
  }

  /** Accounts holding a linked_account-scope value of the named definition equal to `value`. */
  private accountsWithEnvValue(name: string, value: string): Set<string> {
    const definition = this.envDefinitionByName(name);
    // Matching on an encrypted value would let a caller guess secrets one request at a time.
    if (!definition || definition.scope !== "linked_account" || definition.encrypted) return new Set();
    return new Set(
      this.state.envValues
        .filter((v) => v.variable_definition_id === definition._id && v.value === value && v.linked_account_id !== null)
        .map((v) => v.linked_account_id!),
    );
  }

  /** The audit log, newest entry first. */
  auditNewestFirst(): AuditEntry[] {
    return [...this.state.audit].reverse();
  }
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

/** 400 when a value's linked account and workflow ids do not fit its definition's scope. */
function requireFittingIds(scope: EnvScope, ids: EnvValueIds): void {
  const problem = scopeIdProblem(scope, ids);
  if (problem) throw badRequest(problem);
}

// Configs (docs/design/contract.md#config-fields): a linked account's settings of one application,
// its fields' overrides and its workflows' states. The public API creates one, reads one, and
// updates a field in the spec's body or the platform reference's `{value}` (#conflicts).
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { badRequest, notFound, workflowNotPublished } from "../errors";
import type { OperationDocs } from "../operationDoc";
import {
  checkUnique,
  defineObject,
  idSchema,
  nameValueSchema,
  now,
  timestampSchema,
  type Actor,
  type Issue,
  type NameValue,
  type StoreCore,
} from "../platformObject";
import {
  accepts,
  actorOf,
  linkedAccountIdHeader,
  optionalHeader,
  pathParameter,
  requireHeader,
  requireLinkedAccountId,
} from "../requests";
import { isPlainObject, parseInput } from "../validation";
import {
  FIELD_TYPES,
  publishedWorkflows,
  resolveField,
  type App,
  type Applications,
  type ApplicationsState,
  type FieldDefinition,
  type ResolvedField,
  type WorkflowDefinition,
} from "./applications";
import type { Audit } from "./audit";
import type { LinkedAccounts, LinkedAccountsState } from "./linkedAccounts";

/** A config's overrides for one field; absent properties fall back to the field definition. */
export const fieldStateSchema = z.object({
  id: idSchema,
  name: z.string().optional(),
  options: z.array(nameValueSchema).optional(),
  labels: z.array(nameValueSchema).optional(),
  value: z.unknown().optional(),
});

/** A config's state for one workflow of its application. */
export const workflowStateSchema = z.object({
  id: idSchema,
  enabled: z.boolean().default(false),
  fields: z.array(fieldStateSchema).default([]),
});

/** A linked account's config of one application; keyed by (linked_account_id, slug, config_id). */
export const configSchema = z
  .object({
    linked_account_id: idSchema,
    slug: idSchema,
    config_id: idSchema.optional(),
    labels: z.array(nameValueSchema).default([]),
    fields: z.array(fieldStateSchema).default([]),
    workflows: z.array(workflowStateSchema).default([]),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .transform((config) => ({ ...config, config_id: config.config_id ?? config.linked_account_id }));

/** A config's overrides for one field. */
export type FieldState = z.output<typeof fieldStateSchema>;
/** A config's state for one workflow. */
export type WorkflowState = z.output<typeof workflowStateSchema>;
/** A config. */
export type Config = z.output<typeof configSchema>;

/** The configs' part of the state. */
export interface ConfigsState {
  configs: Config[];
}

/** Where a config lives: the linked account, the application and the config id. */
export interface ConfigKey {
  linkedAccountId: string;
  slug: string;
  configId: string;
}

/** One field's entry in the body of a field update: the overrides to keep. */
export interface FieldEntry {
  id: string;
  name?: string;
  options?: NameValue[];
  labels?: NameValue[];
}

/** The field update's body: the spec's form with `fields` and `workflows`, or the platform reference's `{value}`. */
export type FieldUpdate =
  | { form: "spec"; fields: FieldEntry[]; workflows: { id: string; fields: FieldEntry[] }[] }
  | { form: "value"; value: unknown };

/** The workflow whose entry in the spec's body lists the field, if any. */
export function bodyWorkflowIdOf(update: FieldUpdate, fieldId: string): string | undefined {
  return update.form === "spec" ? update.workflows.find((w) => w.fields.some((f) => f.id === fieldId))?.id : undefined;
}

/** The body's entry for the field: in `fields` for a global field, in its workflow's `fields` otherwise. */
export function bodyEntryFor(
  update: Extract<FieldUpdate, { form: "spec" }>,
  fieldId: string,
  workflowId: string | null,
): FieldEntry {
  const entries =
    workflowId === null ? update.fields : (update.workflows.find((w) => w.id === workflowId)?.fields ?? []);
  const entry = entries.find((f) => f.id === fieldId);
  if (!entry) {
    const where = workflowId === null ? "fields" : `the fields of workflows entry ${workflowId}`;
    throw badRequest(`The body has no entry for field ${fieldId} in ${where}`);
  }
  return entry;
}

/** A field update as the route parsed it: where the field is, which one, and the body. */
export interface FieldUpdateRequest {
  key: ConfigKey;
  fieldId: string;
  /** The `workflow_id` query, which names the field's workflow outright. */
  workflowId?: string;
  update: FieldUpdate;
}

/** What the configs take of the store: their state, the applications, the linked accounts and the audit log. */
export type ConfigsStore = StoreCore<ConfigsState> & {
  applications: Applications;
  linkedAccounts: LinkedAccounts;
  audit: Audit;
};

/** The configs' operations: `store.configs`. */
export class Configs {
  constructor(private readonly store: ConfigsStore) {}

  /** The config at this key. */
  find({ linkedAccountId, slug, configId }: ConfigKey): Config | undefined {
    return this.store.state.configs.find(
      (c) => c.linked_account_id === linkedAccountId && c.slug === slug && c.config_id === configId,
    );
  }

  /** Every config of an application with this config id, across linked accounts. */
  withId(slug: string, configId: string): Config[] {
    return this.store.state.configs.filter((c) => c.slug === slug && c.config_id === configId);
  }

  /** The config's state for a workflow, created (disabled) if the config has none yet. */
  workflowState(config: Config, workflowId: string): WorkflowState {
    let state = config.workflows.find((w) => w.id === workflowId);
    if (!state) {
      state = { id: workflowId, enabled: false, fields: [] };
      config.workflows.push(state);
    }
    return state;
  }

  /** The config's overrides for a global field (workflowId null) or a workflow field, created empty if absent. */
  fieldState(config: Config, workflowId: string | null, fieldId: string): FieldState {
    const fields = workflowId === null ? config.fields : this.workflowState(config, workflowId).fields;
    let state = fields.find((f) => f.id === fieldId);
    if (!state) {
      state = { id: fieldId };
      fields.push(state);
    }
    return state;
  }

  /** Creates the config (all workflows disabled) or replaces its labels; `created` says which. */
  upsert(key: ConfigKey, labels: NameValue[] | undefined): { config: Config; created: boolean } {
    const existing = this.find(key);
    const timestamp = now();
    if (existing) {
      if (labels !== undefined) Object.assign(existing, { labels, updatedAt: timestamp });
      return { config: existing, created: false };
    }
    const app = this.store.applications.find(key.slug);
    const workflows = (app?.workflows ?? []).map((w) => ({ id: w.id, enabled: false, fields: [] }));
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
    this.store.state.configs.push(config);
    return { config, created: true };
  }

  /** The config at `key` and its application, or 404 "Config with config id <id> not found". */
  require(key: ConfigKey): { app: App; config: Config } {
    const config = this.find(key);
    const app = this.store.applications.find(key.slug);
    if (!config || !app) throw configNotFound(key.configId);
    return { app, config };
  }

  /** Creates a linked account's config of an application, or replaces its labels; 404 for an unknown app or account. */
  async save(key: ConfigKey, labels: NameValue[] | undefined): Promise<{ app: App; config: Config }> {
    const app = this.store.applications.find(key.slug);
    if (!app) throw notFound(`Application with slug ${key.slug} not found`);
    this.store.linkedAccounts.require(key.linkedAccountId);
    const { config } = this.upsert(key, labels);
    await this.store.commit();
    return { app, config };
  }

  /**
   * Sets a config's field from a field update: the spec's body keeps the entry's name, options and
   * labels, the `{value}` body the value. A body that does not fit changes nothing.
   */
  async updateField(request: FieldUpdateRequest, actor: Actor): Promise<ResolvedField & { state: FieldState }> {
    const { key, fieldId, update } = request;
    const { app, config } = this.require(key);
    const { definition, workflow } = resolveField(app, fieldId, request.workflowId, bodyWorkflowIdOf(update, fieldId));
    if (workflow && !workflow.published) throw workflowNotPublished(workflow.id);
    const workflowId = workflow?.id ?? null;
    // Looked up before any state is touched, so that a refused body leaves the config as it was.
    const entry = update.form === "spec" ? bodyEntryFor(update, fieldId, workflowId) : undefined;
    const state = this.fieldState(config, workflowId, fieldId);
    if (entry) {
      for (const property of ["name", "options", "labels"] as const) {
        if (entry[property] !== undefined) Object.assign(state, { [property]: entry[property] });
      }
    } else if (update.form === "value") {
      state.value = update.value;
    }
    config.updatedAt = now();
    const refs = { linked_account_id: key.linkedAccountId, slug: key.slug, config_id: key.configId };
    await this.store.audit.recordChange(
      "CONFIG_FIELD_UPDATED",
      { ...refs, workflow_id: workflowId, resource_id: fieldId },
      actor,
    );
    return { definition, workflow, state };
  }
}

/** 404 for a config that does not exist. */
export function configNotFound(configId: string) {
  return notFound(`Config with config id ${configId} not found`);
}

function checkConfigs(state: ConfigsState & ApplicationsState & LinkedAccountsState, issue: Issue): void {
  checkUnique(issue, state.configs, (c) => `${c.linked_account_id}/${c.slug}/${c.config_id}`, "configs", "config");
  const accounts = new Set(state.linkedAccounts.map((a) => a.account_id));
  state.configs.forEach((config, i) => {
    const app = state.apps.find((a) => a.slug === config.slug);
    if (!app) return issue(["configs", i, "slug"], `unknown app ${config.slug}`);
    if (!accounts.has(config.linked_account_id)) {
      issue(["configs", i, "linked_account_id"], `unknown linked account ${config.linked_account_id}`);
    }
    config.fields.forEach((f, j) => {
      if (!app.fields.some((d) => d.id === f.id)) {
        issue(["configs", i, "fields", j, "id"], `unknown field ${f.id} of app ${app.slug}`);
      }
    });
    config.workflows.forEach((w, j) => {
      const workflow = app.workflows.find((d) => d.id === w.id);
      if (!workflow) return issue(["configs", i, "workflows", j, "id"], `unknown workflow ${w.id} of app ${app.slug}`);
      w.fields.forEach((f, k) => {
        if (!workflow.fields.some((d) => d.id === f.id)) {
          issue(["configs", i, "workflows", j, "fields", k, "id"], `unknown field ${f.id} of workflow ${w.id}`);
        }
      });
    });
  });
}

// Views: the wire shapes of configs (docs/design/contract.md#config-fields).

/** A config field as the field update operation returns it (docs/design/contract.md#config-fields). */
export const configFieldViewSchema = z.object({
  required: z.boolean(),
  id: z.string(),
  name: z.string(),
  has_dynamic_map_fields: z.boolean(),
  field_type: z.enum(FIELD_TYPES),
  options: z.array(nameValueSchema),
  dynamic_slot_identifier: z.string(),
  hidden: z.boolean(),
});

/** A config field inside a get-config response: the 2.1 object plus labels and value. */
export const configFieldDetailViewSchema = configFieldViewSchema.extend({
  labels: z.array(nameValueSchema),
  value: z.unknown().meta({ description: "The field's value: any JSON, null when not set" }),
});

/** A workflow with its toggle, as the workflow toggle operation lists it. */
export const workflowSummaryViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
});

/** The get-config / upsert-config response; `labels` is an addition of the emulator. */
export const configViewSchema = z.object({
  slug: z.string(),
  config_id: z.string(),
  fields: z.array(configFieldDetailViewSchema),
  workflows: z.array(workflowSummaryViewSchema.extend({ fields: z.array(configFieldDetailViewSchema) })),
  field_errors: z.array(z.unknown()),
  labels: z.array(nameValueSchema),
});

/** A config field as the field update operation returns it. */
export type ConfigFieldView = z.output<typeof configFieldViewSchema>;
/** A config field inside a get-config response. */
export type ConfigFieldDetailView = z.output<typeof configFieldDetailViewSchema>;
/** A workflow with its toggle. */
export type WorkflowSummaryView = z.output<typeof workflowSummaryViewSchema>;
/** The get-config / upsert-config response. */
export type ConfigView = z.output<typeof configViewSchema>;

/** The config's override over the field definition; `disableFieldOptions` empties `options`. */
export function configFieldView(
  definition: FieldDefinition,
  state: FieldState | undefined,
  disableFieldOptions = false,
): ConfigFieldView {
  return {
    required: definition.required,
    id: definition.id,
    name: state?.name ?? definition.name,
    has_dynamic_map_fields: definition.has_dynamic_map_fields,
    field_type: definition.field_type,
    options: disableFieldOptions ? [] : (state?.options ?? definition.options),
    dynamic_slot_identifier: definition.dynamic_slot_identifier,
    hidden: definition.hidden,
  };
}

function configFieldDetailView(definition: FieldDefinition, states: FieldState[]): ConfigFieldDetailView {
  const state = states.find((s) => s.id === definition.id);
  return { ...configFieldView(definition, state), labels: state?.labels ?? [], value: state?.value ?? null };
}

/** The config's published workflows with their toggles. */
export function workflowSummaries(app: App, config: Config): WorkflowSummaryView[] {
  return publishedWorkflows(app).map((workflow) => workflowSummaryView(workflow, config));
}

function workflowSummaryView(workflow: WorkflowDefinition, config: Config): WorkflowSummaryView {
  const enabled = config.workflows.find((w) => w.id === workflow.id)?.enabled ?? false;
  return { id: workflow.id, name: workflow.name, description: workflow.description, enabled };
}

/** The whole config as get config returns it; `labels` is an addition of the emulator. */
export function configView(app: App, config: Config): ConfigView {
  return {
    slug: config.slug,
    config_id: config.config_id,
    fields: app.fields.map((f) => configFieldDetailView(f, config.fields)),
    workflows: publishedWorkflows(app).map((workflow) => {
      const states = config.workflows.find((w) => w.id === workflow.id)?.fields ?? [];
      return {
        ...workflowSummaryView(workflow, config),
        fields: workflow.fields.map((f) => configFieldDetailView(f, states)),
      };
    }),
    field_errors: [],
    labels: config.labels,
  };
}

// Routes: the request's parsing; the rules are the operations' above.

const fieldInputSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  options: z.array(nameValueSchema).optional(),
  labels: z.array(nameValueSchema).optional(),
});

/** The spec's field update body (docs/design/contract.md#config-fields). */
export const specFieldBodySchema = z.object({
  slug: z.string(),
  config_id: z.string(),
  fields: z.array(fieldInputSchema),
  workflows: z.array(z.object({ id: z.string(), name: z.string().optional(), fields: z.array(fieldInputSchema) })),
});

/** The platform reference's field update body: just the value (slug and config_id may ride along). */
export const valueFieldBodySchema = z
  .object({
    value: z.unknown().meta({ description: "The field's new value: any JSON" }),
    slug: z.string().optional(),
    config_id: z.string().optional(),
  })
  .meta({ examples: [{ value: "sales" }] });

/** The field update's query: the field's workflow, and the config when the body does not say. */
export const fieldQuerySchema = z.object({
  workflow_id: z.string().min(1).optional().meta({ description: "The workflow whose field this is" }),
  config_id: z.string().min(1).optional().meta({ description: "The config (default: the linked account's id)" }),
});
/** The upsert's body: the application, the config id and its labels. */
export const upsertConfigBodySchema = z
  .object({
    slug: z.string().min(1),
    config_id: z.string().min(1).optional(),
    labels: z.array(nameValueSchema).optional(),
  })
  .meta({ examples: [{ slug: "hubspot", config_id: "acme", labels: [{ name: "tier", value: "gold" }] }] });
/** The field update's path. */
export const fieldParamsSchema = z.object({ fieldId: pathParameter("The field's id", "hs_pipeline") });
/** A config's path: the application and the config id. */
export const configParamsSchema = z.object({
  slug: pathParameter("The application's slug", "hubspot"),
  config_id: pathParameter("The config's id (the linked account's id by default)", "acme"),
});
/** The field update's headers. */
export const fieldHeadersSchema = z.object({
  linked_account_id: linkedAccountIdHeader,
  slug: z
    .string()
    .min(1)
    .meta({ description: "The application's slug", examples: ["hubspot"] }),
  disable_field_options: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "true answers the field with its options emptied" }),
});

type FieldBody =
  | ({ form: "spec" } & z.output<typeof specFieldBodySchema>)
  | ({ form: "value" } & z.output<typeof valueFieldBodySchema>);

const URLS = {
  field: `${API_PREFIX}/config/field/:fieldId`,
  config: `${API_PREFIX}/slug/:slug/config/:config_id`,
  upsert: `${API_PREFIX}/config`,
};
const LINKED_ACCOUNT_HEADER = z.object({ linked_account_id: linkedAccountIdHeader });

/** The config operations, as the OpenAPI document describes them. */
const configDocs: OperationDocs = {
  [URLS.field]: {
    put: {
      operationId: "updateConfigField",
      summary:
        "Sets a config's field: the spec's body keeps its name, options and labels, the `{value}` body its value",
      description:
        "A body with `fields` or `workflows` is the spec's; one with `value` alone is the platform reference's. " +
        "A body that does not fit changes nothing.",
      caller: "api_key",
      params: { path: fieldParamsSchema, query: fieldQuerySchema, header: fieldHeadersSchema },
      body: z.union([specFieldBodySchema, valueFieldBodySchema]),
      answer: { schema: configFieldViewSchema, description: "The field as the config now has it" },
      errors: {
        400:
          "A missing header or a bad body; a slug that disagrees with the header's; an unknown field; " +
          "a draft workflow; a spec body with no entry for the field",
        404: "No such config, or no such workflow",
      },
    },
  },
  [URLS.config]: {
    get: {
      operationId: "getConfig",
      summary: "Gets a linked account's config of an application: its fields and its published workflows",
      caller: "api_key",
      params: { path: configParamsSchema, header: LINKED_ACCOUNT_HEADER },
      answer: { schema: configViewSchema, description: "The config" },
      errors: { 400: "No linked_account_id header", 404: "No such config" },
    },
  },
  [URLS.upsert]: {
    post: {
      operationId: "upsertConfig",
      summary: "Creates a linked account's config of an application (every workflow disabled), or replaces its labels",
      caller: "api_key",
      params: { header: LINKED_ACCOUNT_HEADER },
      body: upsertConfigBodySchema,
      answer: { schema: configViewSchema, description: "The config" },
      errors: { 400: "No linked_account_id header, or a bad body", 404: "No such application or linked account" },
    },
  },
};

/** Config routes: update a field (docs/design/contract.md#config-fields), get a config, upsert a config. */
function registerConfigRoutes(app: FastifyInstance, { configs }: { configs: Configs }): void {
  app.put(URLS.field, accepts("api_key"), async (request) => {
    const { fieldId } = parseInput(fieldParamsSchema, request.params, "params");
    const query = parseInput(fieldQuerySchema, request.query, "query");
    const linkedAccountId = requireLinkedAccountId(request);
    const slug = requireHeader(request, "slug");
    const disableFieldOptions = parseDisableFieldOptions(request);
    const update = parseFieldBody(request.body);
    if (update.slug !== undefined && update.slug !== slug) {
      throw badRequest(`slug: the body's slug ${update.slug} does not match the slug header ${slug}`);
    }
    const key = { linkedAccountId, slug, configId: update.config_id ?? query.config_id ?? linkedAccountId };
    const fieldUpdate = { key, fieldId, workflowId: query.workflow_id, update };
    const { definition, state } = await configs.updateField(fieldUpdate, actorOf(request));
    return configFieldView(definition, state, disableFieldOptions);
  });

  app.get(URLS.config, accepts("api_key"), async (request) => {
    const { slug, config_id: configId } = parseInput(configParamsSchema, request.params, "params");
    const linkedAccountId = requireLinkedAccountId(request);
    const { app: application, config } = configs.require({ linkedAccountId, slug, configId });
    return configView(application, config);
  });

  app.post(URLS.upsert, accepts("api_key"), async (request) => {
    const linkedAccountId = requireLinkedAccountId(request);
    const body = parseInput(upsertConfigBodySchema, request.body);
    const key = { linkedAccountId, slug: body.slug, configId: body.config_id ?? linkedAccountId };
    const { app: application, config } = await configs.save(key, body.labels);
    return configView(application, config);
  });
}

/** Tells the spec's body from the `{value}` body; a body with `fields` or `workflows` is the spec's. */
function parseFieldBody(body: unknown): FieldBody {
  if (isPlainObject(body) && "value" in body && !("fields" in body) && !("workflows" in body)) {
    return { form: "value", ...parseInput(valueFieldBodySchema, body) };
  }
  return { form: "spec", ...parseInput(specFieldBodySchema, body) };
}

function parseDisableFieldOptions(request: FastifyRequest): boolean {
  const value = optionalHeader(request, "disable_field_options");
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw badRequest('disable_field_options must be "true" or "false"');
}

/** Configs: their records and fixture checks, their operations, views and routes. */
export const configs = defineObject({
  name: "configs",
  state: { configs: z.array(configSchema).default([]) },
  checkReferences: checkConfigs,
  operations: (store: ConfigsStore) => new Configs(store),
  routes: registerConfigRoutes,
  docs: configDocs,
});

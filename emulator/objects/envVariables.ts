// Env variables (docs/design/contract.md#env-variables): definitions, read-only, and their values,
// each placed by the definition's scope. Every read of a value goes through `visibleValue`, so an
// encrypted value cannot leak through a forgotten route.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest, notFound } from "../errors";
import type { OperationDocs } from "../operationDoc";
import { pageSchema, paginate, paginationQuerySchema } from "../pagination";
import {
  checkUnique,
  defineObject,
  idSchema,
  newObjectId,
  now,
  timestampSchema,
  type Actor,
  type Issue,
  type OrgState,
  type StoreCore,
} from "../platformObject";
import { accepts, actorOf, pathParameter } from "../requests";
import { parseInput } from "../validation";
import { requirePublishedWorkflow, type Applications, type ApplicationsState } from "./applications";
import type { Audit } from "./audit";
import type { LinkedAccounts, LinkedAccountsState } from "./linkedAccounts";

/** Value shown instead of the value of an encrypted env variable definition. */
export const REDACTED = "[REDACTED]";
/** Scopes of env variable definitions. */
export const ENV_SCOPES = ["org", "workspace", "linked_account", "workflow"] as const;
/** Formats an env variable value must follow. */
export const VAR_FORMATS = ["string", "number", "url"] as const;

/** An env variable definition. */
export const envDefinitionSchema = z.object({
  _id: idSchema,
  org_id: idSchema,
  name: idSchema,
  description: z.string().default(""),
  scope: z.enum(ENV_SCOPES),
  var_format: z.enum(VAR_FORMATS),
  encrypted: z.boolean().default(false),
  created_by: z.string().default("fixture"),
  updated_by: z.string().default("fixture"),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

/** An env variable value; at most one per (definition, linked account, workflow). */
export const envValueSchema = z.object({
  _id: idSchema,
  variable_definition_id: idSchema,
  org_id: idSchema,
  environment: z.string().default("test"),
  linked_account_id: idSchema.nullable().default(null),
  workflow_id: idSchema.nullable().default(null),
  value: z.string(),
  created_by: z.string().default("fixture"),
  updated_by: z.string().default("fixture"),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

/** Scope of an env variable definition. */
export type EnvScope = (typeof ENV_SCOPES)[number];
/** Format of an env variable value. */
export type VarFormat = (typeof VAR_FORMATS)[number];
/** An env variable definition. */
export type EnvDefinition = z.output<typeof envDefinitionSchema>;
/** An env variable value. */
export type EnvValue = z.output<typeof envValueSchema>;

/** The env variables' part of the state. */
export interface EnvVariablesState {
  envDefinitions: EnvDefinition[];
  envValues: EnvValue[];
}

/** Whether an id may, must or must not accompany a value of a given scope. */
type IdRule = "required" | "optional" | "forbidden";

/** Which of linked_account_id and workflow_id each scope takes. */
const SCOPE_ID_RULES: Record<EnvScope, Record<"linked_account_id" | "workflow_id", IdRule>> = {
  org: { linked_account_id: "forbidden", workflow_id: "forbidden" },
  workspace: { linked_account_id: "forbidden", workflow_id: "forbidden" },
  linked_account: { linked_account_id: "required", workflow_id: "forbidden" },
  workflow: { linked_account_id: "optional", workflow_id: "required" },
};

/** The ids that place an env value: a linked account, a workflow, both or neither. */
export interface EnvValueIds {
  linked_account_id?: string | null;
  workflow_id?: string | null;
}

/** Names the first id that does not fit `scope` (e.g. "workflow_id is required for workflow scope"), or null. */
export function scopeIdProblem(scope: EnvScope, ids: EnvValueIds): string | null {
  for (const name of ["linked_account_id", "workflow_id"] as const) {
    const rule = SCOPE_ID_RULES[scope][name];
    const present = ids[name] !== undefined && ids[name] !== null;
    if (rule === "required" && !present) return `${name} is required for ${scope} scope`;
    if (rule === "forbidden" && present) return `${name} is not allowed for ${scope} scope`;
  }
  return null;
}

/** Explains why `value` does not fit `format`, or returns null when it does. */
export function varFormatProblem(format: VarFormat, value: string): string | null {
  if (format === "number" && (value.trim() === "" || !Number.isFinite(Number(value)))) {
    return "value does not match the variable format: number expects a finite number";
  }
  if (format === "url" && !isHttpUrl(value)) {
    return "value does not match the variable format: url expects an absolute http(s) URL";
  }
  return null;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

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

/** A value to upsert with `store.envVariables.setValue`. */
export interface EnvValueInput {
  definition: EnvDefinition;
  value: string;
  linkedAccountId: string | null;
  workflowId: string | null;
  actor: string;
}

/** What the env variables take of the store: their state, the linked accounts, the applications and the audit log. */
export type EnvVariablesStore = StoreCore<OrgState & EnvVariablesState> & {
  linkedAccounts: LinkedAccounts;
  applications: Applications;
  audit: Audit;
};

/** The env variables' operations: `store.envVariables`. */
export class EnvVariables {
  constructor(private readonly store: EnvVariablesStore) {}

  /** The env variable definition with this id. */
  definition(definitionId: string): EnvDefinition | undefined {
    return this.store.state.envDefinitions.find((d) => d._id === definitionId);
  }

  /** The env variable definition with this name. */
  definitionByName(name: string): EnvDefinition | undefined {
    return this.store.state.envDefinitions.find((d) => d.name === name);
  }

  /** The env value with this id. */
  value(valueId: string): EnvValue | undefined {
    return this.store.state.envValues.find((v) => v._id === valueId);
  }

  /** The one value of a definition for (linked account, workflow); null means "not set for any". */
  valueFor(definitionId: string, linkedAccountId: string | null, workflowId: string | null): EnvValue | undefined {
    return this.store.state.envValues.find(
      (v) =>
        v.variable_definition_id === definitionId &&
        v.linked_account_id === linkedAccountId &&
        v.workflow_id === workflowId,
    );
  }

  /** Creates or updates in place the one value of (definition, linked account, workflow). */
  setValue({ definition, value, linkedAccountId, workflowId, actor }: EnvValueInput): EnvValue {
    const timestamp = now();
    const existing = this.valueFor(definition._id, linkedAccountId, workflowId);
    if (existing) {
      return Object.assign(existing, { value, updated_by: actor, updatedAt: timestamp });
    }
    const { org } = this.store.state;
    const created: EnvValue = {
      _id: newObjectId(),
      variable_definition_id: definition._id,
      org_id: org._id,
      environment: org.environment,
      linked_account_id: linkedAccountId,
      workflow_id: workflowId,
      value,
      created_by: actor,
      updated_by: actor,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.store.state.envValues.push(created);
    return created;
  }

  /** Removes an env value; returns it, or undefined when there was none. */
  deleteValue(valueId: string): EnvValue | undefined {
    const values = this.store.state.envValues;
    const index = values.findIndex((v) => v._id === valueId);
    return index === -1 ? undefined : values.splice(index, 1)[0];
  }

  /** The env variable definition with this id, or 404 "Variable definition not found". */
  requireDefinition(definitionId: string): EnvDefinition {
    const definition = this.definition(definitionId);
    if (!definition) throw notFound("Variable definition not found");
    return definition;
  }

  /** The definitions that pass every filter given. */
  listDefinitions(filter: EnvDefinitionFilter): EnvDefinition[] {
    const name = filter.name?.toLowerCase();
    return this.store.state.envDefinitions.filter(
      (d) =>
        (filter.scope === undefined || d.scope === filter.scope) &&
        (filter.var_format === undefined || d.var_format === filter.var_format) &&
        (name === undefined || d.name.toLowerCase().includes(name)),
    );
  }

  /** The values of a scope's definitions that pass every filter; 400 when the ids do not fit the scope. */
  listValues(scope: EnvScope, filter: EnvValueFilter): DefinedEnvValue[] {
    requireFittingIds(scope, filter);
    const { envDefinitions, envValues } = this.store.state;
    const definitions = new Map(envDefinitions.filter((d) => d.scope === scope).map((d) => [d._id, d]));
    const wanted = (id: string | undefined | null, actual: string | null) => id === undefined || id === actual;
    return envValues
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
  valueAt(definitionId: string, ids: EnvValueIds): DefinedEnvValue {
    const definition = this.requireDefinition(definitionId);
    requireFittingIds(definition.scope, ids);
    const value = this.valueFor(definition._id, ids.linked_account_id ?? null, ids.workflow_id ?? null);
    if (!value) throw notFound("Variable value not found");
    return { definition, value };
  }

  /**
   * Sets a definition's value at (linked account, workflow), after the platform's checks: ids that
   * fit the scope, an existing linked account, a published workflow and a value in the definition's format.
   */
  async putValue(request: EnvValueRequest, actor: Actor): Promise<DefinedEnvValue> {
    const definition = this.requireDefinition(request.variable_definition_id);
    requireFittingIds(definition.scope, request);
    const linkedAccountId = request.linked_account_id ?? null;
    const workflowId = request.workflow_id ?? null;
    if (linkedAccountId !== null) this.store.linkedAccounts.require(linkedAccountId);
    if (workflowId !== null) {
      requirePublishedWorkflow(this.store.applications.workflow(workflowId)?.workflow, workflowId);
    }
    const formatProblem = varFormatProblem(definition.var_format, request.value);
    if (formatProblem) throw badRequest(formatProblem);
    const value = this.setValue({ definition, value: request.value, linkedAccountId, workflowId, actor });
    // Audit entries never carry the value: it may be a secret.
    const refs = { linked_account_id: linkedAccountId, workflow_id: workflowId, resource_id: value._id };
    await this.store.audit.recordChange("ENV_VALUE_SET", refs, actor);
    return { definition, value };
  }

  /** Deletes an env value; 404 "Variable value not found" when there is none. */
  async removeValue(valueId: string, actor: Actor): Promise<EnvValue> {
    const deleted = this.deleteValue(valueId);
    if (!deleted) throw notFound("Variable value not found");
    const refs = { linked_account_id: deleted.linked_account_id, workflow_id: deleted.workflow_id };
    await this.store.audit.recordChange("ENV_VALUE_DELETED", { ...refs, resource_id: deleted._id }, actor);
    return deleted;
  }

  /** Accounts holding a linked_account-scope value of the named definition equal to `value`. */
  accountsWithValue(name: string, value: string): ReadonlySet<string> {
    const definition = this.definitionByName(name);
    // Matching on an encrypted value would let a caller guess secrets one request at a time.
    if (!definition || definition.scope !== "linked_account" || definition.encrypted) return new Set();
    return new Set(
      this.store.state.envValues
        .filter((v) => v.variable_definition_id === definition._id && v.value === value && v.linked_account_id !== null)
        .map((v) => v.linked_account_id!),
    );
  }
}

/** 400 when a value's linked account and workflow ids do not fit its definition's scope. */
function requireFittingIds(scope: EnvScope, ids: EnvValueIds): void {
  const problem = scopeIdProblem(scope, ids);
  if (problem) throw badRequest(problem);
}

function checkEnvVariables(state: EnvVariablesState & LinkedAccountsState & ApplicationsState, issue: Issue): void {
  checkUnique(issue, state.envDefinitions, (d) => d._id, "envDefinitions", "definition _id");
  checkUnique(issue, state.envDefinitions, (d) => d.name, "envDefinitions", "definition name");
  checkUnique(issue, state.envValues, (v) => v._id, "envValues", "value _id");
  checkUnique(
    issue,
    state.envValues,
    (v) => `${v.variable_definition_id}/${v.linked_account_id}/${v.workflow_id}`,
    "envValues",
    "value for (definition, linked account, workflow)",
  );
  const accounts = new Set(state.linkedAccounts.map((a) => a.account_id));
  const workflowIds = new Set(state.apps.flatMap((a) => a.workflows.map((w) => w.id)));
  state.envValues.forEach((value, i) => {
    const definition = state.envDefinitions.find((d) => d._id === value.variable_definition_id);
    if (!definition) {
      return issue(["envValues", i, "variable_definition_id"], `unknown definition ${value.variable_definition_id}`);
    }
    const problem = scopeIdProblem(definition.scope, value) ?? varFormatProblem(definition.var_format, value.value);
    if (problem) issue(["envValues", i], problem);
    if (value.linked_account_id !== null && !accounts.has(value.linked_account_id)) {
      issue(["envValues", i, "linked_account_id"], `unknown linked account ${value.linked_account_id}`);
    }
    if (value.workflow_id !== null && !workflowIds.has(value.workflow_id)) {
      issue(["envValues", i, "workflow_id"], `unknown workflow ${value.workflow_id}`);
    }
  });
}

// Views: the wire shapes of definitions and values.

/** An env variable definition as the API answers it: the record as stored. */
export const envDefinitionViewSchema = envDefinitionSchema;

/** An env variable definition. */
export function envDefinitionView(d: EnvDefinition): EnvDefinition {
  const { _id, org_id, name, description, scope, var_format, encrypted, created_by, updated_by, createdAt, updatedAt } =
    d;
  return { _id, org_id, name, description, scope, var_format, encrypted, created_by, updated_by, createdAt, updatedAt };
}

/** The value a client may see: "[REDACTED]" for encrypted definitions. */
export function visibleValue(definition: EnvDefinition, value: EnvValue): string {
  return definition.encrypted ? REDACTED : value.value;
}

/** An env value as `POST /env/values` answers it: the record, its value redacted when encrypted. */
export const envValueViewSchema = envValueSchema.extend({
  value: z.string().meta({ description: `The value, or "${REDACTED}" for an encrypted definition` }),
});

/** An env value as `POST /env/values` returns it. */
export function envValueView(definition: EnvDefinition, v: EnvValue): z.output<typeof envValueViewSchema> {
  return {
    _id: v._id,
    variable_definition_id: v.variable_definition_id,
    org_id: v.org_id,
    environment: v.environment,
    linked_account_id: v.linked_account_id,
    workflow_id: v.workflow_id,
    value: visibleValue(definition, v),
    created_by: v.created_by,
    updated_by: v.updated_by,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

/** An env value as `GET /env/values/:scope` lists it, its definition populated. */
export const envValueListItemViewSchema = z.object({
  ...envValueSchema.pick({ _id: true, linked_account_id: true, workflow_id: true, updatedAt: true }).shape,
  variable_definition_id: envDefinitionSchema.pick({ _id: true, name: true, scope: true, encrypted: true }),
  value: envValueViewSchema.shape.value,
});

/** An env value as `GET /env/values/:scope` lists it, with its definition populated. */
export function envValueListItemView(
  definition: EnvDefinition,
  v: EnvValue,
): z.output<typeof envValueListItemViewSchema> {
  const { _id, name, scope, encrypted } = definition;
  return {
    _id: v._id,
    variable_definition_id: { _id, name, scope, encrypted },
    value: visibleValue(definition, v),
    linked_account_id: v.linked_account_id,
    workflow_id: v.workflow_id,
    updatedAt: v.updatedAt,
  };
}

/** An env value as `GET /env/value/:definition_id` answers it. */
export const envValueLookupViewSchema = z.object({
  value: envValueViewSchema.shape.value,
  encrypted: z.boolean(),
  name: z.string(),
  scope: z.enum(ENV_SCOPES),
  variable_definition_id: z.string(),
});

/** An env value as `GET /env/value/:definition_id` returns it. */
export function envValueLookupView(definition: EnvDefinition, v: EnvValue): z.output<typeof envValueLookupViewSchema> {
  const { name, scope, encrypted } = definition;
  return { value: visibleValue(definition, v), encrypted, name, scope, variable_definition_id: definition._id };
}

// Routes: the request's parsing; the rules are the operations' above.

const placement = {
  linked_account_id: z
    .string()
    .min(1)
    .optional()
    .meta({
      description: "The linked account the value is for (linked_account and workflow scopes)",
      examples: ["acme"],
    }),
  workflow_id: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "The workflow the value is for (workflow scope)", examples: ["wf_hs_contact_sync"] }),
};
/** The definitions' list query: a page, and filters by scope, format and part of the name. */
export const definitionsQuerySchema = paginationQuerySchema.extend({
  scope: z.enum(ENV_SCOPES).optional(),
  var_format: z.enum(VAR_FORMATS).optional(),
  name: z.string().optional().meta({ description: "Part of the name, in any case" }),
});
/** Where a value is: its linked account and workflow, as the scope wants them. */
export const placementQuerySchema = z.object(placement);
/** The values' list path: the scope listed. */
export const scopeParamsSchema = z.object({ scope: z.enum(ENV_SCOPES) });
/** The values' list query: a page, the definition, and where the values are. */
export const valuesQuerySchema = paginationQuerySchema.extend({
  variable_definition_id: z.string().optional(),
  ...placement,
});
/** The body of `POST /env/values`: a definition's value, and where it applies. */
export const setValueBodySchema = z
  .object({
    variable_definition_id: z.string().min(1),
    value: z.string(),
    // null is read as "absent": clients often serialise unset optional ids that way.
    linked_account_id: z.string().min(1).nullish(),
    workflow_id: z.string().min(1).nullish(),
  })
  .meta({
    examples: [{ variable_definition_id: "64f0000000000000000000d5", value: "gold", linked_account_id: "acme" }],
  });
/** The path of one definition. */
export const definitionParamsSchema = z.object({
  id: pathParameter("The definition's _id", "64f0000000000000000000d5"),
});
/** The path of one definition's value lookup. */
export const valueLookupParamsSchema = z.object({
  definition_id: pathParameter("The definition's _id", "64f0000000000000000000d5"),
});
/** The path of one value. */
export const valueParamsSchema = z.object({ value_id: pathParameter("The value's _id", "64f0000000000000000000f6") });

const ENV = `${API_PREFIX}/env`;
const URLS = {
  definitions: `${ENV}/definitions`,
  definition: `${ENV}/definitions/:id`,
  values: `${ENV}/values/:scope`,
  value: `${ENV}/value/:definition_id`,
  setValue: `${ENV}/values`,
  deleteValue: `${ENV}/values/:value_id`,
};

const IDS_FIT_THE_SCOPE = "linked_account_id or workflow_id where the scope takes none, or missing where it needs one";

/** The env variable operations, as the OpenAPI document describes them. */
const envDocs: OperationDocs = {
  [URLS.definitions]: {
    get: {
      operationId: "listEnvDefinitions",
      summary: "Lists the env variable definitions, a page at a time",
      description: "An org-admin operation: bearer tokens are refused.",
      caller: "api_key",
      params: { query: definitionsQuerySchema },
      answer: { schema: pageSchema(envDefinitionViewSchema), description: "A page of definitions" },
      errors: { 400: "A bad page, limit, scope or var_format" },
    },
  },
  [URLS.definition]: {
    get: {
      operationId: "getEnvDefinition",
      summary: "Gets one env variable definition",
      caller: "api_key_or_bearer",
      params: { path: definitionParamsSchema },
      answer: { schema: z.object({ definition: envDefinitionViewSchema }), description: "The definition" },
      errors: { 404: "No definition has this _id" },
    },
  },
  [URLS.values]: {
    get: {
      operationId: "listEnvValues",
      summary: "Lists the values of a scope's definitions, a page at a time",
      caller: "api_key_or_bearer",
      params: { path: scopeParamsSchema, query: valuesQuerySchema },
      answer: {
        schema: pageSchema(envValueListItemViewSchema).extend({ status: z.literal("success") }),
        description: "A page of values, each with its definition",
      },
      errors: { 400: `An unknown scope, a bad page or limit, or ${IDS_FIT_THE_SCOPE}` },
    },
  },
  [URLS.value]: {
    get: {
      operationId: "getEnvValue",
      summary: "Gets a definition's value for a linked account and workflow, as its scope places it",
      caller: "api_key_or_bearer",
      params: { path: valueLookupParamsSchema, query: placementQuerySchema },
      answer: { schema: envValueLookupViewSchema, description: "The value, redacted when encrypted" },
      errors: { 400: IDS_FIT_THE_SCOPE, 404: "No definition has this _id, or it has no value there" },
    },
  },
  [URLS.setValue]: {
    post: {
      operationId: "setEnvValue",
      summary: "Sets a definition's value for a linked account and workflow: created, or updated in place",
      caller: "api_key_or_bearer",
      body: setValueBodySchema,
      answer: { schema: envValueViewSchema, description: "The value as stored, redacted when encrypted" },
      errors: {
        400: `${IDS_FIT_THE_SCOPE}; a value that does not fit var_format; a draft workflow`,
        404: "No definition, linked account or workflow has this id",
      },
    },
  },
  [URLS.deleteValue]: {
    delete: {
      operationId: "deleteEnvValue",
      summary: "Deletes an env value",
      caller: "api_key_or_bearer",
      params: { path: valueParamsSchema },
      answer: {
        schema: z.object({ status: z.literal("success"), message: z.string() }),
        description: "Deleted",
      },
      errors: { 404: "No value has this _id" },
    },
  },
};

/** Env variable routes: definitions (read-only) and values (list, get, upsert, delete). */
function registerEnvRoutes(app: FastifyInstance, { envVariables }: { envVariables: EnvVariables }): void {
  // Listing definitions is an org-admin operation: the platform refuses bearer tokens there.
  app.get(URLS.definitions, accepts("api_key"), async (request) => {
    const query = parseInput(definitionsQuerySchema, request.query, "query");
    return paginate(envVariables.listDefinitions(query), query, envDefinitionView);
  });

  app.get(URLS.definition, accepts("api_key_or_bearer"), async (request) => {
    const { id } = parseInput(definitionParamsSchema, request.params, "params");
    return { definition: envDefinitionView(envVariables.requireDefinition(id)) };
  });

  app.get(URLS.values, accepts("api_key_or_bearer"), async (request) => {
    const { scope } = parseInput(scopeParamsSchema, request.params, "params");
    const query = parseInput(valuesQuerySchema, request.query, "query");
    const page = paginate(envVariables.listValues(scope, query), query, ({ definition, value }) =>
      envValueListItemView(definition, value),
    );
    return { status: "success", ...page };
  });

  app.get(URLS.value, accepts("api_key_or_bearer"), async (request) => {
    const { definition_id } = parseInput(valueLookupParamsSchema, request.params, "params");
    const query = parseInput(placementQuerySchema, request.query, "query");
    const { definition, value } = envVariables.valueAt(definition_id, query);
    return envValueLookupView(definition, value);
  });

  app.post(URLS.setValue, accepts("api_key_or_bearer"), async (request) => {
    const body = parseInput(setValueBodySchema, request.body);
    const { definition, value } = await envVariables.putValue(body, actorOf(request));
    return envValueView(definition, value);
  });

  app.delete(URLS.deleteValue, accepts("api_key_or_bearer"), async (request) => {
    const { value_id } = parseInput(valueParamsSchema, request.params, "params");
    await envVariables.removeValue(value_id, actorOf(request));
    return { status: "success", message: "Variable value deleted" };
  });
}

/** Env variables: definitions and values, their fixture checks, operations, views and routes. */
export const envVariables = defineObject({
  name: "envVariables",
  state: {
    envDefinitions: z.array(envDefinitionSchema).default([]),
    envValues: z.array(envValueSchema).default([]),
  },
  checkReferences: checkEnvVariables,
  operations: (store: EnvVariablesStore) => new EnvVariables(store),
  routes: registerEnvRoutes,
  docs: envDocs,
});

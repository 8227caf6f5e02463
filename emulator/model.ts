// The emulated organisation's state: the schema fixtures and data files are checked against, its
// types, and the checks of values the store and the fixture loader both apply.
import { z } from "zod";

/** Timestamp given to fixture objects that do not carry one, so that every reset yields identical state. */
export const FIXTURE_EPOCH = "2024-01-01T00:00:00.000Z";

/** Value shown instead of the value of an encrypted env variable definition. */
export const REDACTED = "[REDACTED]";

const id = z.string().min(1);
const timestamp = z.iso.datetime({ offset: true }).default(FIXTURE_EPOCH);

/** Field input types the platform knows. */
export const FIELD_TYPES = ["text", "number", "select", "map"] as const;
/** Scopes of env variable definitions. */
export const ENV_SCOPES = ["org", "workspace", "linked_account", "workflow"] as const;
/** Formats an env variable value must follow. */
export const VAR_FORMATS = ["string", "number", "url"] as const;
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

/** A `{name, value}` pair: a select option or a label. */
export const nameValueSchema = z.object({ name: z.string(), value: z.string() });

/** A field as the application defines it (global or inside a workflow). */
export const fieldDefinitionSchema = z.object({
  id,
  name: z.string(),
  field_type: z.enum(FIELD_TYPES),
  required: z.boolean().default(false),
  hidden: z.boolean().default(false),
  has_dynamic_map_fields: z.boolean().default(false),
  dynamic_slot_identifier: z.string().default(""),
  options: z.array(nameValueSchema).default([]),
});

/** A workflow of an application; drafts (`published: false`) are blocked from public routes. */
export const workflowDefinitionSchema = z.object({
  id,
  name: z.string(),
  description: z.string().default(""),
  published: z.boolean().default(true),
  fields: z.array(fieldDefinitionSchema).default([]),
});

/** An application, identified by its slug. */
export const appSchema = z.object({
  slug: id,
  name: z.string(),
  fields: z.array(fieldDefinitionSchema).default([]),
  workflows: z.array(workflowDefinitionSchema).default([]),
});

/** An end user's linked account; `account_id` is what clients send as `linked_account_id`. */
export const linkedAccountSchema = z.object({
  _id: id,
  account_id: id,
  name: z.string(),
  environment: z.string().default("test"),
  udf: z.array(z.object({ key_name: z.string(), key_value: z.string() })).default([]),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** A config's overrides for one field; absent properties fall back to the field definition. */
export const fieldStateSchema = z.object({
  id,
  name: z.string().optional(),
  options: z.array(nameValueSchema).optional(),
  labels: z.array(nameValueSchema).optional(),
  value: z.unknown().optional(),
});

/** A config's state for one workflow of its application. */
export const workflowStateSchema = z.object({
  id,
  enabled: z.boolean().default(false),
  fields: z.array(fieldStateSchema).default([]),
});

/** A linked account's config of one application; keyed by (linked_account_id, slug, config_id). */
export const configSchema = z
  .object({
    linked_account_id: id,
    slug: id,
    config_id: id.optional(),
    labels: z.array(nameValueSchema).default([]),
    fields: z.array(fieldStateSchema).default([]),
    workflows: z.array(workflowStateSchema).default([]),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .transform((config) => ({ ...config, config_id: config.config_id ?? config.linked_account_id }));

/** One `{key, type}` entry of an application event's declared response structure. */
export const eventPropertySchema = z.object({ key: z.string(), type: z.string() });

/** A named application event; `response` is derived from the `raw_response` sample when omitted. */
export const applicationEventSchema = z
  .object({
    _id: id,
    name: z.string(),
    raw_response: z.string(),
    response: z.array(eventPropertySchema).optional(),
  })
  .transform((event, ctx) => {
    if (event.response) return { ...event, response: event.response };
    const sample = parseSampleDocument(event.raw_response);
    if (sample === undefined) {
      ctx.addIssue({ code: "custom", path: ["raw_response"], message: "must be a JSON object" });
      return z.NEVER;
    }
    return { ...event, response: describeSample(sample) };
  });

/** An env variable definition. */
export const envDefinitionSchema = z.object({
  _id: id,
  org_id: id,
  name: id,
  description: z.string().default(""),
  scope: z.enum(ENV_SCOPES),
  var_format: z.enum(VAR_FORMATS),
  encrypted: z.boolean().default(false),
  created_by: z.string().default("fixture"),
  updated_by: z.string().default("fixture"),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** An env variable value; at most one per (definition, linked account, workflow). */
export const envValueSchema = z.object({
  _id: id,
  variable_definition_id: id,
  org_id: id,
  environment: z.string().default("test"),
  linked_account_id: id.nullable().default(null),
  workflow_id: id.nullable().default(null),
  value: z.string(),
  created_by: z.string().default("fixture"),
  updated_by: z.string().default("fixture"),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** One audit log entry (the platform does not document this shape; this is the emulator's). */
export const auditEntrySchema = z.object({
  _id: id,
  event_type: z.enum(AUDIT_EVENT_TYPES),
  linked_account_id: z.string().nullable(),
  slug: z.string().nullable(),
  config_id: z.string().nullable(),
  workflow_id: z.string().nullable(),
  resource_id: z.string().nullable(),
  /** Who caused it: a credential of the public API, or the platform itself (a workflow run). */
  auth: z.enum(["api_key", "bearer", "platform"]),
  createdAt: timestamp,
});

const stateObjectSchema = z.object({
  org: z.object({ _id: id, name: z.string(), environment: z.string().default("test") }),
  apps: z.array(appSchema).default([]),
  linkedAccounts: z.array(linkedAccountSchema).default([]),
  configs: z.array(configSchema).default([]),
  events: z.array(applicationEventSchema).default([]),
  envDefinitions: z.array(envDefinitionSchema).default([]),
  envValues: z.array(envValueSchema).default([]),
  audit: z.array(auditEntrySchema).default([]),
});

/** The whole emulated organisation: what fixtures seed and what `--data` persists. */
export const emulatorStateSchema = stateObjectSchema.superRefine(checkReferences);

/** Input type of a field definition. */
export type FieldType = (typeof FIELD_TYPES)[number];
/** Scope of an env variable definition. */
export type EnvScope = (typeof ENV_SCOPES)[number];
/** Format of an env variable value. */
export type VarFormat = (typeof VAR_FORMATS)[number];
/** Kind of an audit entry. */
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
/** A `{name, value}` pair. */
export type NameValue = z.output<typeof nameValueSchema>;
/** A field as the application defines it. */
export type FieldDefinition = z.output<typeof fieldDefinitionSchema>;
/** A workflow of an application. */
export type WorkflowDefinition = z.output<typeof workflowDefinitionSchema>;
/** An application. */
export type App = z.output<typeof appSchema>;
/** A linked account. */
export type LinkedAccount = z.output<typeof linkedAccountSchema>;
/** A config's overrides for one field. */
export type FieldState = z.output<typeof fieldStateSchema>;
/** A config's state for one workflow. */
export type WorkflowState = z.output<typeof workflowStateSchema>;
/** A config. */
export type Config = z.output<typeof configSchema>;
/** One entry of an event's declared response structure. */
export type EventProperty = z.output<typeof eventPropertySchema>;
/** An application event. */
export type ApplicationEvent = z.output<typeof applicationEventSchema>;
/** An env variable definition. */
export type EnvDefinition = z.output<typeof envDefinitionSchema>;
/** An env variable value. */
export type EnvValue = z.output<typeof envValueSchema>;
/** An audit entry. */
export type AuditEntry = z.output<typeof auditEntrySchema>;
/** The whole emulated state. */
export type EmulatorState = z.output<typeof emulatorStateSchema>;
/** A fixture file before defaults are applied. */
export type EmulatorFixture = z.input<typeof emulatorStateSchema>;

/** Returns the parsed object when `text` is a JSON object, else undefined. */
export function parseSampleDocument(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** True for `{...}` values, false for arrays, null and scalars. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Declared response structure of a sample document: dot-path keys, "object" for nested objects
 * (which get their own entry and are walked), "text" for everything else. Arrays are not walked
 * because the platform's observed types are only text and object.
 */
export function describeSample(sample: Record<string, unknown>, prefix = ""): EventProperty[] {
  return Object.entries(sample).flatMap(([name, value]) => {
    const key = prefix + name;
    return isPlainObject(value)
      ? [{ key, type: "object" }, ...describeSample(value, `${key}.`)]
      : [{ key, type: "text" }];
  });
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

/** Cross-references a fixture must respect, so that the routes never meet a dangling id. */
function checkReferences(state: z.output<typeof stateObjectSchema>, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const duplicates = <T>(items: T[], key: (item: T) => string, path: string, what: string) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const k = key(item);
      if (seen.has(k)) issue([path, index], `duplicate ${what} ${k}`);
      seen.add(k);
    });
  };

  duplicates(state.apps, (a) => a.slug, "apps", "app slug");
  // Workflow ids are referenced without a slug (env values, audit), so they must be unique org-wide.
  const seenWorkflows = new Set<string>();
  state.apps.forEach((app, i) => {
    app.workflows.forEach((w, j) => {
      if (seenWorkflows.has(w.id)) issue(["apps", i, "workflows", j, "id"], `duplicate workflow id ${w.id}`);
      seenWorkflows.add(w.id);
    });
    duplicates(app.fields, (f) => f.id, `apps[${i}].fields`, "field id");
    app.workflows.forEach((w, j) => duplicates(w.fields, (f) => f.id, `apps[${i}].workflows[${j}].fields`, "field id"));
  });
  duplicates(state.linkedAccounts, (a) => a.account_id, "linkedAccounts", "account_id");
  duplicates(state.configs, (c) => `${c.linked_account_id}/${c.slug}/${c.config_id}`, "configs", "config");
  duplicates(state.events, (e) => e._id, "events", "event _id");
  duplicates(state.envDefinitions, (d) => d._id, "envDefinitions", "definition _id");
  duplicates(state.envDefinitions, (d) => d.name, "envDefinitions", "definition name");
  duplicates(state.envValues, (v) => v._id, "envValues", "value _id");
  duplicates(
    state.envValues,
    (v) => `${v.variable_definition_id}/${v.linked_account_id}/${v.workflow_id}`,
    "envValues",
    "value for (definition, linked account, workflow)",
  );

  const accounts = new Set(state.linkedAccounts.map((a) => a.account_id));
  const workflowIds = new Set(state.apps.flatMap((a) => a.workflows.map((w) => w.id)));
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

// zod schemas of the platform's response shapes (docs/design/contract.md). Objects are loose: the
// platform adds fields to responses without notice (docs/design/contract.md#versioning), and an additive
// change must never break a deployment.
import { z } from "zod";

/** `{name, value}` pairs, used by field options and labels (docs/design/contract.md#config-fields). */
export const NameValue = z.object({ name: z.string(), value: z.string() });
/** A `{name, value}` pair. */
export type NameValue = z.infer<typeof NameValue>;

/** The config field returned by the field update (docs/design/contract.md#config-fields). */
export const ConfigFieldRecord = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  required: z.boolean(),
  field_type: z.string(),
  hidden: z.boolean().nullish(),
  has_dynamic_map_fields: z.boolean().nullish(),
  dynamic_slot_identifier: z.string().nullish(),
  // The spec shows `options` only as an array; its elements are kept as the platform sends them.
  options: z.array(z.unknown()).nullish(),
});
/** A config field as the platform returns it. */
export type ConfigFieldRecord = z.infer<typeof ConfigFieldRecord>;

/**
 * A field inside a config (get config): the field record (docs/design/contract.md#config-fields) plus
 * `labels` and `value`.
 */
export const ConfigFieldState = ConfigFieldRecord.extend({
  labels: z.array(z.unknown()).nullish(),
  value: z.unknown().optional(),
});
/** A field inside a config. */
export type ConfigFieldState = z.infer<typeof ConfigFieldState>;

/** A workflow as listed in a config or a toggle response. */
export const WorkflowState = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  enabled: z.boolean(),
});
/** A workflow's state in one config. */
export type WorkflowState = z.infer<typeof WorkflowState>;

/** Get config and upsert config (docs/design/contract.md#config-fields). */
export const Config = z.looseObject({
  slug: z.string(),
  config_id: z.string(),
  fields: z.array(ConfigFieldState),
  workflows: z.array(WorkflowState.extend({ fields: z.array(ConfigFieldState).nullish() })),
  field_errors: z.array(z.unknown()).nullish(),
});
/** One config of one linked account and app. */
export type Config = z.infer<typeof Config>;

/** Workflow toggle response (docs/design/contract.md#workflows). */
export const WorkflowToggleResult = z.looseObject({ workflows: z.array(WorkflowState) });

/** An application event record (docs/design/contract.md#application-events). */
export const ApplicationEventRecord = z.looseObject({
  _id: z.string(),
  name: z.string(),
  response: z.array(z.looseObject({ key: z.string(), type: z.string() })),
  raw_response: z.string().nullish(),
});
/** An application event as the platform returns it. */
export type ApplicationEventRecord = z.infer<typeof ApplicationEventRecord>;

/** The event update returns every event of the org (docs/design/contract.md#application-events). */
export const ApplicationEventList = z.array(ApplicationEventRecord);

/** Env variable scopes (docs/design/contract.md#env-variables). */
export const EnvScope = z.enum(["org", "workspace", "linked_account", "workflow"]);
/** The scope of an env variable definition. */
export type EnvScope = z.infer<typeof EnvScope>;

/** Env variable formats (docs/design/contract.md#env-variables). */
export const EnvFormat = z.enum(["string", "number", "url"]);
/** The format an env variable's values must have. */
export type EnvFormat = z.infer<typeof EnvFormat>;

/** An env variable definition (docs/design/contract.md#env-variables). */
export const EnvDefinition = z.looseObject({
  _id: z.string(),
  org_id: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  scope: EnvScope,
  var_format: EnvFormat,
  encrypted: z.boolean(),
  created_by: z.string().nullish(),
  updated_by: z.string().nullish(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
/** An env variable definition. */
export type EnvDefinition = z.infer<typeof EnvDefinition>;

/** `GET /env/definitions/:id` wraps the definition. */
export const EnvDefinitionResult = z.looseObject({ definition: EnvDefinition });

/** An env value as `POST /env/values` returns it. */
export const EnvValueRecord = z.looseObject({
  _id: z.string(),
  variable_definition_id: z.string(),
  linked_account_id: z.string().nullish(),
  workflow_id: z.string().nullish(),
  value: z.string(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
/** An env value as the upsert returns it. */
export type EnvValueRecord = z.infer<typeof EnvValueRecord>;

/** An env value as the list by scope returns it: the definition comes embedded. */
export const EnvValueListItem = z.looseObject({
  _id: z.string(),
  variable_definition_id: z.looseObject({
    _id: z.string(),
    name: z.string().nullish(),
    scope: EnvScope.nullish(),
    encrypted: z.boolean().nullish(),
  }),
  value: z.string(),
  linked_account_id: z.string().nullish(),
  workflow_id: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
/** One env value in a list by scope. */
export type EnvValueListItem = z.infer<typeof EnvValueListItem>;

/** A linked account (docs/design/contract.md#linked-accounts). */
export const LinkedAccount = z.looseObject({
  _id: z.string(),
  account_id: z.string(),
  name: z.string().nullish(),
  environment: z.string().nullish(),
  udf: z.array(z.looseObject({ key_name: z.string(), key_value: z.unknown() })).nullish(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
/** A linked account. */
export type LinkedAccount = z.infer<typeof LinkedAccount>;

/** The paginated envelope `{docs, totalDocs, limit, page, ...}` (docs/design/contract.md#pagination). */
export function Page<T extends z.ZodType>(item: T) {
  return z.looseObject({
    docs: z.array(item),
    totalDocs: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
    page: z.number().int().positive(),
    totalPages: z.number().int().nonnegative().nullish(),
    hasNextPage: z.boolean().nullish(),
  });
}

// Built once: constructing a zod schema costs far more than parsing with it, and a refresh lists
// env values once per resource.
/** A page of env variable definitions. */
export const EnvDefinitionPage = Page(EnvDefinition);
/** A page of env values of one scope. */
export const EnvValuePage = Page(EnvValueListItem);
/** A page of linked accounts. */
export const LinkedAccountPage = Page(LinkedAccount);
/** A page of audit log entries, whose shape is not documented. */
export const AuditEventPage = Page(z.looseObject({}));
/** One received event, as the audit log lists it: passed through as the platform sends it. */
export type AuditEvent = z.infer<typeof AuditEventPage>["docs"][number];

/** `DELETE /env/values/:id` answers with a status. */
export const StatusResult = z.looseObject({ status: z.string().nullish(), message: z.string().nullish() });

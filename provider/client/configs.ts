// Configs (docs/design/contract.md#config-fields): one linked account's settings of one app, its
// fields global or of a workflow. Their shapes, the get, and the field update in its two bodies.
import { z } from "zod";
import type { PlatformClient, PlatformReader } from "./http";
import { segment } from "./ids";
import { WorkflowState } from "./workflows";

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

/** `GET /slug/:slug/config/:configId` (docs/design/contract.md#config-fields). */
export async function getConfig(
  reader: PlatformReader,
  args: { slug: string; configId: string; linkedAccountId: string },
): Promise<Config> {
  return reader.read({
    path: `/slug/${segment("slug", args.slug)}/config/${segment("configId", args.configId)}`,
    auth: "apiKey",
    headers: { linked_account_id: args.linkedAccountId },
    response: Config,
  });
}

/** The field one update addresses: global, or of `workflowId`. */
interface FieldAddress {
  fieldId: string;
  linkedAccountId: string;
  slug: string;
  configId: string;
  workflowId?: string;
}

/** `PUT /config/field/:fieldId` with the spec's body (contract.md#config-fields): sets `values` on one field. */
export async function updateConfigField(
  client: PlatformClient,
  args: FieldAddress & { values: Record<string, unknown> },
): Promise<ConfigFieldRecord> {
  const entry = { id: args.fieldId, ...args.values };
  return client.write({
    ...fieldUpdate(args),
    body: {
      slug: args.slug,
      config_id: args.configId,
      fields: args.workflowId === undefined ? [entry] : [],
      workflows: args.workflowId === undefined ? [] : [{ id: args.workflowId, fields: [entry] }],
    },
  });
}

/**
 * `PUT /config/field/:fieldId` with the platform reference's `{value}` body: the spec's body has no
 * place for a value (docs/design/contract.md#conflicts).
 */
export async function setConfigFieldValue(
  client: PlatformClient,
  args: FieldAddress & { value: unknown },
): Promise<ConfigFieldRecord> {
  return client.write({
    ...fieldUpdate(args),
    body: { slug: args.slug, config_id: args.configId, value: args.value },
  });
}

/** The field update's request but its body: the same for both bodies. */
function fieldUpdate(args: FieldAddress) {
  return {
    method: "PUT" as const,
    path: `/config/field/${segment("fieldId", args.fieldId)}`,
    auth: "apiKey" as const,
    headers: { linked_account_id: args.linkedAccountId, slug: args.slug },
    query: { workflow_id: args.workflowId, config_id: args.configId },
    response: ConfigFieldRecord,
  };
}

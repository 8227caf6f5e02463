// Env variables (docs/design/contract.md#env-variables): definitions, each with a scope and a
// format, and their values, one per definition at each placement. Their shapes, the ids each scope
// takes, and their operations.
import { z } from "zod";
import type { PlatformClient, PlatformReader } from "./http";
import { segment } from "./ids";
import { Page, type PageList, type PageQuery } from "./pagination";

/** Env variable scopes (docs/design/contract.md#env-variables). */
export const EnvScope = z.enum(["org", "workspace", "linked_account", "workflow"]);
/** The scope of an env variable definition. */
export type EnvScope = z.infer<typeof EnvScope>;

// Which ids a scope takes: the scope of a value follows from the ids present when it is set, and the
// list of a scope needs the same ids. Resources and lookups both check them before any request.
/** Whether a scope needs an id, allows it, or refuses it. */
export type ScopeRule = "required" | "allowed" | "refused";

/** The ids each scope takes. */
export const SCOPE_RULES: Record<EnvScope, { linkedAccountId: ScopeRule; workflowId: ScopeRule }> = {
  org: { linkedAccountId: "refused", workflowId: "refused" },
  workspace: { linkedAccountId: "refused", workflowId: "refused" },
  linked_account: { linkedAccountId: "required", workflowId: "refused" },
  workflow: { linkedAccountId: "allowed", workflowId: "required" },
};

/** One id that breaks its scope's rule. */
export interface ScopeViolation {
  property: "linkedAccountId" | "workflowId";
  broken: "required" | "refused";
}

/** The ids that break the scope's rules: a required one missing, or a refused one present. */
export function scopeViolations(
  scope: EnvScope,
  ids: { linkedAccountId?: string; workflowId?: string },
): ScopeViolation[] {
  return (["linkedAccountId", "workflowId"] as const).flatMap((property): ScopeViolation[] => {
    const rule = SCOPE_RULES[scope][property];
    if (rule === "required" && ids[property] === undefined) return [{ property, broken: "required" }];
    if (rule === "refused" && ids[property] !== undefined) return [{ property, broken: "refused" }];
    return [];
  });
}

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

// Built once: constructing a zod schema costs far more than parsing with it, and a refresh lists
// env values once per resource.
/** A page of env variable definitions. */
export const EnvDefinitionPage = Page(EnvDefinition);
/** A page of env values of one scope. */
export const EnvValuePage = Page(EnvValueListItem);

/** `DELETE /env/values/:id` answers with a status. */
export const StatusResult = z.looseObject({ status: z.string().nullish(), message: z.string().nullish() });

/** `GET /env/definitions` (org-admin: API key only). */
export function listEnvDefinitions(
  reader: PlatformReader,
  query: PageQuery & { scope?: string; var_format?: string; name?: string } = {},
): PageList<EnvDefinition> {
  return reader.list({ path: "/env/definitions", auth: "apiKey", response: EnvDefinitionPage }, query);
}

/** `GET /env/definitions/:id`. */
export async function getEnvDefinition(reader: PlatformReader, definitionId: string): Promise<EnvDefinition> {
  const result = await reader.read({
    path: `/env/definitions/${segment("definitionId", definitionId)}`,
    auth: "tokenOrApiKey",
    response: EnvDefinitionResult,
  });
  return result.definition;
}

/** `GET /env/values/:scope`. */
export function listEnvValues(
  reader: PlatformReader,
  scope: EnvScope,
  query: PageQuery & { variable_definition_id?: string; linked_account_id?: string; workflow_id?: string } = {},
): PageList<EnvValueListItem> {
  return reader.list(
    { path: `/env/values/${segment("scope", scope)}`, auth: "tokenOrApiKey", response: EnvValuePage },
    query,
  );
}

/** `POST /env/values`: an upsert, one value per definition, linked account and workflow. */
export function setEnvValue(
  client: PlatformClient,
  body: { variable_definition_id: string; value: string; linked_account_id?: string; workflow_id?: string },
): Promise<EnvValueRecord> {
  return client.write({ method: "POST", path: "/env/values", auth: "tokenOrApiKey", body, response: EnvValueRecord });
}

/** `DELETE /env/values/:valueId`. */
export async function deleteEnvValue(client: PlatformClient, valueId: string): Promise<void> {
  await client.write({
    method: "DELETE",
    path: `/env/values/${segment("valueId", valueId)}`,
    auth: "tokenOrApiKey",
    response: StatusResult,
  });
}

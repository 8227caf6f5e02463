// Lookups of env variable definitions: the list (with filters) and one by id.
import { z } from "zod";
import * as api from "../client/schemas";
import { ListArgs, lookup, maxItems, outputVersion } from "./common";

/** An env variable definition. */
export interface EnvDefinition {
  /** The definition's id (`_id`). */
  id: string;
  /** The variable's name. */
  name: string;
  /** What it is for. */
  description?: string;
  /** Where its values live: org, workspace, linked_account or workflow. */
  scope: api.EnvScope;
  /** The format its values must have: string, number or url. */
  format: api.EnvFormat;
  /** Whether its values are encrypted (and so read back as "[REDACTED]"). */
  encrypted: boolean;
  /** The org it belongs to. */
  orgId?: string;
  /** Creation time, ISO 8601. */
  createdAt?: string;
  /** Last update time, ISO 8601. */
  updatedAt?: string;
}

/** Arguments of getEnvDefinitions. */
export interface GetEnvDefinitionsArgs extends ListArgs {
  /** Only definitions of this scope. */
  scope?: api.EnvScope;
  /** Only definitions whose name matches (the platform's `name` filter). */
  name?: string;
  /** Only definitions of this format. */
  format?: api.EnvFormat;
}

/** Arguments of getEnvDefinition. */
export interface GetEnvDefinitionArgs {
  /** The definition's id. */
  definitionId: string;
}

const listSchema = z
  .object({
    scope: api.EnvScope.optional(),
    name: z.string().min(1).optional(),
    format: api.EnvFormat.optional(),
    maxItems,
  })
  .strict();
const getSchema = z.object({ definitionId: z.string().trim().min(1, "must not be empty") }).strict();

/** Maps the platform's definition onto the package's camelCase shape. */
export function toEnvDefinition(d: api.EnvDefinition): EnvDefinition {
  return {
    id: d._id,
    name: d.name,
    description: d.description ?? undefined,
    scope: d.scope,
    format: d.var_format,
    encrypted: d.encrypted,
    orgId: d.org_id ?? undefined,
    createdAt: d.createdAt ?? undefined,
    updatedAt: d.updatedAt ?? undefined,
  };
}

/** Lists env variable definitions, every page, optionally filtered. Uses the API key (the platform refuses bearer tokens here). */
export const getEnvDefinitions: (args?: GetEnvDefinitionsArgs) => Promise<EnvDefinition[]> = lookup(
  "getEnvDefinitions",
  listSchema,
  async (reader, a) => {
    const docs = await reader
      .listEnvDefinitions({ scope: a.scope, name: a.name, var_format: a.format })
      .all(a.maxItems);
    return docs.map(toEnvDefinition);
  },
);

/** Returns one env variable definition by id. */
export const getEnvDefinition: (args: GetEnvDefinitionArgs) => Promise<EnvDefinition> = lookup(
  "getEnvDefinition",
  getSchema,
  async (reader, a) => toEnvDefinition(await reader.getEnvDefinition(a.definitionId)),
);

/** getEnvDefinitions, taking Inputs and returning an Output. */
export const getEnvDefinitionsOutput = outputVersion(getEnvDefinitions);
/** getEnvDefinition, taking Inputs and returning an Output. */
export const getEnvDefinitionOutput = outputVersion(getEnvDefinition);

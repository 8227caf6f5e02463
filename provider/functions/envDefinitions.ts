// Lookups of env variable definitions: the list (with filters) and one by id.
import { documented } from "../documented";
import { z } from "zod";
import * as api from "../client/envVariables";
import { objectType } from "../resources/schemaTypes";
import { Id, listArgs } from "./common";
import { ArgsOf, defineLookup, type OutputTwin } from "./definition";

/** An env variable definition, as both lookups return it. */
export const EnvDefinitionSchema = objectType(
  "EnvDefinition",
  z.object(
    documented("EnvDefinition", {
      /** The definition's id (`_id`). */
      id: z.string(),
      /** The variable's name. */
      name: z.string(),
      /** What it is for. */
      description: z.string().optional(),
      /** Where its values live: org, workspace, linked_account or workflow. */
      scope: api.EnvScope,
      /** The format its values must have: string, number or url. */
      format: api.EnvFormat,
      /** Whether its values are encrypted (and so read back as "[REDACTED]"). */
      encrypted: z.boolean(),
      /** The org it belongs to. */
      orgId: z.string().optional(),
      /** Creation time, ISO 8601. */
      createdAt: z.string().optional(),
      /** Last update time, ISO 8601. */
      updatedAt: z.string().optional(),
    }),
  ),
);

/** An env variable definition. */
export type EnvDefinition = z.output<typeof EnvDefinitionSchema>;

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

/** getEnvDefinitions, defined once (see definition.ts). */
export const EnvDefinitionsLookup = defineLookup({
  name: "getEnvDefinitions",
  description:
    "Lists env variable definitions, every page, optionally filtered. " +
    "Uses the API key (the platform refuses bearer tokens here).",
  args: documented("getEnvDefinitions", {
    /** Only definitions of this scope. */
    scope: api.EnvScope.optional(),
    /** Only definitions whose name matches (the platform's `name` filter). */
    name: z.string().min(1).optional(),
    /** Only definitions of this format. */
    format: api.EnvFormat.optional(),
    ...listArgs,
  }),
  result: z.array(EnvDefinitionSchema),
  listedAs: "definitions",
  run: async (reader, a) => {
    const docs = await api
      .listEnvDefinitions(reader, { scope: a.scope, name: a.name, var_format: a.format })
      .all(a.maxItems);
    return docs.map(toEnvDefinition);
  },
});

/** getEnvDefinition, defined once (see definition.ts). */
export const EnvDefinitionLookup = defineLookup({
  name: "getEnvDefinition",
  description: "Returns one env variable definition by id.",
  args: documented("getEnvDefinition", {
    /** The definition's id. */
    definitionId: Id,
  }),
  result: EnvDefinitionSchema,
  run: async (reader, a) => toEnvDefinition(await api.getEnvDefinition(reader, a.definitionId)),
});

/** Arguments of getEnvDefinitions. */
export type GetEnvDefinitionsArgs = ArgsOf<typeof EnvDefinitionsLookup.args>;

/** Arguments of getEnvDefinition. */
export type GetEnvDefinitionArgs = ArgsOf<typeof EnvDefinitionLookup.args>;

/**
 * Lists env variable definitions, every page, optionally filtered. Uses the API key (the platform refuses bearer
 * tokens here).
 */
export const getEnvDefinitions: (args?: GetEnvDefinitionsArgs) => Promise<EnvDefinition[]> =
  EnvDefinitionsLookup.inProgram;

/** Returns one env variable definition by id. */
export const getEnvDefinition: (args: GetEnvDefinitionArgs) => Promise<EnvDefinition> = EnvDefinitionLookup.inProgram;

/** getEnvDefinitions, taking Inputs and returning an Output. */
export const getEnvDefinitionsOutput: OutputTwin<GetEnvDefinitionsArgs, EnvDefinition[]> =
  EnvDefinitionsLookup.output(getEnvDefinitions);
/** getEnvDefinition, taking Inputs and returning an Output. */
export const getEnvDefinitionOutput: OutputTwin<GetEnvDefinitionArgs, EnvDefinition> =
  EnvDefinitionLookup.output(getEnvDefinition);

// The lookups as the native provider's functions: each one's arguments and result in the schema,
// and the lookup it runs (provider/functions/). A function's result is an object, so a list
// comes back under a name: `getLinkedAccounts(...).linkedAccounts`.
import { z } from "zod";
import { EnvFormat, EnvScope } from "../client/schemas";
import { getAuditEvents } from "../functions/auditEvents";
import { getEnvDefinition, getEnvDefinitions } from "../functions/envDefinitions";
import { getEnvValues } from "../functions/envValues";
import { getLinkedAccounts } from "../functions/linkedAccounts";
import { objectType } from "../resources/schemaTypes";
import { objectOf, ObjectSpec } from "./schema";

const maxItems = z.number().int().optional().describe("Stop after this many items (default: all of them).");
const isoTime = (what: string) => z.string().optional().describe(`${what} time, ISO 8601.`);

const LinkedAccount = objectType(
  "LinkedAccount",
  z.object({
    id: z.string().describe("The platform's id (`_id`)."),
    accountId: z.string().describe("Your identifier of the account: what resources take as `linkedAccountId`."),
    name: z.string().optional().describe("Display name."),
    environment: z.string().optional().describe("The environment the account lives in."),
    udf: z
      .array(
        objectType(
          "UserDefinedField",
          z.object({
            keyName: z.string().describe("The field's name."),
            keyValue: z.unknown().describe("The field's value."),
          }),
        ),
      )
      .describe("User-defined fields."),
    createdAt: isoTime("Creation"),
    updatedAt: isoTime("Last update"),
  }),
);

const envDefinitionShape = {
  id: z.string().describe("The definition's id (`_id`)."),
  name: z.string().describe("The variable's name."),
  description: z.string().optional().describe("What it is for."),
  scope: EnvScope.describe("Where its values live: org, workspace, linked_account or workflow."),
  format: EnvFormat.describe("The format its values must have: string, number or url."),
  encrypted: z.boolean().describe('Whether its values are encrypted (and so read back as "[REDACTED]").'),
  orgId: z.string().optional().describe("The org it belongs to."),
  createdAt: isoTime("Creation"),
  updatedAt: isoTime("Last update"),
};
const EnvDefinition = objectType("EnvDefinition", z.object(envDefinitionShape));

const EnvValue = objectType(
  "EnvValue",
  z.object({
    id: z.string().describe("The value's id (`_id`)."),
    definitionId: z.string().describe("The definition's id."),
    definitionName: z.string().optional().describe("The definition's name."),
    scope: EnvScope.optional().describe("The definition's scope."),
    encrypted: z
      .boolean()
      .optional()
      .describe('Whether the definition is encrypted; then `value` is "[REDACTED]", as the platform returns it.'),
    value: z.string().describe("The value, as the platform returns it (never guessed for encrypted definitions)."),
    linkedAccountId: z.string().optional().describe("The linked account, for linked_account and workflow values."),
    workflowId: z.string().optional().describe("The workflow, for workflow values."),
    updatedAt: isoTime("Last update"),
  }),
);

/** One function of the native provider. */
export interface NativeFunction {
  /** Its name: the end of its token, `integration-platform:index:<name>`. */
  name: string;
  /** What it returns, as the schema and the SDKs say it. */
  description: string;
  /** Its arguments, each with its description. */
  args: z.ZodRawShape;
  /** Its result's shape in the schema. */
  outputs(types: Record<string, ObjectSpec>): ObjectSpec;
  /** Runs the lookup with the provider's connection. */
  run(args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A function whose result is a list, returned under `key`. */
function listing(
  name: string,
  description: string,
  args: z.ZodRawShape,
  key: string,
  item: z.ZodType,
  lookup: (args: never) => Promise<unknown[]>,
  secret = false,
): NativeFunction {
  return {
    name,
    description,
    args,
    outputs: (types) => {
      const spec = objectOf({ [key]: z.array(item) }, types);
      if (secret) spec.properties[key].secret = true;
      return spec;
    },
    run: async (args) => ({ [key]: await lookup(args as never) }),
  };
}

/** Every function of the native provider, in the order the schema lists them. */
export const FUNCTIONS: NativeFunction[] = [
  listing(
    "getLinkedAccounts",
    "Lists linked accounts, every page, optionally filtered. Uses the API key (the platform refuses bearer tokens here).",
    {
      search: z.string().optional().describe("Only accounts whose name contains this (the platform's `search`)."),
      envVariableName: z.string().optional().describe("Only accounts with a value of the env variable of this name..."),
      envVariableValue: z.string().optional().describe("...equal to this. Given together with `envVariableName`."),
      maxItems,
    },
    "linkedAccounts",
    LinkedAccount,
    getLinkedAccounts,
  ),
  listing(
    "getEnvDefinitions",
    "Lists env variable definitions, every page, optionally filtered. Uses the API key (the platform refuses bearer tokens here).",
    {
      scope: EnvScope.optional().describe("Only definitions of this scope."),
      name: z.string().optional().describe("Only definitions whose name matches (the platform's `name` filter)."),
      format: EnvFormat.optional().describe("Only definitions of this format."),
      maxItems,
    },
    "definitions",
    EnvDefinition,
    getEnvDefinitions,
  ),
  {
    name: "getEnvDefinition",
    description: "Returns one env variable definition by id.",
    args: { definitionId: z.string().describe("The definition's id.") },
    outputs: (types) => objectOf(envDefinitionShape, types),
    run: async (args) => ({ ...(await getEnvDefinition(args as never)) }),
  },
  listing(
    "getEnvValues",
    'Lists the env values of one scope, every page. Encrypted values come back as "[REDACTED]"; the list is a secret.',
    {
      scope: EnvScope.describe("The scope to list: org, workspace, linked_account or workflow."),
      definitionId: z.string().optional().describe("Only values of this definition."),
      linkedAccountId: z
        .string()
        .optional()
        .describe(
          "The linked account: required for linked_account, optional for workflow, refused for org and workspace.",
        ),
      workflowId: z.string().optional().describe("The workflow: required for workflow, refused otherwise."),
      maxItems,
    },
    "values",
    EnvValue,
    getEnvValues,
    true,
  ),
  listing(
    "getAuditEvents",
    "Lists audit log entries, every page (newest first on the emulator), up to `maxItems`. Each entry is in the platform's own (undocumented) shape.",
    { maxItems },
    "events",
    z.record(z.string(), z.unknown()),
    getAuditEvents,
  ),
];

/** The function of a token's name, if the provider has it. */
export function functionNamed(name: string): NativeFunction | undefined {
  return FUNCTIONS.find((fn) => fn.name === name);
}

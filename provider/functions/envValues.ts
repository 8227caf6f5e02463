// Lookup of env variable values in one scope. The scope rules are checked before any request.
import { documented } from "../documented";
import { z } from "zod";
import * as api from "../client/envVariables";
import { objectType } from "../resources/schemaTypes";
import { Id, listArgs } from "./common";
import { ArgsOf, defineLookup, type OutputTwin } from "./definition";

/** An env variable value as listed in a scope. */
export const EnvValueSchema = objectType(
  "EnvValue",
  z.object(
    documented("EnvValue", {
      /** The value's id (`_id`). */
      id: z.string(),
      /** The definition's id. */
      definitionId: z.string(),
      /** The definition's name. */
      definitionName: z.string().optional(),
      /** The definition's scope. */
      scope: api.EnvScope.optional(),
      /** Whether the definition is encrypted; then `value` is "[REDACTED]", as the platform returns it. */
      encrypted: z.boolean().optional(),
      /** The value, as the platform returns it (never guessed for encrypted definitions). */
      value: z.string(),
      /** The linked account, for linked_account and workflow values. */
      linkedAccountId: z.string().optional(),
      /** The workflow, for workflow values. */
      workflowId: z.string().optional(),
      /** Last update time, ISO 8601. */
      updatedAt: z.string().optional(),
    }),
  ),
);

/** An env variable value as listed in a scope. */
export type EnvValue = z.output<typeof EnvValueSchema>;

/** getEnvValues, defined once (see definition.ts). */
export const EnvValuesLookup = defineLookup({
  name: "getEnvValues",
  description:
    'Lists the env values of one scope, every page. Encrypted values come back as "[REDACTED]"; the list is a secret.',
  args: documented("getEnvValues", {
    /** The scope to list: org, workspace, linked_account or workflow. */
    scope: api.EnvScope,
    /** Only values of this definition. */
    definitionId: Id.optional(),
    /** The linked account: required for linked_account, optional for workflow, refused for org and workspace. */
    linkedAccountId: Id.optional(),
    /** The workflow: required for workflow, refused otherwise. */
    workflowId: Id.optional(),
    ...listArgs,
  }),
  refine: (args, ctx) => {
    // The list operation's rules, checked here so that a wrong combination costs no request and
    // names the property.
    for (const { property, broken } of api.scopeViolations(args.scope, args)) {
      const message =
        broken === "required" ? `is required for scope ${args.scope}` : `does not apply to scope ${args.scope}`;
      ctx.addIssue({ code: "custom", path: [property], message });
    }
  },
  result: z.array(EnvValueSchema),
  listedAs: "values",
  // Values of definitions that are not encrypted come back readable.
  secret: true,
  run: async (reader, a) => {
    const docs = await api
      .listEnvValues(reader, a.scope, {
        variable_definition_id: a.definitionId,
        linked_account_id: a.linkedAccountId,
        workflow_id: a.workflowId,
      })
      .all(a.maxItems);
    return docs.map((v) => ({
      id: v._id,
      definitionId: v.variable_definition_id._id,
      definitionName: v.variable_definition_id.name ?? undefined,
      scope: v.variable_definition_id.scope ?? undefined,
      encrypted: v.variable_definition_id.encrypted ?? undefined,
      value: v.value,
      linkedAccountId: v.linked_account_id ?? undefined,
      workflowId: v.workflow_id ?? undefined,
      updatedAt: v.updatedAt ?? undefined,
    }));
  },
});

/** Arguments of getEnvValues. */
export type GetEnvValuesArgs = ArgsOf<typeof EnvValuesLookup.args>;

/**
 * Lists the env values of one scope, every page. Encrypted values come back as "[REDACTED]"; the list is a secret.
 * @remarks The list is a secret in getEnvValuesOutput's Output and in the native function's result; this
 * function's promise holds it plain.
 */
export const getEnvValues: (args: GetEnvValuesArgs) => Promise<EnvValue[]> = EnvValuesLookup.inProgram;

/** getEnvValues, taking Inputs and returning a secret Output: values can be sensitive. */
export const getEnvValuesOutput: OutputTwin<GetEnvValuesArgs, EnvValue[]> = EnvValuesLookup.output(getEnvValues);

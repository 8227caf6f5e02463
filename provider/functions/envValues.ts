// Lookup of env variable values in one scope. The scope rules are checked before any request.
import { z } from "zod";
import * as api from "../client/schemas";
import { scopeViolations } from "../client/scopes";
import { ListArgs, lookup, maxItems, outputVersion } from "./common";

/** An env variable value as listed in a scope. */
export interface EnvValue {
  /** The value's id (`_id`). */
  id: string;
  /** The definition's id. */
  definitionId: string;
  /** The definition's name. */
  definitionName?: string;
  /** The definition's scope. */
  scope?: api.EnvScope;
  /** Whether the definition is encrypted; then `value` is "[REDACTED]", as the platform returns it. */
  encrypted?: boolean;
  /** The value, as the platform returns it (never guessed for encrypted definitions). */
  value: string;
  /** The linked account, for linked_account and workflow values. */
  linkedAccountId?: string;
  /** The workflow, for workflow values. */
  workflowId?: string;
  /** Last update time, ISO 8601. */
  updatedAt?: string;
}

/** Arguments of getEnvValues. */
export interface GetEnvValuesArgs extends ListArgs {
  /** The scope to list: org, workspace, linked_account or workflow. */
  scope: api.EnvScope;
  /** Only values of this definition. */
  definitionId?: string;
  /** The linked account: required for linked_account, optional for workflow, refused for org and workspace. */
  linkedAccountId?: string;
  /** The workflow: required for workflow, refused otherwise. */
  workflowId?: string;
}

const id = z.string().trim().min(1, "must not be empty");
const schema = z
  .object({
    scope: api.EnvScope,
    definitionId: id.optional(),
    linkedAccountId: id.optional(),
    workflowId: id.optional(),
    maxItems,
  })
  .strict()
  .superRefine((args, ctx) => {
    // The list operation's rules, checked here so that a wrong combination costs no request and
    // names the property.
    for (const { property, broken } of scopeViolations(args.scope, args)) {
      const message =
        broken === "required" ? `is required for scope ${args.scope}` : `does not apply to scope ${args.scope}`;
      ctx.addIssue({ code: "custom", path: [property], message });
    }
  });

/** Lists the env values of one scope, every page. Encrypted values come back as "[REDACTED]". */
export const getEnvValues: (args: GetEnvValuesArgs) => Promise<EnvValue[]> = lookup(
  "getEnvValues",
  schema,
  async (reader, a) => {
    const docs = await reader
      .listEnvValues(a.scope, {
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
);

/** getEnvValues, taking Inputs and returning a secret Output: values can be sensitive. */
export const getEnvValuesOutput = outputVersion(getEnvValues, true);

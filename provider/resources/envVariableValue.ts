// EnvVariableValue: one env variable value (platform facts, "Environment variables"). Which ids
// are present decides the scope, and they must fit the definition's scope. Create is the API's
// upsert, so an existing value for the same definition and scope is adopted, never duplicated.
// The value is a secret in inputs, outputs and state, and never appears in a message.
import * as pulumi from "@pulumi/pulumi";
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { ApiError, NotFoundError, SettingsError } from "../client/errors";
import { EnvDefinition, EnvFormat, EnvScope } from "../client/schemas";
import { findItem } from "../client/pagination";
import { scopeViolations } from "../client/scopes";
import { currentRun } from "../connection";
import { checkProperties, containsUnknown, describe, diffProperties, Id, unlessGone } from "./lifecycle";
import envVariableValueForwarder = require("../bridge/providers/EnvVariableValue");
import { MODULE } from "../bridge/program";

/** Inputs of an EnvVariableValue. */
export interface EnvVariableValueArgs {
  /** The env variable definition's id. Changing it replaces the resource. */
  definitionId: pulumi.Input<string>;
  /** The value, always a string; `number` and `url` definitions check its format. Stored as a secret. */
  value: pulumi.Input<string>;
  /** The linked account, for a `linked_account` definition (or optionally a `workflow` one). Changing it replaces the resource. */
  linkedAccountId?: pulumi.Input<string>;
  /** The workflow, for a `workflow` definition. Changing it replaces the resource. */
  workflowId?: pulumi.Input<string>;
}

interface EnvVariableValueState {
  definitionId: string;
  value: string;
  linkedAccountId?: string;
  workflowId?: string;
  /** The definition's scope, learned at check so that read knows which list to look in. */
  scope: EnvScope;
  /** Whether the platform redacts this value on read, so drift in it cannot be seen. */
  encrypted: boolean;
}

const inputShape = {
  definitionId: Id,
  // The value itself never goes into a reason: it is a secret.
  // The constructor wraps `value` in pulumi.secret(), so a missing value arrives as null.
  value: z.string({ error: (issue) => (issue.input == null ? "is required" : `must be a string, not ${describe(issue.input)}`) }),
  linkedAccountId: Id.optional(),
  workflowId: Id.optional(),
};

/** The properties that decide which platform object the resource addresses. */
const IDENTITY = ["definitionId", "linkedAccountId", "workflowId"] as const;

/** Checks the ids present against a scope; one failure per property. */
function scopeFailures(scope: EnvScope, ids: { linkedAccountId?: string; workflowId?: string }, subject: string): pulumi.dynamic.CheckFailure[] {
  return scopeViolations(scope, ids).map(({ property, broken }) => ({
    property,
    reason: broken === "required" ? `is required: ${subject} has scope ${scope}` : `must not be set: ${subject} has scope ${scope}`,
  }));
}

/** Checks a value against a definition's `var_format`, without echoing the value. */
export function formatFailure(format: EnvFormat, value: string): string | undefined {
  if (format === "number" && (value.trim() === "" || !Number.isFinite(Number(value)))) {
    return "must be a number, because the definition's var_format is number";
  }
  if (format === "url") {
    let ok = false;
    try {
      const url = new URL(value);
      ok = url.protocol === "http:" || url.protocol === "https:";
    } catch {
      ok = false;
    }
    if (!ok) return "must be an absolute http(s) URL, because the definition's var_format is url";
  }
  return undefined;
}

/** The provider behind EnvVariableValue, which the provider host serves (bridge/host.ts). */
export const envVariableValueProvider: pulumi.dynamic.ResourceProvider = {
  async check(olds: Partial<EnvVariableValueState>, news) {
    const { inputs, failures } = checkProperties(inputShape, news);
    // Every purely local check comes first: bad input must not cause a request.
    if (failures.length > 0 || containsUnknown(inputs.definitionId)) return { inputs, failures };

    // The definition's scope and format are the platform's data. When nothing that depends on
    // them changed since the last check, its result stands: a preview with no changes makes no call.
    const unchanged =
      olds.scope !== undefined &&
      olds.encrypted !== undefined &&
      (["definitionId", "value", "linkedAccountId", "workflowId"] as const).every((k) => isDeepStrictEqual(olds[k], inputs[k]));
    if (unchanged) return { inputs: { ...inputs, scope: olds.scope, encrypted: olds.encrypted }, failures };

    let definition: EnvDefinition;
    try {
      definition = await currentRun().envDefinition(inputs.definitionId as string);
    } catch (error) {
      if (error instanceof NotFoundError) {
        return { inputs, failures: [{ property: "definitionId", reason: `no env variable definition has the id ${JSON.stringify(inputs.definitionId)}` }] };
      }
      // A missing setting or an unreachable platform: one clean line at preview, not a stack trace.
      if (error instanceof ApiError || error instanceof SettingsError) {
        return { inputs, failures: [{ property: "definitionId", reason: `the definition could not be read to check the value: ${error.message}` }] };
      }
      throw error;
    }
    const subject = `definition ${definition.name}`;
    if (!containsUnknown(inputs.linkedAccountId) && !containsUnknown(inputs.workflowId)) {
      failures.push(...scopeFailures(definition.scope, inputs as { linkedAccountId?: string; workflowId?: string }, subject));
    }
    if (!containsUnknown(inputs.value)) {
      const reason = formatFailure(definition.var_format, inputs.value as string);
      if (reason) failures.push({ property: "value", reason });
    }
    return { inputs: { ...inputs, scope: definition.scope, encrypted: definition.encrypted }, failures };
  },

  async diff(_id, olds: EnvVariableValueState, news: EnvVariableValueState) {
    return diffProperties(olds, news, IDENTITY, ["value"]);
  },

  async create(inputs: EnvVariableValueState) {
    const run = currentRun();
    const record = await run.client.setEnvValue({
      variable_definition_id: inputs.definitionId,
      value: inputs.value,
      linked_account_id: inputs.linkedAccountId,
      workflow_id: inputs.workflowId,
    });
    run.claim("EnvVariableValue", record._id);
    return { id: record._id, outs: inputs };
  },

  async read(_id, props: EnvVariableValueState) {
    const { client } = currentRun();
    // At most one value exists per definition, linked account and workflow: match on all three.
    // The list may hold many other values (a workflow's per-account values, say): walk its pages.
    const live = await unlessGone(() =>
      findItem(
        (page, limit) =>
          client.listEnvValues(props.scope, {
            variable_definition_id: props.definitionId,
            linked_account_id: props.linkedAccountId,
            workflow_id: props.workflowId,
            page,
            limit,
          }),
        (doc) =>
          doc.variable_definition_id._id === props.definitionId &&
          (doc.linked_account_id ?? undefined) === props.linkedAccountId &&
          (doc.workflow_id ?? undefined) === props.workflowId,
      ),
    );
    if (!live) return { id: "", props: {} };
    // An encrypted value reads back as "[REDACTED]": the state's value is the best knowledge.
    const value = props.encrypted ? props.value : live.value;
    return { id: live._id, props: { ...props, value } };
  },

  async update(_id, _olds: EnvVariableValueState, news: EnvVariableValueState) {
    await currentRun().client.setEnvValue({
      variable_definition_id: news.definitionId,
      value: news.value,
      linked_account_id: news.linkedAccountId,
      workflow_id: news.workflowId,
    });
    return { outs: news };
  },

  async delete(id) {
    // The upsert hands a renamed resource the same value: then the value is the new resource's.
    const run = currentRun();
    if (run.claimedByAnother("EnvVariableValue", id)) return;
    await unlessGone(() => run.client.deleteEnvValue(id));
  },
};

/** Sets one env variable value at the scope its ids give; the value is a secret. */
export class EnvVariableValue extends pulumi.dynamic.Resource {
  /** The definition's id. */
  declare readonly definitionId: pulumi.Output<string>;
  /** The value (secret). */
  declare readonly value: pulumi.Output<string>;
  /** The linked account, if the scope takes one. */
  declare readonly linkedAccountId: pulumi.Output<string | undefined>;
  /** The workflow, if the scope takes one. */
  declare readonly workflowId: pulumi.Output<string | undefined>;
  /** The definition's scope: org, workspace, linked_account or workflow. */
  declare readonly scope: pulumi.Output<EnvScope>;
  /** Whether the platform encrypts the value (and so redacts it on read). */
  declare readonly encrypted: pulumi.Output<boolean>;

  /** Declares one env variable value. */
  constructor(name: string, args: EnvVariableValueArgs, opts?: pulumi.CustomResourceOptions) {
    // The input is made secret too: additionalSecretOutputs covers outputs only, and inputs are
    // kept in state as well.
    const props = { ...args, value: pulumi.secret(args.value), scope: undefined, encrypted: undefined };
    const options = pulumi.mergeOptions(opts, { additionalSecretOutputs: ["value"] });
    super(envVariableValueForwarder, name, props, options, MODULE, "EnvVariableValue");
  }
}

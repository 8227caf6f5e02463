// EnvVariableValue: one env variable value (docs/design/contract.md#env-variables). Which ids
// are present decides the scope, and they must fit the definition's scope. Create looks first:
// a value already as declared is adopted without a write; otherwise create is the API's upsert,
// so an existing value for the same definition and scope is overwritten, never duplicated.
// What delete does is declared (restoreOnDelete, noValueBefore) or learned by that look.
// The value is a secret in inputs, outputs and state, and never appears in a message.
// Types from the SDK's index; values from its modules: the index also loads the Automation API and
// closure serialization (TypeScript itself), a second of the plugin's start (docs/design/native.md).
import type * as pulumi from "@pulumi/pulumi";
import * as log from "@pulumi/pulumi/log";
import { documented } from "../documented";
import { z } from "zod";
import { AdviceError, NotFoundError, unlessGone } from "../client/errors";
import { EnvDefinition, EnvFormat, EnvScope, scopeViolations } from "../client/envVariables";
import type { Session } from "../session";
import { defineResource } from "./definition";
import { containsUnknown, Id, mustBe, required } from "./inputs";
import { declareProperties, defined } from "./properties";

/** EnvVariableValue's properties, each declared once (see properties.ts). */
export const EnvVariableValueProperties = declareProperties({
  identity: documented("EnvVariableValue", {
    /** The env variable definition's id. */
    definitionId: Id,
    /**
     * The linked account, for a `linked_account` definition (or optionally a `workflow` one).
     */
    linkedAccountId: Id.optional(),
    /** The workflow, for a `workflow` definition. */
    workflowId: Id.optional(),
  }),
  settings: documented("EnvVariableValue", {
    // The value itself never goes into a reason: it is a secret. The class wraps it in
    // pulumi.secret(), so a missing value arrives as null.
    /** The value, always a string; `number` and `url` definitions check its format. Stored as a secret. */
    value: z.string({ error: required("a string", (input) => input == null) }),
    /**
     * For an encrypted definition: when the platform already holds a value at this scope, create
     * takes it over without writing. An encrypted value reads back redacted, so it cannot be
     * compared: `value` is trusted to equal it, and only a later change of `value` is written.
     * `pulumi-integration-platform import` sets it on the values it brings in. A readable value
     * that already equals `value` is never written, with or without this.
     */
    adoptEncryptedValue: z.boolean({ error: mustBe("true or false") }).optional(),
    /**
     * What delete (destroy, or removing the resource) sets the value to, instead of putting back
     * what create replaced or deleting it. Stored as a secret. Changing it writes nothing.
     */
    restoreOnDelete: z.string({ error: mustBe("a string") }).optional(),
    /**
     * Declares that the platform held no value at this placement before this resource: delete
     * (destroy, or removing the resource) deletes the value, whatever create found. With
     * createWithoutRead, create is then one write. Not with restoreOnDelete or adoptEncryptedValue.
     * Changing it writes nothing.
     */
    noValueBefore: z.boolean({ error: mustBe("true or false") }).optional(),
  }),
  derived: documented("EnvVariableValue", {
    /**
     * The definition's scope (org, workspace, linked_account or workflow), learned at check so that
     * read knows which list to look in.
     */
    scope: EnvScope,
    /** Whether the platform encrypts the value, and so redacts it on read: drift in it cannot be seen. */
    encrypted: z.boolean(),
  }),
  outputs: documented("EnvVariableValue", {
    /** Whether the platform held a value at this placement before create took it over; delete then never deletes it. */
    foundExisting: z.boolean().optional(),
    /** The readable value create found there (secret); delete puts it back. Absent for an encrypted definition. */
    previousValue: z.string().optional(),
  }),
  secret: ["value", "restoreOnDelete", "previousValue"],
});

/** Declarations of what delete does that contradict noValueBefore, one failure each. */
function declarationFailures(inputs: Record<string, unknown>): pulumi.dynamic.CheckFailure[] {
  if (inputs.noValueBefore !== true) return [];
  const failures: pulumi.dynamic.CheckFailure[] = [];
  if (inputs.restoreOnDelete !== undefined) {
    failures.push({
      property: "noValueBefore",
      reason:
        "must not be true together with restoreOnDelete: declare one of them, " +
        "what delete sets the value to or that it deletes it",
    });
  }
  if (inputs.adoptEncryptedValue === true) {
    failures.push({
      property: "noValueBefore",
      reason: "must not be true together with adoptEncryptedValue: adopting takes over a value that is already there",
    });
  }
  return failures;
}

/** Checks the ids present against a scope; one failure per property. */
function scopeFailures(
  scope: EnvScope,
  ids: { linkedAccountId?: string; workflowId?: string },
  subject: string,
): pulumi.dynamic.CheckFailure[] {
  return scopeViolations(scope, ids).map(({ property, broken }) => ({
    property,
    reason:
      broken === "required"
        ? `is required: ${subject} has scope ${scope}`
        : `must not be set: ${subject} has scope ${scope}`,
  }));
}

/** The definition, or the failure that says it does not exist. */
async function definitionOrFailure(
  session: Session,
  definitionId: string,
): Promise<
  { found: EnvDefinition; failure?: undefined } | { found?: undefined; failure: pulumi.dynamic.CheckFailure }
> {
  try {
    return { found: await session.envDefinition(definitionId) };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return {
      failure: {
        property: "definitionId",
        reason: `no env variable definition has the id ${JSON.stringify(definitionId)}`,
      },
    };
  }
}

/** How a value's ids and format misfit its definition, one failure per property. */
function definitionFailures(definition: EnvDefinition, inputs: Record<string, unknown>): pulumi.dynamic.CheckFailure[] {
  const failures = scopeFailures(
    definition.scope,
    inputs as { linkedAccountId?: string; workflowId?: string },
    `definition ${definition.name}`,
  );
  for (const property of ["value", "restoreOnDelete"] as const) {
    if (typeof inputs[property] !== "string" || containsUnknown(inputs[property])) continue;
    const reason = formatFailure(definition.var_format, inputs[property] as string);
    if (reason) failures.push({ property, reason });
  }
  return failures;
}

/**
 * Inputs that check could not complete (validation off): their definition's scope and encryption, or
 * an error naming each misfit.
 */
async function withDefinition<T extends { definitionId: string }>(
  session: Session,
  inputs: T,
): Promise<T & { scope: EnvScope; encrypted: boolean }> {
  const definition = await definitionOrFailure(session, inputs.definitionId);
  const failures = definition.found ? definitionFailures(definition.found, inputs) : [definition.failure];
  if (failures.length > 0 || !definition.found)
    throw new AdviceError(`EnvVariableValue: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
  return { ...inputs, scope: definition.found.scope, encrypted: definition.found.encrypted };
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
      // not a URL at all: ok stays false
    }
    if (!ok) return "must be an absolute http(s) URL, because the definition's var_format is url";
  }
  return undefined;
}

/** EnvVariableValue, defined once: the host serves its operations, the change summary its words. */
export const EnvVariableValueDefinition = defineResource({
  type: "EnvVariableValue",
  description: "Sets one env variable value at the scope its ids give; the value is a secret.",
  properties: EnvVariableValueProperties,
  operations: {
    async check(_context, olds, news) {
      const { inputs, failures: propertyFailures } = EnvVariableValueProperties.check(news);
      const failures = [...propertyFailures, ...declarationFailures(inputs)];
      // The scope and encryption are the definition's: known from the last check while it is the same.
      const sameDefinition =
        olds.definitionId === inputs.definitionId && olds.scope !== undefined && olds.encrypted !== undefined;
      return {
        inputs: sameDefinition ? { ...inputs, scope: olds.scope, encrypted: olds.encrypted } : inputs,
        failures,
      };
    },

    // The definition's scope and format are the platform's data: read once per command for all values.
    async validate({ session }, inputs) {
      const definition = await definitionOrFailure(session, inputs.definitionId);
      if (!definition.found) return { failures: [definition.failure] };
      return {
        failures: definitionFailures(definition.found, inputs),
        inputs: { scope: definition.found.scope, encrypted: definition.found.encrypted },
      };
    },

    async create({ session, claim }, checked) {
      // Not validated at preview (validateAtPreview off): the definition is read now, and a misfit fails here.
      const inputs = checked.scope !== undefined ? checked : await withDefinition(session, checked);
      const declared = inputs.restoreOnDelete !== undefined || inputs.noValueBefore === true;
      if (declared && inputs.adoptEncryptedValue !== true && session.settings.createWithoutRead) {
        // What delete does is declared, so the listing would record nothing: the upsert alone (docs/guides/scaling.md).
        const { _id } = await session.setEnvValue(inputs, inputs.value);
        claim(_id);
        return { id: _id, outs: EnvVariableValueProperties.inputsOf(inputs) };
      }
      // One listing per placement, shared with the session's other values there: what is there already?
      const existing = await session.findEnvValue(inputs);
      // Already as declared (an adopted setup, or a run that stopped after this write): no write.
      const adopted =
        existing !== undefined &&
        (inputs.encrypted ? inputs.adoptEncryptedValue === true : existing.value === inputs.value);
      const id = adopted ? existing._id : (await session.setEnvValue(inputs, inputs.value))._id;
      claim(id);
      // What delete puts back: the value found, when it can be read (an encrypted one reads redacted).
      const found =
        existing === undefined
          ? {}
          : { foundExisting: true, ...(inputs.encrypted ? {} : { previousValue: existing.value }) };
      return { id, outs: { ...EnvVariableValueProperties.inputsOf(inputs), ...found } };
    },

    async read({ session }, _id, props) {
      const live = await unlessGone(() => session.findEnvValue(props));
      if (!live) return { id: "", props: {} };
      // An encrypted value reads back as "[REDACTED]": the state's value is the best knowledge.
      const outs = { ...props, value: props.encrypted ? props.value : live.value };
      // The engine marks the returned inputs' value secret again, as it was (tested in e2e/reliability/secrets).
      return { id: live._id, props: outs, inputs: EnvVariableValueProperties.inputsOf(outs) };
    },

    async update(context, _id, olds, news) {
      // Only adoptEncryptedValue, restoreOnDelete or noValueBefore changed: they act at create and delete.
      if (olds.value !== news.value) await context.session.setEnvValue(news, news.value);
      return {
        outs: {
          ...EnvVariableValueProperties.inputsOf(news),
          ...defined({ foundExisting: olds.foundExisting, previousValue: olds.previousValue }),
        },
      };
    },

    async delete(context, id, props) {
      // The upsert hands a renamed resource the same value: then the value is the new resource's.
      if (context.claimedByAnother(id)) return;
      // What was declared before what create found: a run that stopped after its write finds its own value.
      if (props.restoreOnDelete === undefined && props.noValueBefore === true) {
        await unlessGone(() => context.session.deleteEnvValue(props, id));
        return;
      }
      // Never lose what was there: a declared restoreOnDelete, else the value create replaced.
      const restore = props.restoreOnDelete ?? props.previousValue;
      if (restore !== undefined) {
        if (restore !== props.value || props.restoreOnDelete !== undefined)
          await unlessGone(() => context.session.setEnvValue(props, restore));
        return;
      }
      if (props.foundExisting) {
        // An encrypted value was there before, and could not be read: leave the current one rather
        // than delete what may be an end user's credential.
        log.warn(
          `EnvVariableValue ${id} (definition ${props.definitionId}` +
            (props.linkedAccountId ? `, linked account ${props.linkedAccountId}` : "") +
            (props.workflowId ? `, workflow ${props.workflowId}` : "") +
            "): left on the platform, not deleted: it replaced an encrypted value that existed before " +
            "and could not be read back. Declare restoreOnDelete to set a value on delete.",
        );
        return;
      }
      await unlessGone(() => context.session.deleteEnvValue(props, id));
    },
  },
  importable: {
    why:
      "its id is the platform's value id, which the API cannot look up. " +
      "Declare it in the program: create adopts a value that already equals `value` without writing " +
      "(an encrypted one with adoptEncryptedValue: true)",
  },
  summary: {
    section: (i) => (i.linkedAccountId === undefined ? "Env values (org, workspace and workflow scope)" : "Env values"),
    title: (i, _o, t) =>
      `env value of definition ${t.id(i.definitionId)}` +
      (i.workflowId !== undefined ? ` for workflow ${t.id(i.workflowId)}` : "") +
      (typeof i.scope === "string" ? `, scope ${t.code(i.scope)}` : ""),
    // The order of delete above; the values themselves are secrets and never shown.
    release: (i, o, t) =>
      i.restoreOnDelete !== undefined
        ? `the value is set to ${t.code("restoreOnDelete")}`
        : i.noValueBefore === true
          ? `the value is deleted from the platform (${t.code("noValueBefore")})`
          : o.previousValue !== undefined
            ? "the value it replaced is put back"
            : o.foundExisting === true
              ? "the value stays on the platform (it replaced an encrypted value that could not be read)"
              : "the value is deleted from the platform",
  },
});

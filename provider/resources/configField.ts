// ConfigField: one field of one config (docs/design/contract.md#config-fields), in the config of
// one linked account and app. The field sits in `fields` when it is global to the app and in
// `workflows[{id, fields}]` when it belongs to a workflow. Create records what the field held
// before, and delete puts it back. Its name, options and labels go in the spec's field update body;
// its value in the platform reference's `{value}` body, which the spec's body has no place for.
import { documented } from "../documented";
import { isDeepStrictEqual } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { FieldNotFoundError, NotFoundError, unlessGone } from "../client/errors";
import * as api from "../client/configs";
import { NameValue } from "../client/configs";
import type { Session } from "../session";
import { defineResource } from "./definition";
import { containsUnknown, FieldValue, Id, isRecord, mustBe, NameValueList } from "./inputs";
import { objectType } from "./schemaTypes";
import { declareProperties, defined, StateOf } from "./properties";
import { configOrFailure, isFailure, quoted, unpublishedWorkflow } from "./validation";

/** A `{name, value}` pair as an input. */
export interface NameValueInput {
  /** The option's or label's name. */
  name: pulumi.Input<string>;
  /** The option's or label's value. */
  value: pulumi.Input<string>;
}

/** The field as the platform returns it (docs/design/contract.md#config-fields), in camelCase. */
const ConfigFieldRecordSchema = objectType(
  "ConfigFieldRecord",
  z.object(
    documented("ConfigFieldRecord", {
      /** The field's id. */
      id: z.string(),
      /** The field's display name. */
      name: z.string().optional(),
      /** Whether the field is required. */
      required: z.boolean(),
      /** One of text, number, select, map. */
      fieldType: z.string(),
      /** Whether the field is hidden. */
      hidden: z.boolean().optional(),
      /** The options, as the platform returns them. */
      options: z.array(z.unknown()),
      /** Whether dynamic map fields are available. */
      hasDynamicMapFields: z.boolean().optional(),
      /** The dynamic slot's identifier. */
      dynamicSlotIdentifier: z.string().optional(),
    }),
  ),
);
/** The field as the platform returns it (docs/design/contract.md#config-fields), in camelCase. */
export type ConfigFieldRecord = z.output<typeof ConfigFieldRecordSchema>;

/** The properties a ConfigField sets on the field, and so puts back on delete. */
const managed = documented("ConfigField", {
  /** The field's display name in this config. Omit it to leave the name alone. */
  name: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").optional(),
  /** The options of a select or map field. Omit them to leave the options alone; `[]` clears them. */
  options: NameValueList.optional(),
  /** Labels of the field. Omit them to leave the labels alone; `[]` clears them. */
  labels: NameValueList.optional(),
});
/** Values of the managed properties: what is set, found, or put back. */
const ManagedValues = objectType(
  "ConfigFieldValues",
  z
    .object(
      {
        ...managed,
        ...documented("ConfigFieldValues", {
          /** The field's value (restoreOnDelete only): what delete writes back. */
          value: FieldValue.nullable().optional(),
        }),
      },
      { error: mustBe("{name?, options?, labels?, value?}") },
    )
    .strict(),
);
type ManagedValues = z.output<typeof ManagedValues>;

/** ConfigField's properties, each declared once (see properties.ts). */
export const ConfigFieldProperties = declareProperties({
  identity: documented("ConfigField", {
    /** The application's slug, e.g. `hubspot`. */
    slug: Id,
    /** The customer's identifier of the linked account (end user). */
    linkedAccountId: Id,
    /**
     * The config to update; by default the platform names a config after its linked account.
     */
    configId: Id,
    /** The field's id. */
    fieldId: Id,
    /**
     * The published workflow the field belongs to; omit it for a field global to the app.
     */
    workflowId: Id.optional(),
  }),
  settings: documented("ConfigField", {
    ...managed,
    /**
     * The field's value in this config: a string for a text or select field (a select's one of its
     * options' values), a number for a number field, an object of strings for a map field; checked
     * against the field at preview. Omit it to leave the value alone, e.g. when the end user sets it.
     * Pass it as a secret to keep it out of state, output and summaries.
     */
    value: FieldValue.optional(),
    /**
     * What delete (destroy, or removing the resource) puts back, instead of what create found:
     * exactly these properties, whatever create recorded. Declare it when what create found is
     * not the state to go back to, e.g. after an interrupted create. Changing it writes nothing.
     */
    restoreOnDelete: ManagedValues.optional(),
  }),
  outputs: documented("ConfigField", {
    /** The field as the platform returned it: required, fieldType, hidden, options and the rest. */
    field: ConfigFieldRecordSchema,
    /** What the managed properties held before this resource took the field over; delete puts it back. */
    previous: ManagedValues,
    /**
     * The value the field held before this resource took it over (null: none); delete puts it back.
     * Stored as a secret, since a secret value's predecessor may be one too.
     */
    previousValue: FieldValue.nullable().optional(),
  }),
  secret: ["previousValue"],
});

/** What a ConfigField keeps in state: its inputs, the returned field, and what to restore. */
type ConfigFieldState = StateOf<typeof ConfigFieldProperties>;

/**
 * The properties a ConfigField sets through the spec's body, and so restores on delete (the change
 * summary names them too); the value has its own body and its own record, previousValue.
 */
export const MANAGED = Object.keys(managed) as (keyof typeof managed)[];
type Managed = (typeof MANAGED)[number];

/** What a field holds as its value, null for none. */
function liveFieldValue(live: api.ConfigFieldState | undefined): unknown {
  return live?.value ?? null;
}

/**
 * Why `value` does not fit the field, or undefined when it does: its type, a select's options, a
 * required field's emptiness. Never quotes the value: it may be a secret.
 */
export function valueProblem(field: api.ConfigFieldState, value: FieldValue): string | undefined {
  const which = `field ${JSON.stringify(field.id)} is a ${field.field_type} field`;
  const given = typeof value === "string" ? "a string" : typeof value === "number" ? "a number" : "an object";
  switch (field.field_type) {
    case "text":
      if (typeof value !== "string") return `${which}: give a string, not ${given}`;
      break;
    case "number":
      if (typeof value !== "number") {
        const instead = typeof value === "string" ? ' (e.g. 25, not the text "25")' : `, not ${given}`;
        return `${which}: give a number${instead}`;
      }
      break;
    case "select": {
      if (typeof value !== "string") return `${which}: give one of its options' values, a string, not ${given}`;
      const options = nameValues(field.options).map((o) => o.value);
      const listed = options.map((o) => JSON.stringify(o)).join(", ") || "(it has none)";
      if (!options.includes(value)) return `${which} and the value is not one of its options' values: ${listed}`;
      break;
    }
    case "map":
      if (typeof value !== "object") return `${which}: give an object of strings, not ${given}`;
      break;
  }
  if (field.required && (value === "" || (typeof value === "object" && Object.keys(value).length === 0)))
    return `field ${JSON.stringify(field.id)} is required: its value must not be empty`;
  return undefined;
}

/** Projects the platform's option or label elements onto `{name, value}`, the shape we send. */
function nameValues(list: unknown[] | null | undefined): NameValue[] {
  return (list ?? []).flatMap((item) => {
    const parsed = NameValue.safeParse(item);
    return parsed.success ? [{ name: parsed.data.name, value: parsed.data.value }] : [];
  });
}

/** What a managed property holds on the platform, in the shape we send. */
function liveValue(live: api.ConfigFieldState | undefined, key: Managed): string | NameValue[] | undefined {
  return key === "name" ? (live?.name ?? undefined) : nameValues(live?.[key]);
}

function toRecord(field: api.ConfigFieldRecord): ConfigFieldRecord {
  return defined({
    id: field.id,
    name: field.name ?? undefined,
    required: field.required,
    fieldType: field.field_type,
    hidden: field.hidden ?? undefined,
    options: field.options ?? [],
    hasDynamicMapFields: field.has_dynamic_map_fields ?? undefined,
    dynamicSlotIdentifier: field.dynamic_slot_identifier ?? undefined,
  }) as ConfigFieldRecord;
}

/** Finds the field in a config: among the global fields, or in the named workflow. */
function findField(config: api.Config, fieldId: string, workflowId?: string): api.ConfigFieldState | undefined {
  const fields = workflowId === undefined ? config.fields : config.workflows.find((w) => w.id === workflowId)?.fields;
  return fields?.find((f) => f.id === fieldId);
}

function where(s: ConfigFieldState): string {
  const workflow = s.workflowId ? `, workflow ${s.workflowId}` : "";
  return `field ${s.fieldId} (app ${s.slug}, linked account ${s.linkedAccountId}, config ${s.configId}${workflow})`;
}

/** Sends one field update; `values` holds only the properties to set. */
async function putField(session: Session, target: ConfigFieldState, values: ManagedValues): Promise<ConfigFieldRecord> {
  return toRecord(await session.updateConfigField(target, values));
}

/** Sends one value update in the `{value}` body; null clears the value. */
async function putValue(session: Session, target: ConfigFieldState, value: unknown): Promise<ConfigFieldRecord> {
  return toRecord(await session.setConfigFieldValue(target, value));
}

/** The values to send: what the user manages now, and the previous value of what they stopped managing. */
function desiredValues(news: Partial<ConfigFieldState>, olds?: ConfigFieldState): ManagedValues {
  const values: Partial<Record<Managed, unknown>> = {};
  for (const key of MANAGED) {
    if (news[key] !== undefined) values[key] = news[key];
    else if (olds && olds[key] !== undefined) values[key] = olds.previous[key] ?? (key === "name" ? undefined : []);
  }
  return defined(values) as ManagedValues;
}

/** The spec body's part of a restore: name, options and labels, without the value. */
function withoutValue(values: ManagedValues): ManagedValues {
  const { value: _, ...rest } = values;
  return rest;
}

/** True when the field already holds every value to send, so the write can be skipped. */
function holds(live: api.ConfigFieldState, values: ManagedValues): boolean {
  return MANAGED.every((key) => {
    if (!(key in values)) return true;
    if (key === "name") return (live.name ?? undefined) === values.name;
    return sameList(nameValues(live[key]), values[key] as NameValue[]);
  });
}

function sameList(a: NameValue[], b: NameValue[]): boolean {
  return a.length === b.length && a.every((item, i) => item.name === b[i].name && item.value === b[i].value);
}

/** True when two lists hold the same pairs, in any order: how refresh compares, since order is not drift. */
function sameItems(a: NameValue[], b: NameValue[]): boolean {
  const key = (list: NameValue[]) => list.map((item) => JSON.stringify([item.name, item.value])).sort();
  return sameList(a, b) || isDeepStrictEqual(key(a), key(b));
}

function idOf(s: ConfigFieldState): string {
  return [s.linkedAccountId, s.slug, s.configId, s.workflowId ?? "", s.fieldId].join("/");
}

/** ConfigField, defined once: the host serves its operations, the change summary its words. */
export const ConfigFieldDefinition = defineResource({
  type: "ConfigField",
  description: "Sets one field's value, name, options or labels in one config, and restores them on delete.",
  properties: ConfigFieldProperties,
  operations: {
    async validate({ session }, inputs) {
      const config = await configOrFailure(session, inputs);
      if (isFailure(config)) return { failures: [config] };
      const { workflowId } = inputs;
      if (workflowId !== undefined && !config.workflows.some((w) => w.id === workflowId))
        return { failures: [unpublishedWorkflow({ ...inputs, workflowId })] };
      const field = findField(config, inputs.fieldId, workflowId);
      if (field) {
        const problem =
          inputs.value === undefined || containsUnknown(inputs.value) ? undefined : valueProblem(field, inputs.value);
        const account = `linked account ${quoted(inputs.linkedAccountId)}`;
        const inConfig = `in config ${quoted(inputs.configId)} (app ${quoted(inputs.slug)}, ${account})`;
        // A workflow's field may share its id with a field global to the app: say which one.
        const where = workflowId === undefined ? inConfig : `${inConfig}, workflow ${quoted(workflowId)}`;
        return { failures: problem ? [{ property: "value", reason: `${where}, ${problem}: check value` }] : [] };
      }
      const place = workflowId === undefined ? "global to the app" : `of workflow ${quoted(workflowId)}`;
      return {
        failures: [
          {
            property: "fieldId",
            reason:
              `config ${quoted(inputs.configId)} (app ${quoted(inputs.slug)}, ` +
              `linked account ${quoted(inputs.linkedAccountId)}) has no field ${quoted(inputs.fieldId)} ${place}: ` +
              `check fieldId and workflowId`,
          },
        ],
      };
    },

    async create({ session, claim }, inputs) {
      if (inputs.restoreOnDelete && session.settings.createWithoutRead) {
        // What delete puts back is declared, so a read would record nothing: one write instead
        // (docs/guides/scaling.md), and one more for a value.
        const desired = desiredValues(inputs);
        let field =
          Object.keys(desired).length > 0 || inputs.value === undefined
            ? await putField(session, inputs, desired)
            : undefined;
        if (inputs.value !== undefined) field = await putValue(session, inputs, inputs.value);
        claim(idOf(inputs));
        return {
          id: idOf(inputs),
          outs: {
            ...ConfigFieldProperties.inputsOf(inputs),
            field: field!,
            previous: withoutValue(defined({ ...inputs.restoreOnDelete })),
          },
        };
      }
      // One read, shared with the config's other resources: what to restore, and is a write needed?
      const before = findField(await session.readConfig(inputs), inputs.fieldId, inputs.workflowId);
      if (!before) {
        const hint = inputs.workflowId
          ? `the workflow ${inputs.workflowId} is not a published workflow of this config, or has no such field`
          : "the app has no global field with that id";
        throw new Error(`Cannot manage ${where(inputs)}: ${hint}. Check fieldId and workflowId.`);
      }
      const previous = defined(
        Object.fromEntries(MANAGED.map((key) => [key, inputs[key] !== undefined ? liveValue(before, key) : undefined])),
      ) as ManagedValues;
      const desired = desiredValues(inputs);
      // Already as declared (an adopted setup, or a run that stopped after this write): no write.
      let field = holds(before, desired) ? toRecord(before) : await putField(session, inputs, desired);
      if (inputs.value !== undefined && !isDeepStrictEqual(liveFieldValue(before), inputs.value))
        field = await putValue(session, inputs, inputs.value);
      const outs: ConfigFieldState = {
        ...ConfigFieldProperties.inputsOf(inputs),
        field,
        previous,
        ...(inputs.value !== undefined ? { previousValue: liveFieldValue(before) as FieldValue | null } : {}),
      };
      claim(idOf(inputs));
      return { id: idOf(inputs), outs };
    },

    async read({ session }, id, props) {
      const config = await unlessGone(() => session.readConfig(props));
      const live = config && findField(config, props.fieldId, props.workflowId);
      // The config, the workflow or the field is gone: the resource leaves the state.
      if (!live) return { id: "", props: {} };
      const outs: ConfigFieldState = { ...props, field: toRecord(live) };
      // Drift shows in inputs and outputs; what the platform may change without a change is not
      // drift: whitespace around a name, the order of options and labels, null for an empty list.
      if (props.name !== undefined && (live.name ?? "").trim() !== props.name) outs.name = live.name ?? "";
      if (props.options !== undefined && !sameItems(nameValues(live.options), props.options))
        outs.options = nameValues(live.options);
      if (props.labels !== undefined && !sameItems(nameValues(live.labels), props.labels))
        outs.labels = nameValues(live.labels);
      // A value changed in the platform's portal is drift; null when the end user cleared it.
      if (props.value !== undefined && !isDeepStrictEqual(liveFieldValue(live), props.value))
        outs.value = liveFieldValue(live) as FieldValue;
      return { id, props: outs, inputs: ConfigFieldProperties.inputsOf(outs) };
    },

    async update(context, _id, olds, news) {
      // Pre-takeover values of newly managed properties were not recorded at create: take what the field holds now.
      const previous: Record<string, unknown> = { ...olds.previous };
      const newlyManaged = MANAGED.filter(
        (key) => news[key] !== undefined && olds[key] === undefined && previous[key] === undefined,
      );
      const desired = desiredValues(news, olds);
      // A value managed from now on: what the field holds now is what delete puts back.
      const valueNewlyManaged =
        news.value !== undefined && olds.value === undefined && olds.previousValue === undefined;
      let live: api.ConfigFieldState | undefined;
      if (newlyManaged.length > 0 || valueNewlyManaged) {
        live = findField(await context.session.readConfig(news), news.fieldId, news.workflowId);
        for (const key of newlyManaged) previous[key] = liveValue(live, key);
      }
      // Only restoreOnDelete changed: it acts at delete, so there is nothing to write now.
      const unchanged = MANAGED.every((key) => isDeepStrictEqual(olds[key], news[key]));
      // When the read was needed anyway and shows the declared values in place, no write either.
      let field = unchanged
        ? olds.field
        : live && holds(live, desired)
          ? toRecord(live)
          : await putField(context.session, news, desired);
      const previousValue = valueNewlyManaged ? (liveFieldValue(live) as FieldValue | null) : olds.previousValue;
      // The value: written when it changed; put back when it is no longer declared (and one was recorded).
      const value = news.value !== undefined ? news.value : olds.value !== undefined ? previousValue : undefined;
      const before = valueNewlyManaged ? liveFieldValue(live) : olds.value;
      if (value !== undefined && !isDeepStrictEqual(before, value))
        field = await putValue(context.session, news, value);
      return {
        outs: {
          ...ConfigFieldProperties.inputsOf(news),
          field,
          previous: defined(previous) as ManagedValues,
          ...(news.value !== undefined && previousValue !== undefined ? { previousValue } : {}),
        },
      };
    },

    async delete(context, id, props) {
      // A declared restoreOnDelete wins over what create recorded.
      const declared = props.restoreOnDelete ? defined(props.restoreOnDelete) : undefined;
      const restore = declared ? withoutValue(declared) : desiredValues({}, props);
      const value = declared ? declared.value : props.value !== undefined ? props.previousValue : undefined;
      if ((Object.keys(restore).length === 0 && value === undefined) || context.claimedByAnother(id)) return;
      // A config, workflow or field that is gone has nothing left to restore.
      try {
        if (Object.keys(restore).length > 0) await putField(context.session, props, restore);
        if (value !== undefined) await putValue(context.session, props, value);
      } catch (error) {
        if (!(error instanceof NotFoundError || error instanceof FieldNotFoundError)) throw error;
      }
    },
  },
  // Adopted as found: nothing is managed yet, so nothing is recorded to put back, and destroy writes nothing.
  importable: {
    parts: ["linkedAccountId", "slug", "configId", "workflowId", "fieldId"],
    adopt: (state) => ({ ...state, previous: {} }),
  },
  summary: {
    title: (i, _o, t) =>
      `field ${t.id(i.fieldId)}${i.workflowId !== undefined ? ` of workflow ${t.id(i.workflowId)}` : ""}` +
      (i.configId !== undefined && i.configId !== i.linkedAccountId ? ` in config ${t.id(i.configId)}` : ""),
    release: (i, o, t) => {
      // A declared restoreOnDelete is put back as declared.
      if (isRecord(i.restoreOnDelete)) {
        const declared = Object.entries(i.restoreOnDelete).map(
          ([key, value]) => `${t.code(key)} goes back to ${t.value(value)} (${t.code("restoreOnDelete")})`,
        );
        return declared.length > 0 ? declared.join(", ") : "the field keeps its current values";
      }
      // Otherwise what each managed property held before; options and labels with nothing recorded go back to empty.
      const previous = isRecord(o.previous) ? o.previous : {};
      const restored = MANAGED.filter(
        (key) => i[key] !== undefined && (key !== "name" || previous.name !== undefined),
      ).map((key) => `${t.code(key)} goes back to ${t.value(previous[key] ?? [])}`);
      return restored.length > 0 ? restored.join(", ") : "the field keeps its current values";
    },
  },
});

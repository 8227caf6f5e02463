// ConfigField: one field of one config (spec 4.1), in the config of one linked account and app.
// The field sits in `fields` when it is global to the app and in `workflows[{id, fields}]` when
// it belongs to a workflow. Create records what the field held before, and delete puts it back.
import { isDeepStrictEqual } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { FieldNotFoundError, NotFoundError } from "../client/errors";
import * as api from "../client/schemas";
import { NameValue } from "../client/schemas";
import { currentRun } from "../connection";
import { defined, describe, Id, NameValueList, unlessGone } from "./lifecycle";
import { ArgsOf, declareProperties, OutputsOf, StateOf } from "./properties";
import configFieldForwarder = require("../bridge/providers/ConfigField");
import { MODULE } from "../bridge/program";

/** A `{name, value}` pair as an input. */
export interface NameValueInput {
  /** The option's or label's name. */
  name: pulumi.Input<string>;
  /** The option's or label's value. */
  value: pulumi.Input<string>;
}

/** The field as the platform returns it (spec 2.1), in camelCase. */
export interface ConfigFieldRecord {
  /** The field's id. */
  id: string;
  /** The field's display name. */
  name?: string;
  /** Whether the field is required. */
  required: boolean;
  /** One of text, number, select, map. */
  fieldType: string;
  /** Whether the field is hidden. */
  hidden?: boolean;
  /** The options, as the platform returns them. */
  options: unknown[];
  /** Whether dynamic map fields are available. */
  hasDynamicMapFields?: boolean;
  /** The dynamic slot's identifier. */
  dynamicSlotIdentifier?: string;
}

/** ConfigField's properties, each declared once (see properties.ts). */
export const ConfigFieldProperties = declareProperties({
  identity: {
    /** The application's slug, e.g. `hubspot`. Changing it replaces the resource. */
    slug: Id,
    /** The customer's identifier of the linked account (end user). Changing it replaces the resource. */
    linkedAccountId: Id,
    /** The config to update; by default the platform names a config after its linked account. Changing it replaces the resource. */
    configId: Id,
    /** The field's id. Changing it replaces the resource. */
    fieldId: Id,
    /** The published workflow the field belongs to; omit it for a field global to the app. Changing it replaces the resource. */
    workflowId: Id.optional(),
  },
  // The managed properties: delete puts back what each held before the resource took it over.
  settings: {
    /** The field's display name in this config. Omit it to leave the name alone. */
    name: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").optional(),
    /** The options of a select or map field. Omit them to leave the options alone; `[]` clears them. */
    options: NameValueList.optional(),
    /** Labels of the field. Omit them to leave the labels alone; `[]` clears them. */
    labels: NameValueList.optional(),
    /**
     * What delete (destroy, or removing the resource) puts back, instead of what create found:
     * exactly these properties, whatever create recorded. Declare it when what create found is
     * not the state to go back to, e.g. after an interrupted create. Changing it writes nothing.
     */
    restoreOnDelete: z
      .object(
        { name: z.string().trim().min(1, "name must not be empty").optional(), options: NameValueList.optional(), labels: NameValueList.optional() },
        { error: (issue) => `must be {name?, options?, labels?}, not ${describe(issue.input)}` },
      )
      .strict()
      .optional(),
  },
  outputs: {
    /** The field as the platform returned it: required, fieldType, hidden, options and the rest. */
    field: z.custom<ConfigFieldRecord>(),
    /** What the managed properties held before this resource took the field over; delete puts it back. */
    previous: z.custom<{ name?: string; options?: NameValue[]; labels?: NameValue[] }>(),
  },
});

/** Inputs of a ConfigField. */
export type ConfigFieldArgs = ArgsOf<typeof ConfigFieldProperties>;
/** What a ConfigField keeps in state: its inputs, the returned field, and what to restore. */
type ConfigFieldState = StateOf<typeof ConfigFieldProperties>;

/** The properties a ConfigField sets on the field, and so restores on delete (the change summary names them too). */
export const MANAGED = ["name", "options", "labels"] as const satisfies readonly (typeof ConfigFieldProperties.settings)[number][];
type Managed = (typeof MANAGED)[number];

/** Projects the platform's option or label elements onto `{name, value}`, the shape we send. */
function nameValues(list: unknown[] | null | undefined): NameValue[] {
  return (list ?? []).flatMap((item) => {
    const parsed = NameValue.safeParse(item);
    return parsed.success ? [{ name: parsed.data.name, value: parsed.data.value }] : [];
  });
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

/** Sends one field update in the spec's body; `values` holds only the properties to set. */
async function putField(target: ConfigFieldState, values: Partial<Record<Managed, unknown>>): Promise<ConfigFieldRecord> {
  const entry = { id: target.fieldId, ...values };
  const run = currentRun();
  run.writingConfigItem(target, target);
  const field = await run.client.updateConfigField({
    fieldId: target.fieldId,
    linkedAccountId: target.linkedAccountId,
    slug: target.slug,
    configId: target.configId,
    workflowId: target.workflowId,
    body: {
      slug: target.slug,
      config_id: target.configId,
      fields: target.workflowId === undefined ? [entry] : [],
      workflows: target.workflowId === undefined ? [] : [{ id: target.workflowId, fields: [entry] }],
    },
  });
  return toRecord(field);
}

/** The values to send: what the user manages now, and the previous value of what they stopped managing. */
function desiredValues(news: Partial<ConfigFieldState>, olds?: ConfigFieldState): Partial<Record<Managed, unknown>> {
  const values: Partial<Record<Managed, unknown>> = {};
  for (const key of MANAGED) {
    if (news[key] !== undefined) values[key] = news[key];
    else if (olds && olds[key] !== undefined) values[key] = olds.previous[key] ?? (key === "name" ? undefined : []);
  }
  return defined(values);
}

/** The provider behind ConfigField, which the provider host serves (bridge/host.ts). */
export const configFieldProvider = ConfigFieldProperties.provider({
  async create(inputs: ConfigFieldState) {
    if (inputs.restoreOnDelete && currentRun().client.settings.createWithoutRead) {
      // What delete puts back is declared, so a read would record nothing: one write instead (docs/guides/scaling.md).
      const field = await putField(inputs, desiredValues(inputs));
      currentRun().claim("ConfigField", idOf(inputs));
      return { id: idOf(inputs), outs: { ...ConfigFieldProperties.inputsOf(inputs), field, previous: defined({ ...inputs.restoreOnDelete }) } };
    }
    // One read, shared with the config's other resources, to learn what the field holds before we
    // take it over (delete restores it) and whether it already holds what is declared.
    const before = findField(await currentRun().readConfig(inputs, inputs), inputs.fieldId, inputs.workflowId);
    if (!before) {
      const hint = inputs.workflowId
        ? `the workflow ${inputs.workflowId} is not a published workflow of this config, or has no such field`
        : "the app has no global field with that id";
      throw new Error(`Cannot manage ${where(inputs)}: ${hint}. Check fieldId and workflowId.`);
    }
    const previous = defined({
      name: inputs.name !== undefined ? (before.name ?? undefined) : undefined,
      options: inputs.options !== undefined ? nameValues(before.options) : undefined,
      labels: inputs.labels !== undefined ? nameValues(before.labels) : undefined,
    });
    const desired = desiredValues(inputs);
    // Already as declared (an adopted setup, or a run that stopped after this write): no write.
    const field = holds(before, desired) ? toRecord(before) : await putField(inputs, desired);
    const outs: ConfigFieldState = { ...ConfigFieldProperties.inputsOf(inputs), field, previous };
    currentRun().claim("ConfigField", idOf(inputs));
    return { id: idOf(inputs), outs };
  },

  async read(id, props: ConfigFieldState) {
    const config = await unlessGone(() => currentRun().readConfig(props, props));
    const live = config && findField(config, props.fieldId, props.workflowId);
    // The config, the workflow or the field is gone: the resource leaves the state.
    if (!live) return { id: "", props: {} };
    const outs: ConfigFieldState = { ...props, field: toRecord(live) };
    // Drift in a managed property shows in the inputs and the outputs, and the next `up` repairs
    // it. What the platform may return differently without a change is not drift: surrounding
    // whitespace in a name, the order of options and labels, and null for an empty list.
    if (props.name !== undefined && (live.name ?? "").trim() !== props.name) outs.name = live.name ?? "";
    if (props.options !== undefined && !sameItems(nameValues(live.options), props.options)) outs.options = nameValues(live.options);
    if (props.labels !== undefined && !sameItems(nameValues(live.labels), props.labels)) outs.labels = nameValues(live.labels);
    return { id, props: outs, inputs: ConfigFieldProperties.inputsOf(outs) };
  },

  async update(_id, olds: ConfigFieldState, news: ConfigFieldState) {
    // Keep the pre-takeover values of properties already managed; learn none for newly managed ones:
    // they were recorded at create only if managed then, so take what the field holds now.
    const previous = { ...olds.previous };
    const newlyManaged = MANAGED.filter((key) => news[key] !== undefined && olds[key] === undefined && previous[key] === undefined);
    const desired = desiredValues(news, olds);
    let live: api.ConfigFieldState | undefined;
    if (newlyManaged.length > 0) {
      live = findField(await currentRun().readConfig(news, news), news.fieldId, news.workflowId);
      for (const key of newlyManaged) {
        if (key === "name") previous.name = live?.name ?? undefined;
        else previous[key] = nameValues(live?.[key]);
      }
    }
    // Only restoreOnDelete changed: it acts at delete, so there is nothing to write now.
    const unchanged = MANAGED.every((key) => isDeepStrictEqual(olds[key], news[key]));
    // When the read was needed anyway and shows the declared values in place, no write either.
    const field = unchanged ? olds.field : live && holds(live, desired) ? toRecord(live) : await putField(news, desired);
    return { outs: { ...ConfigFieldProperties.inputsOf(news), field, previous: defined(previous) } };
  },

  async delete(id, props: ConfigFieldState) {
    // A declared restoreOnDelete wins over what create recorded.
    const restore = props.restoreOnDelete ? defined(props.restoreOnDelete) : desiredValues({}, props);
    if (Object.keys(restore).length === 0 || currentRun().claimedByAnother("ConfigField", id)) return;
    // A config, workflow or field that is gone has nothing left to restore.
    try {
      await putField(props, restore);
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof FieldNotFoundError)) throw error;
    }
  },
});

/** True when the field already holds every value to send, so the write can be skipped. */
function holds(live: api.ConfigFieldState, values: Partial<Record<Managed, unknown>>): boolean {
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

/** The output properties of a ConfigField, one per state property, documented where they are declared. */
export interface ConfigField extends OutputsOf<typeof ConfigFieldProperties> {}

/** Sets one field's name, options or labels in one config, and restores them on delete. */
export class ConfigField extends pulumi.dynamic.Resource {
  /** Declares the field's managed properties in one config. */
  constructor(name: string, args: ConfigFieldArgs, opts?: pulumi.CustomResourceOptions) {
    const properties = ConfigFieldProperties;
    super(configFieldForwarder, name, properties.resourceProps(args), properties.resourceOptions(opts), MODULE, "ConfigField");
  }
}

// What `pulumi-integration-platform import` makes of a workspace it read: what the project
// declares, which secrets the user sets, and what could not be brought in.
import type { Config } from "../../provider/client/configs";
import type { EnvDefinition, EnvValueListItem } from "../../provider/client/envVariables";
import { listed, plural } from "../text";
import {
  CONFIGS_TO_TELL_DEFAULTS,
  fieldDefaults,
  fieldKey,
  fieldsOf,
  strictNameValues,
  type NameValues,
} from "./fields";
import type { WorkspaceRead } from "./read";
import { FieldValue } from "../../provider/resources/inputs";

/** How many examples a sentence of what was not brought in names before "and N more". */
const EXAMPLES = 3;

/** How the platform shows an encrypted env value on every read (docs/design/contract.md#env-variables). */
export const REDACTED = "[REDACTED]";

/** One field as declared: only the properties that differ from the app's own. */
export interface PlannedField {
  /** The field's id. */
  fieldId: string;
  /** The workflow, for a workflow field. */
  workflowId?: string;
  /** The display name, when it differs from the app's own. */
  name?: string;
  /** The options, when they differ from the app's own. */
  options?: NameValues;
  /** The labels, when the field has any. */
  labels?: NameValues;
  /** The field's value, when it holds one that ConfigField takes (a string, a number or an object of strings). */
  value?: FieldValue;
}

/** An env value as declared: plain text, or the stack config key of an encrypted one. */
export type PlannedValue = { text: string } | { secretKey: string };

/** One linked account's setup of one app (one data line). */
export interface PlannedSetup {
  /** The linked account; its config of the app is the one named after it. */
  linkedAccountId: string;
  /** The app. */
  slug: string;
  /** Fields whose name, options, labels or value the config sets. */
  fields: PlannedField[];
  /** Workflows enabled in the config. */
  workflows: string[];
  /**
   * Whether each workflow the config lists was enabled, as read: with `fields`, what found.json
   * freezes for `pulumi destroy` to put back. Undefined when the account has no such config (404).
   */
  workflowStates?: Record<string, boolean>;
  /** The account's own env values, by definition id. */
  env: Map<string, PlannedValue>;
  /** The account's workflow env values, by workflow id, then definition id. */
  workflowEnv: Map<string, Map<string, PlannedValue>>;
}

/** An env value not tied to a linked account: org, workspace, or a workflow's for every account. */
export interface PlannedSharedValue {
  /** The definition's id. */
  definitionId: string;
  /** The workflow, for a workflow value. */
  workflowId?: string;
  /** The value, or its secret's key. */
  value: PlannedValue;
}

/** An encrypted value the user must set in the stack's config before `pulumi up`. */
export interface PlannedSecret {
  /** The stack config key (without the project's namespace). */
  key: string;
  /** The definition's name. */
  definition: string;
  /** The linked account the value belongs to, if any. */
  linkedAccountId?: string;
  /** The workflow the value belongs to, if any. */
  workflowId?: string;
}

/** Everything the import will declare, and what it could not. */
export interface ImportPlan {
  /** The apps, as asked. */
  slugs: string[];
  /** How many linked accounts were read (and selected). */
  accountsRead: number;
  /** One per data line. */
  setups: PlannedSetup[];
  /** The org's, the workspace's and whole workflows' env values. */
  shared: PlannedSharedValue[];
  /** The definitions the values use, in the platform's order, with the name the program calls them by. */
  definitions: { id: string; key: string; encrypted: boolean }[];
  /** The encrypted values to set in the stack, one per `secret(key)` in the program. */
  secrets: PlannedSecret[];
  /** What was not brought in, and why: one sentence each. */
  notBroughtIn: string[];
  /** How fields were chosen, per app: one sentence each. */
  fieldNotes: string[];
  /** What is declared: fields, enabled workflows, env values and how many of those are encrypted. */
  counts: { fields: number; workflows: number; envValues: number; encrypted: number };
}

/** A stack config key for an encrypted value: letters, digits, `_` and `-` only, unique in the plan. */
function secretKeyFor(parts: (string | undefined)[], taken: Set<string>): string {
  // Letters, digits, _ and - only, starting with a letter: a shell word that no option parser takes for a flag.
  const base = `${parts
    .filter((p): p is string => p !== undefined)
    .join("-")
    .replace(/[^A-Za-z0-9_-]/g, "_")}`.replace(/^(?![A-Za-z])/, "secret_");
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

/** Where an env value belongs, besides its definition. */
type ValueOwner = { linkedAccountId?: string; workflowId?: string };

/** Plans env values one by one, and keeps what the plan says of them all: definitions used, secrets, counts. */
class ValuePlanner {
  readonly usedDefinitions = new Set<string>();
  readonly secrets: PlannedSecret[] = [];
  readonly counts = { fields: 0, workflows: 0, envValues: 0, encrypted: 0 };
  private readonly takenKeys = new Set<string>();
  private readonly definitionsById: Map<string, EnvDefinition>;

  constructor(definitions: EnvDefinition[]) {
    this.definitionsById = new Map(definitions.map((d) => [d._id, d]));
  }

  /** The value to declare: the text, or a secret key when the platform redacts it. */
  value(item: EnvValueListItem, owner: ValueOwner): PlannedValue {
    const definitionId = item.variable_definition_id._id;
    this.usedDefinitions.add(definitionId);
    this.counts.envValues++;
    const definition = this.definitionsById.get(definitionId);
    const name = definition?.name ?? item.variable_definition_id.name ?? definitionId;
    // Whatever the definition says, a redacted value is never declared as its text.
    if (!(definition?.encrypted ?? item.variable_definition_id.encrypted) && item.value !== REDACTED)
      return { text: item.value };
    this.counts.encrypted++;
    const key = secretKeyFor([name, owner.linkedAccountId, owner.workflowId], this.takenKeys);
    this.secrets.push({ key, definition: name, ...owner });
    return { secretKey: key };
  }

  /** The definitions the values used, in the platform's order, then any it did not list. */
  usedIn(definitions: EnvDefinition[]): EnvDefinition[] {
    return [
      ...definitions.filter((d) => this.usedDefinitions.has(d._id)),
      ...[...this.usedDefinitions]
        .filter((id) => !this.definitionsById.has(id))
        .map((id) => ({ _id: id, name: id, encrypted: true }) as EnvDefinition),
    ];
  }
}

/** Each app's own field names and options, by slug. */
type DefaultsBySlug = Map<string, ReturnType<typeof fieldDefaults>>;

/** What each app's configs hold in common is the app's own, not declared; and how that was told, per app. */
function appDefaults(read: WorkspaceRead): { defaultsBySlug: DefaultsBySlug; fieldNotes: string[] } {
  const defaultsBySlug: DefaultsBySlug = new Map();
  const fieldNotes: string[] = [];
  for (const slug of read.slugs) {
    const configs = [
      ...read.accounts.flatMap((a) => a.configs.get(slug) ?? []),
      ...(read.referenceConfigs.get(slug) ?? []),
    ];
    const defaults = fieldDefaults(configs);
    defaultsBySlug.set(slug, defaults);
    const told = [...defaults.values()];
    if (configs.length < CONFIGS_TO_TELL_DEFAULTS) {
      fieldNotes.push(
        `${slug}: only ${plural(configs.length, "config")} could be read, too few to tell the app's own field ` +
          "names and options from a config's (the API shows them merged); every field is declared as its config " +
          "shows it, which adoption writes nothing for.",
      );
    } else {
      const names = told.filter((d) => d.name !== undefined).length;
      const options = told.filter((d) => d.options !== undefined).length;
      fieldNotes.push(
        `${slug}: a field's name or options that more than half of its ${configs.length} configs read hold is ` +
          "taken as the app's own and not declared (the API shows the app's and a config's merged): the names of " +
          `${plural(names, "field")} and the options of ${plural(options, "field")}. ` +
          "A config that differs declares its own.",
      );
    }
  }
  return { defaultsBySlug, fieldNotes };
}

/** What the setups hold that no resource manages, as places: for the sentences of what was not brought in. */
interface Unmanaged {
  /** Fields whose value is of a shape ConfigField does not take (a list, a boolean, a nested object). */
  fieldValues: string[];
  /** Configs with labels of their own. */
  configLabels: string[];
  /** Options or labels that are not `{name, value}` lists. */
  shapes: string[];
}

/** The fields one config declares: a name, options or labels that differ from the app's own, and a value. */
function plannedFields(
  config: Config,
  where: { linkedAccountId: string; slug: string },
  defaults: ReturnType<typeof fieldDefaults>,
  unmanaged: Unmanaged,
): PlannedField[] {
  const fields: PlannedField[] = [];
  for (const { field, workflowId } of fieldsOf(config)) {
    const workflow = workflowId ? ` (workflow ${workflowId})` : "";
    const place = `${field.id}${workflow} of ${where.linkedAccountId}'s ${where.slug} config`;
    const value = field.value === undefined || field.value === null ? undefined : FieldValue.safeParse(field.value);
    if (value && !value.success) unmanaged.fieldValues.push(place);
    const own = defaults.get(fieldKey(workflowId, field.id)) ?? {};
    const planned: PlannedField = { fieldId: field.id, ...(workflowId ? { workflowId } : {}) };
    if (field.name && JSON.stringify(field.name) !== own.name) planned.name = field.name;
    const options = strictNameValues(field.options);
    if (options === undefined) unmanaged.shapes.push(`options of ${place}`);
    else if (own.options === undefined ? options.length > 0 : JSON.stringify(options) !== own.options)
      planned.options = options;
    const labels = strictNameValues(field.labels);
    if (labels === undefined) unmanaged.shapes.push(`labels of ${place}`);
    else if (labels.length > 0) planned.labels = labels;
    if (value?.success) planned.value = value.data;
    if (planned.name !== undefined || planned.options || planned.labels || planned.value !== undefined)
      fields.push(planned);
  }
  return fields;
}

/** What the setups make of what was read, and what could not be declared. */
interface PlannedSetups extends Unmanaged {
  setups: PlannedSetup[];
  /** Linked accounts with nothing to declare. */
  nothingToDeclare: string[];
}

/** One linked account's setup of one app: its config's fields and workflows, and its env values. */
function plannedSetup(
  read: WorkspaceRead,
  account: WorkspaceRead["accounts"][number],
  slug: string,
  context: { defaultsBySlug: DefaultsBySlug; values: ValuePlanner; unmanaged: Unmanaged },
): PlannedSetup {
  const linkedAccountId = account.account.account_id;
  const setup: PlannedSetup = {
    linkedAccountId,
    slug,
    fields: [],
    workflows: [],
    env: new Map(),
    workflowEnv: new Map(),
  };
  const config = account.configs.get(slug);
  if (config) {
    const defaults = context.defaultsBySlug.get(slug)!;
    setup.fields = plannedFields(config, { linkedAccountId, slug }, defaults, context.unmanaged);
    setup.workflows = config.workflows.filter((w) => w.enabled).map((w) => w.id);
    setup.workflowStates = Object.fromEntries(config.workflows.map((w) => [w.id, w.enabled]));
    const labels = (config as { labels?: unknown[] }).labels;
    if (Array.isArray(labels) && labels.length > 0)
      context.unmanaged.configLabels.push(`${linkedAccountId}'s ${slug} config`);
  }
  // The account's own values go with its setup of the first app asked for, whatever configs it has.
  if (slug === read.slugs[0]) {
    for (const item of account.envValues)
      setup.env.set(item.variable_definition_id._id, context.values.value(item, { linkedAccountId }));
  }
  for (const item of account.workflowEnvValues) {
    const workflowId = item.workflow_id!;
    if (read.workflowSlugs.get(workflowId) !== slug) continue;
    const values = setup.workflowEnv.get(workflowId) ?? new Map<string, PlannedValue>();
    setup.workflowEnv.set(workflowId, values);
    values.set(item.variable_definition_id._id, context.values.value(item, { linkedAccountId, workflowId }));
  }
  return setup;
}

/** One data line per linked account and app that has anything to declare. */
function plannedSetups(read: WorkspaceRead, defaultsBySlug: DefaultsBySlug, values: ValuePlanner): PlannedSetups {
  const unmanaged: Unmanaged = { fieldValues: [], configLabels: [], shapes: [] };
  const setups: PlannedSetup[] = [];
  const nothingToDeclare: string[] = [];
  for (const account of read.accounts) {
    let declared = false;
    for (const slug of read.slugs) {
      const setup = plannedSetup(read, account, slug, { defaultsBySlug, values, unmanaged });
      values.counts.fields += setup.fields.length;
      values.counts.workflows += setup.workflows.length;
      if (setup.fields.length || setup.workflows.length || setup.env.size || setup.workflowEnv.size) {
        setups.push(setup);
        declared = true;
      }
    }
    if (!declared) nothingToDeclare.push(account.account.account_id);
  }
  return { setups, nothingToDeclare, ...unmanaged };
}

/** Names the program calls definitions by: the platform's, unless two share one. */
function namedDefinitions(used: EnvDefinition[]): ImportPlan["definitions"] {
  const nameCount = new Map<string, number>();
  for (const d of used) nameCount.set(d.name, (nameCount.get(d.name) ?? 0) + 1);
  return used.map((d) => ({
    id: d._id,
    key: nameCount.get(d.name)! > 1 ? `${d.name}_${d._id}` : d.name,
    encrypted: d.encrypted,
  }));
}

/** What the API cannot give the import at all: application events, and configs not named after an account. */
const NEVER_READ = [
  "Application events: the API has no operation that reads an event, so none was brought in. To manage one, " +
    "declare an ApplicationEvent with the event's id and its current name and response (from the platform's UI), " +
    "and the same name and response in `restoreOnDelete`, so that `pulumi destroy` puts it back; its first `up` " +
    "writes the event, since there is nothing to compare it with.",
  "Configs other than the one named after each linked account: the API cannot list configs, so only that one " +
    "was read. Declare another with LinkedAccountSetup's `configId`.",
];

/** What was not brought in, and why: one sentence each. */
function notBroughtIn(read: WorkspaceRead, planned: PlannedSetups): string[] {
  const sentences = [...NEVER_READ];
  for (const slug of read.slugs) {
    const without = read.accounts.filter((a) => !a.configs.has(slug)).map((a) => a.account.account_id);
    if (without.length > 0) {
      const accounts = plural(without.length, "linked account has", "linked accounts have");
      sentences.push(
        `${slug}: ${accounts} no config of this app named after them (404): ${listed(without, EXAMPLES)}.`,
      );
    }
  }
  const { fieldValues, configLabels, shapes, nothingToDeclare } = planned;
  if (fieldValues.length > 0) {
    sentences.push(
      `Field values of a shape ConfigField does not take, a list, a boolean or a nested object ` +
        `(${plural(fieldValues.length, "field")}, e.g. ${listed(fieldValues, EXAMPLES)}): set them in the portal.`,
    );
  }
  if (configLabels.length > 0) {
    sentences.push(
      `Config labels (${listed(configLabels, EXAMPLES)}): no resource of this package manages a config's own labels.`,
    );
  }
  if (shapes.length > 0) {
    sentences.push(
      `Options or labels that are not {name, value} lists (${listed(shapes, EXAMPLES)}): ` +
        "declaring them would change them, so they were left out.",
    );
  }
  if (read.unselectedWorkflowEnvValues > 0) {
    sentences.push(
      `${plural(read.unselectedWorkflowEnvValues, "workflow env value")} of linked accounts ` +
        "not selected with --linked-account.",
    );
  }
  sentences.push("Env values of workflows of other apps: only the workflows of the apps asked for (--slug) were read.");
  if (nothingToDeclare.length > 0) {
    sentences.push(
      `Nothing is set for ${plural(nothingToDeclare.length, "linked account")} (no field of its own, no enabled ` +
        `workflow, no env value), so none is declared: ${listed(nothingToDeclare, EXAMPLES)}.`,
    );
  }
  return sentences;
}

/** Decides what the project declares, from what was read. */
export function planImport(read: WorkspaceRead): ImportPlan {
  const values = new ValuePlanner(read.definitions);
  const { defaultsBySlug, fieldNotes } = appDefaults(read);
  const planned = plannedSetups(read, defaultsBySlug, values);
  const shared: PlannedSharedValue[] = read.sharedEnvValues.map((item) => ({
    definitionId: item.variable_definition_id._id,
    ...(item.workflow_id ? { workflowId: item.workflow_id } : {}),
    value: values.value(item, item.workflow_id ? { workflowId: item.workflow_id } : {}),
  }));
  return {
    slugs: read.slugs,
    accountsRead: read.accounts.length,
    setups: planned.setups,
    shared,
    definitions: namedDefinitions(values.usedIn(read.definitions)),
    secrets: values.secrets,
    notBroughtIn: notBroughtIn(read, planned),
    fieldNotes,
    counts: values.counts,
  };
}

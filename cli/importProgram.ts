// What `pulumi-integration-platform import` makes of a workspace it read: a plan (what to declare,
// which secrets to set, what could not be brought in), and the Pulumi project that declares it.
// The program is data plus a loop, one data line per linked account and app, so that a person
// can review it and keep it; it declares only what is set, and never holds a secret.
import { NameValue, type Config, type EnvDefinition, type EnvValueListItem } from "../provider/client/schemas";
import { z } from "zod";
import type { WorkspaceRead } from "./importRead";
import { printable } from "./text";

/** How the platform shows an encrypted env value on every read. */
export const REDACTED = "[REDACTED]";

/**
 * Fewer configs than this cannot tell an app's own field name or options from a config's
 * override (see fieldDefaults); then every field is declared as the config shows it.
 */
export const CONFIGS_TO_TELL_DEFAULTS = 3;

/** A `{name, value}` list as declared. */
type NameValues = NameValue[];

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
}

/** An env value as declared: plain text, or the stack config key of an encrypted one. */
export type PlannedValue = { text: string } | { secretKey: string };

/** One linked account's setup of one app (one data line). */
export interface PlannedSetup {
  /** The linked account; its config of the app is the one named after it. */
  linkedAccountId: string;
  /** The app. */
  slug: string;
  /** Fields whose name, options or labels the config sets. */
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

/** The project's files, by name. */
export type ProjectFiles = Record<string, string>;

/** Facts about the command and the package that the project's files mention. */
export interface ProjectMeta {
  /** The Pulumi project's name. */
  project: string;
  /** The command as run (arguments only, no settings). */
  command: string;
  /** Version ranges for package.json. */
  versions: { package: string; pulumi: string; typescript: string; typesNode: string };
  /** found.json's records, when not this plan's own (another import keeps the earlier ones: keepEarlierFound). */
  found?: FoundRecord[];
}

const fieldKey = (workflowId: string | undefined, fieldId: string) => JSON.stringify([workflowId ?? null, fieldId]);

/** Every field of a config, global first, with its workflow. */
function fieldsOf(config: Config) {
  return [
    ...config.fields.map((field) => ({ field, workflowId: undefined as string | undefined })),
    ...config.workflows.flatMap((w) => (w.fields ?? []).map((field) => ({ field, workflowId: w.id as string | undefined }))),
  ];
}

/**
 * A list as `{name, value}` pairs, the shape ConfigField compares and sends; undefined when an
 * element is not such a pair, since declaring the list would then change it.
 */
function nameValues(list: unknown[] | null | undefined): NameValues | undefined {
  const pairs: NameValues = [];
  for (const item of list ?? []) {
    const parsed = NameValue.safeParse(item);
    if (!parsed.success) return undefined;
    pairs.push({ name: parsed.data.name, value: parsed.data.value });
  }
  return pairs;
}

/**
 * The app's own name and options of each field, as far as the configs tell: the value that more
 * than half of them hold. The API shows a field as the config sees it, the app's definition and
 * the config's override merged, so this is the only way to tell what a config sets. Undefined
 * when there are too few configs, or no value holds a majority: then the config's is declared.
 */
function fieldDefaults(configs: Config[]): Map<string, { name?: string; options?: string }> {
  const seen = new Map<string, { total: number; names: Map<string, number>; options: Map<string, number> }>();
  for (const config of configs) {
    for (const { field, workflowId } of fieldsOf(config)) {
      const key = fieldKey(workflowId, field.id);
      const entry = seen.get(key) ?? { total: 0, names: new Map(), options: new Map() };
      seen.set(key, entry);
      entry.total++;
      const name = JSON.stringify(field.name ?? null);
      entry.names.set(name, (entry.names.get(name) ?? 0) + 1);
      const options = JSON.stringify(nameValues(field.options) ?? null);
      entry.options.set(options, (entry.options.get(options) ?? 0) + 1);
    }
  }
  const majority = (counts: Map<string, number>, total: number) =>
    total >= CONFIGS_TO_TELL_DEFAULTS ? [...counts].find(([, n]) => n * 2 > total)?.[0] : undefined;
  return new Map(
    [...seen].map(([key, { total, names, options }]) => [key, { name: majority(names, total), options: majority(options, total) }]),
  );
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

/** A short list of examples for a message: the first three, then how many more. */
function examples(items: string[]): string {
  const shown = items.slice(0, 3).join(", ");
  return items.length > 3 ? `${shown} and ${items.length - 3} more` : shown;
}

/** `n` and the noun, singular or plural as `n` asks. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Decides what the project declares, from what was read. */
export function planImport(read: WorkspaceRead): ImportPlan {
  const definitionsById = new Map(read.definitions.map((d) => [d._id, d]));
  const usedDefinitions = new Set<string>();
  const secrets: PlannedSecret[] = [];
  const takenKeys = new Set<string>();
  const notBroughtIn: string[] = [];
  const fieldNotes: string[] = [];
  const counts = { fields: 0, workflows: 0, envValues: 0, encrypted: 0 };

  /** The value to declare: the text, or a secret key when the platform redacts it. */
  const plannedValue = (item: EnvValueListItem, where: { linkedAccountId?: string; workflowId?: string }): PlannedValue => {
    const definitionId = item.variable_definition_id._id;
    usedDefinitions.add(definitionId);
    counts.envValues++;
    const definition = definitionsById.get(definitionId);
    const name = definition?.name ?? item.variable_definition_id.name ?? definitionId;
    // Whatever the definition says, a redacted value is never declared as its text.
    if (!(definition?.encrypted ?? item.variable_definition_id.encrypted) && item.value !== REDACTED) return { text: item.value };
    counts.encrypted++;
    const key = secretKeyFor([name, where.linkedAccountId, where.workflowId], takenKeys);
    secrets.push({ key, definition: name, ...where });
    return { secretKey: key };
  };

  // Fields: what each app's configs hold in common is the app's own, not declared.
  const defaultsBySlug = new Map<string, ReturnType<typeof fieldDefaults>>();
  const fieldValues: string[] = [];
  const configLabels: string[] = [];
  const unmanagedShapes: string[] = [];
  for (const slug of read.slugs) {
    const configs = [...read.accounts.flatMap((a) => a.configs.get(slug) ?? []), ...(read.referenceConfigs.get(slug) ?? [])];
    const defaults = fieldDefaults(configs);
    defaultsBySlug.set(slug, defaults);
    const told = [...defaults.values()];
    if (configs.length < CONFIGS_TO_TELL_DEFAULTS) {
      fieldNotes.push(
        `${slug}: only ${plural(configs.length, "config")} could be read, too few to tell the app's own field names and options from a config's (the API shows them merged); every field is declared as its config shows it, which adoption writes nothing for.`,
      );
    } else {
      const names = told.filter((d) => d.name !== undefined).length;
      const options = told.filter((d) => d.options !== undefined).length;
      fieldNotes.push(
        `${slug}: a field's name or options that more than half of its ${configs.length} configs read hold is taken as the app's own and not declared (the API shows the app's and a config's merged): the names of ${plural(names, "field")} and the options of ${plural(options, "field")}. A config that differs declares its own.`,
      );
    }
  }

  const setups: PlannedSetup[] = [];
  const nothingToDeclare: string[] = [];
  const [primarySlug] = read.slugs;
  for (const { account, configs, envValues, workflowEnvValues } of read.accounts) {
    const linkedAccountId = account.account_id;
    let declared = false;
    for (const slug of read.slugs) {
      const setup: PlannedSetup = { linkedAccountId, slug, fields: [], workflows: [], env: new Map(), workflowEnv: new Map() };
      const config = configs.get(slug);
      if (config) {
        const defaults = defaultsBySlug.get(slug)!;
        for (const { field, workflowId } of fieldsOf(config)) {
          const where = `${field.id}${workflowId ? ` (workflow ${workflowId})` : ""} of ${linkedAccountId}'s ${slug} config`;
          if (field.value !== undefined && field.value !== null) fieldValues.push(where);
          const own = defaults.get(fieldKey(workflowId, field.id)) ?? {};
          const planned: PlannedField = { fieldId: field.id, ...(workflowId ? { workflowId } : {}) };
          if (field.name && JSON.stringify(field.name) !== own.name) planned.name = field.name;
          const options = nameValues(field.options);
          if (options === undefined) unmanagedShapes.push(`options of ${where}`);
          else if (own.options === undefined ? options.length > 0 : JSON.stringify(options) !== own.options) planned.options = options;
          const labels = nameValues(field.labels);
          if (labels === undefined) unmanagedShapes.push(`labels of ${where}`);
          else if (labels.length > 0) planned.labels = labels;
          if (planned.name !== undefined || planned.options || planned.labels) setup.fields.push(planned);
        }
        setup.workflows = config.workflows.filter((w) => w.enabled).map((w) => w.id);
        setup.workflowStates = Object.fromEntries(config.workflows.map((w) => [w.id, w.enabled]));
        const labels = (config as { labels?: unknown[] }).labels;
        if (Array.isArray(labels) && labels.length > 0) configLabels.push(`${linkedAccountId}'s ${slug} config`);
      }
      // The account's own values go with its setup of the first app asked for, whatever configs it has.
      if (slug === primarySlug) {
        for (const item of envValues) setup.env.set(item.variable_definition_id._id, plannedValue(item, { linkedAccountId }));
      }
      for (const item of workflowEnvValues) {
        const workflowId = item.workflow_id!;
        if (read.workflowSlugs.get(workflowId) !== slug) continue;
        const values = setup.workflowEnv.get(workflowId) ?? new Map<string, PlannedValue>();
        setup.workflowEnv.set(workflowId, values);
        values.set(item.variable_definition_id._id, plannedValue(item, { linkedAccountId, workflowId }));
      }
      counts.fields += setup.fields.length;
      counts.workflows += setup.workflows.length;
      if (setup.fields.length || setup.workflows.length || setup.env.size || setup.workflowEnv.size) {
        setups.push(setup);
        declared = true;
      }
    }
    if (!declared) nothingToDeclare.push(linkedAccountId);
  }

  const shared: PlannedSharedValue[] = read.sharedEnvValues.map((item) => ({
    definitionId: item.variable_definition_id._id,
    ...(item.workflow_id ? { workflowId: item.workflow_id } : {}),
    value: plannedValue(item, item.workflow_id ? { workflowId: item.workflow_id } : {}),
  }));

  // Names the program calls definitions by: the platform's, unless two share one.
  const used = [
    ...read.definitions.filter((d) => usedDefinitions.has(d._id)),
    ...[...usedDefinitions].filter((id) => !definitionsById.has(id)).map((id) => ({ _id: id, name: id, encrypted: true }) as EnvDefinition),
  ];
  const nameCount = new Map<string, number>();
  for (const d of used) nameCount.set(d.name, (nameCount.get(d.name) ?? 0) + 1);
  const definitions = used.map((d) => ({ id: d._id, key: nameCount.get(d.name)! > 1 ? `${d.name}_${d._id}` : d.name, encrypted: d.encrypted }));

  notBroughtIn.push(
    "Application events: the API has no operation that reads an event, so none was brought in. To manage one, declare an ApplicationEvent with the event's id and its current name and response (from the platform's UI), and the same name and response in `restoreOnDelete`, so that `pulumi destroy` puts it back; its first `up` writes the event, since there is nothing to compare it with.",
    "Configs other than the one named after each linked account: the API cannot list configs, so only that one was read. Declare another with LinkedAccountSetup's `configId`.",
  );
  for (const slug of read.slugs) {
    const without = read.accounts.filter((a) => !a.configs.has(slug)).map((a) => a.account.account_id);
    if (without.length > 0) {
      notBroughtIn.push(`${slug}: ${plural(without.length, "linked account has", "linked accounts have")} no config of this app named after them (404): ${examples(without)}.`);
    }
  }
  if (fieldValues.length > 0) {
    notBroughtIn.push(`Field values, the end users' own input (${plural(fieldValues.length, "field")}, e.g. ${examples(fieldValues)}): no resource of this package manages a field's value.`);
  }
  if (configLabels.length > 0) {
    notBroughtIn.push(`Config labels (${examples(configLabels)}): no resource of this package manages a config's own labels.`);
  }
  if (unmanagedShapes.length > 0) {
    notBroughtIn.push(`Options or labels that are not {name, value} lists (${examples(unmanagedShapes)}): declaring them would change them, so they were left out.`);
  }
  if (read.unselectedWorkflowEnvValues > 0) {
    notBroughtIn.push(`${plural(read.unselectedWorkflowEnvValues, "workflow env value")} of linked accounts not selected with --linked-account.`);
  }
  notBroughtIn.push("Env values of workflows of other apps: only the workflows of the apps asked for (--slug) were read.");
  if (nothingToDeclare.length > 0) {
    notBroughtIn.push(`Nothing is set for ${plural(nothingToDeclare.length, "linked account")} (no field of its own, no enabled workflow, no env value), so none is declared: ${examples(nothingToDeclare)}.`);
  }

  return { slugs: read.slugs, accountsRead: read.accounts.length, setups, shared, definitions, secrets, notBroughtIn, fieldNotes, counts };
}

// ---- Rendering -------------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A TypeScript object key: bare when it can be, quoted otherwise. `__proto__`, bare or quoted,
 * would set the object's prototype instead of a key, so it is a computed key.
 */
const key = (name: string) => (name === "__proto__" ? `[${JSON.stringify(name)}]` : IDENTIFIER.test(name) ? name : JSON.stringify(name));

/**
 * A value as TypeScript source on one line, or as JSON with `JSON.stringify` for `name`; strings
 * are JSON-quoted, so no input can break out of them.
 */
function literal(value: unknown, name: (key: string) => string = key): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, name)).join(", ")}]`;
  const entries = Object.entries(value as object).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${name(k)}: ${literal(v, name)}`).join(", ")} }`;
}

/** An env value as TypeScript source: its text, or the secret read from the stack's config. */
const valueSource = (value: PlannedValue) => ("text" in value ? JSON.stringify(value.text) : `secret(${JSON.stringify(value.secretKey)})`);

/** Env values by definition, as a TypeScript object literal keyed by the definitions' names. */
function envSource(values: Map<string, PlannedValue>, names: Map<string, string>): string {
  return `{ ${[...values].map(([id, value]) => `${key(names.get(id)!)}: ${valueSource(value)}`).join(", ")} }`;
}

/** One setup's data line. */
function setupLine(setup: PlannedSetup, names: Map<string, string>): string {
  const parts = [`linkedAccountId: ${JSON.stringify(setup.linkedAccountId)}`, `slug: ${JSON.stringify(setup.slug)}`];
  if (setup.fields.length > 0) parts.push(`fields: ${literal(setup.fields)}`);
  if (setup.workflows.length > 0) parts.push(`workflows: ${literal(setup.workflows)}`);
  if (setup.env.size > 0) parts.push(`env: ${envSource(setup.env, names)}`);
  if (setup.workflowEnv.size > 0) {
    parts.push(`workflowEnv: { ${[...setup.workflowEnv].map(([workflowId, values]) => `${key(workflowId)}: ${envSource(values, names)}`).join(", ")} }`);
  }
  return `  { ${parts.join(", ")} },`;
}

/** The program: data first (one line per linked account and app), then the loops that declare it. */
export function renderProgram(plan: ImportPlan): string {
  const names = new Map(plan.definitions.map((d) => [d.id, d.key]));
  const hasEnv = plan.definitions.length > 0;
  const out: string[] = [];
  out.push(
    `// The integration platform setup of ${plural(plan.accountsRead, "linked account")} (${printable(plan.slugs.join(", "))}), brought in from the`,
    "// live workspace by `pulumi-integration-platform import`. The data comes first, one line per",
    "// linked account and app; the loops after it declare the resources. The first `pulumi up` takes",
    "// every object over without a write to the platform. `pulumi destroy` puts back what the import",
    "// found, which found.json holds apart from the data; README.md says more, and what the import",
    "// could not bring in.",
    ...(hasEnv ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as platform from "pulumi-integration-platform";',
    "",
  );
  if (plan.secrets.length > 0) {
    out.push(
      "const config = new pulumi.Config();",
      "/** An encrypted env value: the platform never shows it, so it comes from this stack's secret config (README.md). */",
      "const secret = (key: string) => config.requireSecret(key);",
      "",
    );
  }
  if (hasEnv) {
    out.push(
      "/** The env variable definitions the values below use, by name. */",
      "const definitions = {",
      ...plan.definitions.map((d) => `  ${key(d.key)}: { id: ${JSON.stringify(d.id)}, encrypted: ${d.encrypted} },`),
      "};",
      "type DefinitionName = keyof typeof definitions;",
      "/** Env values by definition name: the text, or `secret(key)` for an encrypted one. */",
      "type EnvValues = { [name in DefinitionName]?: string | pulumi.Output<string> };",
      "",
    );
  }
  out.push(
    "/** One linked account's setup of one app, in its config named after the account. */",
    "interface Setup {",
    "  linkedAccountId: string;",
    "  slug: string;",
    "  /** Field names, options and labels this config holds that differ from the app's own. */",
    "  fields?: platform.SetupField[];",
    "  /** Workflows enabled in this config; the others are not managed. */",
    "  workflows?: string[];",
  );
  if (hasEnv) {
    out.push(
      `  /** The linked account's own env values (scope linked_account); they go with its ${plan.slugs[0]} setup. */`,
      "  env?: EnvValues;",
      "  /** The linked account's env values of workflows of this app, by workflow id. */",
      "  workflowEnv?: Record<string, EnvValues>;",
    );
  }
  out.push("}", "", "const setups: Setup[] = [", ...plan.setups.map((s) => setupLine(s, names)), "];", "");
  out.push(
    "/** What the import found in one data line's config: found.json holds one per line, as read. */",
    "interface Found {",
    "  linkedAccountId: string;",
    "  slug: string;",
    "  /** The fields as the line declared them, with the name, options and labels found. */",
    "  fields?: platform.SetupField[];",
    "  /** Whether each workflow of the config was enabled. */",
    "  workflows: Record<string, boolean>;",
    "}",
    "",
    "/**",
    " * What the import found, frozen in found.json apart from the data above: `pulumi destroy`, or",
    " * removing a line, a field or a workflow, puts it back however the data was changed since",
    " * (README.md). Declaring it writes nothing.",
    " */",
    'const found = new Map((require("./found.json") as Found[]).map((was) => [JSON.stringify([was.linkedAccountId, was.slug]), was]));',
    "",
    "/**",
    " * A field's restoreOnDelete: the value found of each of name, options and labels that it declares.",
    " * None when it declares one that was not found (declared since): ConfigField then puts back what",
    " * it recorded when it took each over.",
    " */",
    'function restoreField(field: platform.SetupField, was?: Found): platform.SetupField["restoreOnDelete"] {',
    "  const then = was?.fields?.find((f) => f.fieldId === field.fieldId && f.workflowId === field.workflowId);",
    '  const declared = (["name", "options", "labels"] as const).filter((key) => field[key] !== undefined);',
    "  if (!then || declared.some((key) => then[key] === undefined)) return undefined;",
    "  return Object.fromEntries(declared.map((key) => [key, then[key]]));",
    "}",
    "",
    "/** A workflow's restoreOnDelete: whether it was found enabled; none for one its config did not list. */",
    "function restoreWorkflow(workflowId: string, was?: Found): boolean | undefined {",
    "  return was && Object.hasOwn(was.workflows, workflowId) ? was.workflows[workflowId] : undefined;",
    "}",
    "",
  );

  if (hasEnv) {
    out.push(
      "/** Env values of the org, the workspace, and workflows for every linked account: [definition, value, workflow id]. */",
      "const sharedEnvValues: [DefinitionName, string | pulumi.Output<string>, string?][] = [",
      ...plan.shared.map((v) => `  [${[JSON.stringify(names.get(v.definitionId)), valueSource(v.value), ...(v.workflowId ? [JSON.stringify(v.workflowId)] : [])].join(", ")}],`),
      "];",
      "",
      "/**",
      " * Env values as LinkedAccountSetup takes them. They are kept on the platform by `pulumi destroy`",
      " * (retainOnDelete), since end users' running workflows read them; an encrypted one is taken over",
      " * as the platform holds it (adoptEncryptedValue: README.md).",
      " */",
      "function envValues(values: EnvValues = {}, workflowId?: string): platform.SetupEnvValue[] {",
      "  return Object.entries(values).map(([name, value]) => {",
      "    const definition = definitions[name as DefinitionName];",
      "    return { definitionId: definition.id, workflowId, value: value!, adoptEncryptedValue: definition.encrypted, retainOnDelete: true };",
      "  });",
      "}",
      "",
    );
  }
  out.push(
    "for (const setup of setups) {",
    "  const was = found.get(JSON.stringify([setup.linkedAccountId, setup.slug]));",
    "  new platform.LinkedAccountSetup(`${setup.linkedAccountId}-${setup.slug}`, {",
    "    linkedAccountId: setup.linkedAccountId,",
    "    slug: setup.slug,",
    "    // What destroy puts back comes from found.json, not from the data (a restoreOnDelete written in the data wins).",
    "    fields: setup.fields?.map((field) => ({ restoreOnDelete: restoreField(field, was), ...field })),",
    "    workflows: Object.fromEntries(",
    "      (setup.workflows ?? []).map((workflowId) => [workflowId, { enabled: true, restoreOnDelete: restoreWorkflow(workflowId, was) }]),",
    "    ),",
  );
  if (hasEnv) {
    out.push(
      "    envValues: [",
      "      ...envValues(setup.env),",
      "      ...Object.entries(setup.workflowEnv ?? {}).flatMap(([workflowId, values]) => envValues(values, workflowId)),",
      "    ],",
    );
  }
  out.push("  });", "}", "");
  if (hasEnv) {
    out.push(
      "for (const [name, value, workflowId] of sharedEnvValues) {",
      "  const definition = definitions[name];",
      "  new platform.EnvVariableValue(",
      "    workflowId ? `env/${name}/${workflowId}` : `env/${name}`,",
      "    { definitionId: definition.id, workflowId, value, adoptEncryptedValue: definition.encrypted },",
      "    { retainOnDelete: true },",
      "  );",
      "}",
      "",
    );
  }
  return out.join("\n");
}

/**
 * One record of found.json: what the import found in the config of one data line, frozen for
 * `pulumi destroy` to put back (index.ts declares it as restoreOnDelete): the fields as the line
 * declared them, which hold the values found, and whether each of the config's workflows was
 * enabled.
 */
export const FoundRecord = z.looseObject({
  linkedAccountId: z.string(),
  slug: z.string(),
  fields: z
    .array(z.looseObject({ fieldId: z.string(), workflowId: z.string().optional(), name: z.string().optional(), options: z.array(NameValue).optional(), labels: z.array(NameValue).optional() }))
    .optional(),
  workflows: z.record(z.string(), z.boolean()),
});
/** One record of found.json. */
export type FoundRecord = z.infer<typeof FoundRecord>;

/** found.json's records for a plan: one per data line whose config the import read (none for a 404). */
export function foundRecords(plan: ImportPlan): FoundRecord[] {
  return plan.setups
    .filter((setup) => setup.workflowStates !== undefined)
    .map((setup) => ({
      linkedAccountId: setup.linkedAccountId,
      slug: setup.slug,
      fields: setup.fields.length > 0 ? setup.fields.map((field) => ({ ...field })) : undefined,
      workflows: setup.workflowStates!,
    }));
}

/**
 * Another import into the same directory (`--force`) keeps every record the earlier found.json
 * holds, whole, and adds records only for the data lines it lacks. What the platform holds by
 * then may be the stack's own writes, and recording those as "found" would make `destroy` put
 * back the stack's values instead of the ones that were there first. A field or workflow missing
 * from a kept record stays missing: index.ts then falls back to the resource's own record.
 */
export function keepEarlierFound(earlier: FoundRecord[], now: FoundRecord[]): { records: FoundRecord[]; kept: number; added: number } {
  const line = (r: FoundRecord) => JSON.stringify([r.linkedAccountId, r.slug]);
  const known = new Set(earlier.map(line));
  const added = now.filter((record) => !known.has(line(record)));
  return { records: [...earlier, ...added], kept: earlier.length, added: added.length };
}

/** found.json's text: one record per line, so that a diff of it shows which data line changed. */
export function renderFound(records: FoundRecord[]): string {
  const lines = records.map((record) => `  ${literal(record, (name) => JSON.stringify(name))}`);
  return lines.length === 0 ? "[]\n" : `[\n${lines.join(",\n")}\n]\n`;
}

/** The `pulumi config set --secret` lines to run, one per encrypted value, without values (each prompts for its own). */
export function secretCommands(plan: ImportPlan): string[] {
  const width = Math.max(0, ...plan.secrets.map((s) => s.key.length));
  return plan.secrets.map((s) => {
    const where = [s.linkedAccountId && `linked account ${s.linkedAccountId}`, s.workflowId && `workflow ${s.workflowId}`].filter(Boolean).join(", ");
    return `pulumi config set --secret ${s.key.padEnd(width)}   # ${printable(`${s.definition}${where ? `, ${where}` : ""}`)}`;
  });
}

/** The project's README: how to adopt, what `destroy` does, and what was not brought in. */
function renderReadme(plan: ImportPlan, meta: ProjectMeta): string {
  const secrets = secretCommands(plan);
  const lines = [
    `# ${meta.project}`,
    "",
    `The integration platform setup of ${plural(plan.accountsRead, "linked account")} (${plan.slugs.join(", ")}), brought in from the live`,
    `workspace by \`${meta.command}\`. \`index.ts\` holds the data, one line per linked account`,
    `and app (${plural(plan.setups.length, "line")}), and the loops that declare it. Review it; it is yours to keep and change.`,
    "`found.json` holds what the import found there, for `pulumi destroy` to put back: keep it as it is.",
    "",
    `It declares ${plural(plan.counts.fields, "field")} (only a name, options or labels that differ from the app's own),`,
    `${plural(plan.counts.workflows, "enabled workflow")} (disabled ones are not declared, so not managed) and`,
    `${plural(plan.counts.envValues, "env value")}, ${plan.counts.encrypted} of them encrypted.`,
    "",
    "## Adopt it",
    "",
    "```sh",
    "npm install",
    "pulumi stack init <stack>",
    "pulumi config set integration-platform:baseUrl https://<your platform host>",
    "pulumi config set --secret integration-platform:apiKey        # prompts for the key (or export INTEGRATION_PLATFORM_API_KEY)",
    ...(secrets.length > 0 ? ["# Encrypted env values: each command prompts for its value (or pipe it in)", ...secrets] : []),
    "pulumi up                            # takes every object over: no write to the platform",
    "pulumi preview --expect-no-changes   # the program and the platform agree",
    "```",
    "",
    "The first `up` shows every resource as a create (`+`): the stack has no record of them yet. Each",
    "create reads what the platform holds and, finding the declared values there, writes nothing.",
    "",
  ];
  if (plan.counts.encrypted > 0) {
    lines.push(
      "## Encrypted env values",
      "",
      'The platform never shows an encrypted value (it reads back as `"[REDACTED]"`), so the import',
      "could not write it here. The program reads each from this stack's secret config",
      "(`config.requireSecret`): set them with the commands above before `pulumi up`, to what the",
      "platform holds. They are declared with `adoptEncryptedValue: true`: the first `up` takes the",
      "value the platform holds over without writing, and trusts the secret you set to equal it, since",
      "it cannot be read to compare. A later change of the secret is written to the platform.",
      "",
    );
  }
  lines.push(
    "## What `pulumi destroy` does",
    "",
    "It leaves the platform as the import found it. That is deliberate: this stack took over a",
    "running setup, and removing it must neither break it nor lose what was there.",
    "",
    "- **Fields and workflow toggles** put back what the import found. `found.json` holds it, one",
    "  line per data line: each field as the line declared it then (the name, options and labels",
    "  found) and whether each workflow of the config was enabled. `index.ts` declares it as each",
    "  resource's `restoreOnDelete`, only for the properties the field declares, so that what",
    "  `destroy` puts back never moves with the data: change a name in `index.ts`, `pulumi up`, and",
    "  `destroy` still puts back the name found. Removing a field, a workflow or a line from the data",
    "  puts it back too. Declaring `restoreOnDelete` writes nothing (it acts at delete), so the first",
    "  `up` still writes nothing. Leave `found.json` as it is: it is the record of the platform before",
    "  this stack. A property you declare later that the import did not find (a field's name where",
    "  only its labels were declared, a field or a line added) has nothing there: such a field puts",
    "  back what it recorded when this stack took it over, a workflow whether it was enabled then.",
    "- **Env values** are declared with `retainOnDelete: true`: `destroy`, or removing one from the",
    "  program, drops it from the stack and leaves it on the platform, since end users' running",
    "  workflows read it. To delete one on the platform, set `retainOnDelete: false` for it and run",
    "  `pulumi up` first, then remove it and run `pulumi up` again.",
    "",
    "## Not brought in",
    "",
    ...plan.notBroughtIn.map((line) => `- ${printable(line)}`),
    "",
    "How fields were chosen:",
    "",
    ...plan.fieldNotes.map((line) => `- ${printable(line)}`),
    "",
    "To bring the workspace in again, run the same command with `--force`: it rewrites these files",
    "and keeps everything else here (`node_modules`, `Pulumi.<stack>.yaml`). It keeps every record",
    "`found.json` holds, and adds records only for new data lines, because once this stack has",
    "changed something, the platform holds the stack's values, not the ones found first. To record",
    "what the platform holds then instead, delete `found.json` before importing again.",
    "",
  );
  return lines.join("\n");
}

/** Every file of the project. */
export function renderProject(plan: ImportPlan, meta: ProjectMeta): ProjectFiles {
  const description = `The integration platform setup (${plan.slugs.join(", ")}), brought in by pulumi-integration-platform import`;
  return {
    "Pulumi.yaml": `name: ${meta.project}\ndescription: ${JSON.stringify(description)}\nruntime: nodejs\n`,
    "package.json": `${JSON.stringify(
      {
        name: meta.project,
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": meta.versions.pulumi, "pulumi-integration-platform": meta.versions.package },
        devDependencies: { "@types/node": meta.versions.typesNode, typescript: meta.versions.typescript },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `${JSON.stringify(
      { compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true }, files: ["index.ts"] },
      null,
      2,
    )}\n`,
    "index.ts": renderProgram(plan),
    "found.json": renderFound(meta.found ?? foundRecords(plan)),
    "README.md": renderReadme(plan, meta),
    ".gitignore": "node_modules/\n",
  };
}

// `import --fixture FILE`: what the import read, as an emulator fixture, so that a team's CI can
// preview against the shape of its own workspace. The API shows each field merged with the app's
// definition, so the app's own name and options are told as the import's plan tells them
// (fieldDefaults), and a config keeps only what differs. Encrypted values become placeholders.
// docs/guides/adopting-existing-objects.md, "A fixture of your workspace".
import * as fs from "node:fs/promises";
import * as path from "node:path";
import type * as api from "../../provider/client/configs";
import { fieldDefaults, fieldKey, fieldsOf, strictNameValues } from "./fields";
import { REDACTED } from "./plan";
import { ImportInputError, type WorkspaceRead } from "./read";

/** What an encrypted value becomes, by the definition's format: the platform never shows it. */
export const PLACEHOLDERS = { string: "placeholder-not-the-value", number: "0", url: "https://placeholder.invalid/" };

/** The org's id when no definition names one (a workspace without env definitions). */
const UNKNOWN_ORG = "imported-org";

// The fixture's shapes (docs/emulator.md, "Fixture format"), written out here: the CLI talks to the
// platform and never loads the emulator's code. test/unit/importFixture.test.ts loads what this writes.
type NameValues = { name: string; value: string }[];
interface FixtureField {
  id: string;
  name: string;
  field_type: string;
  required: boolean;
  hidden: boolean;
  has_dynamic_map_fields: boolean;
  dynamic_slot_identifier: string;
  options: NameValues;
}
interface FixtureApp {
  slug: string;
  name: string;
  fields: FixtureField[];
  workflows: { id: string; name: string; description?: string; fields: FixtureField[] }[];
}
interface FixtureFieldState {
  id: string;
  name?: string;
  options?: NameValues;
  labels?: NameValues;
  value?: unknown;
}
interface FixtureConfig {
  linked_account_id: string;
  slug: string;
  config_id: string;
  labels?: NameValues;
  fields: FixtureFieldState[];
  workflows: { id: string; enabled: boolean; fields: FixtureFieldState[] }[];
}
/** An emulator fixture, as `--fixtures` reads it. */
export interface EmulatorFixture {
  org: { _id: string; name: string; environment: string };
  apps: FixtureApp[];
  linkedAccounts: Record<string, unknown>[];
  configs: FixtureConfig[];
  events: never[];
  envDefinitions: Record<string, unknown>[];
  envValues: Record<string, unknown>[];
  audit: never[];
}

/** A fixture of what was read, and what it could not hold, in sentences. */
export interface ImportedFixture {
  /** The fixture. */
  fixture: EmulatorFixture;
  /** Counts for the report. */
  counts: { linkedAccounts: number; configs: number; envValues: number; placeholders: number };
  /** What the fixture leaves out, and why. */
  notes: string[];
}

const nonEmpty = (text: string | null | undefined) => (text ? text : undefined);

/** An app's field definition from the first config that shows it, with the app's own name and options. */
function definitionOf(field: api.ConfigFieldState, own: { name?: string; options?: string }): FixtureField {
  const options = own.options === undefined ? strictNameValues(field.options) : JSON.parse(own.options);
  const name = own.name === undefined ? field.name : JSON.parse(own.name);
  return {
    id: field.id,
    name: name ?? field.id,
    field_type: field.field_type as FixtureField["field_type"],
    required: field.required,
    hidden: field.hidden ?? false,
    has_dynamic_map_fields: field.has_dynamic_map_fields ?? false,
    dynamic_slot_identifier: field.dynamic_slot_identifier ?? "",
    options: options ?? [],
  };
}

/** What a config holds of a field beyond the app's definition: its own name and options, labels, value. */
function stateOf(field: api.ConfigFieldState, definition: FixtureField): FixtureFieldState | undefined {
  const state: FixtureFieldState = { id: field.id };
  if ((field.name ?? field.id) !== definition.name) state.name = field.name ?? undefined;
  const options = strictNameValues(field.options);
  if (options && JSON.stringify(options) !== JSON.stringify(definition.options ?? [])) state.options = options;
  const labels = strictNameValues(field.labels);
  if (labels && labels.length > 0) state.labels = labels;
  if (field.value !== undefined && field.value !== null) state.value = field.value;
  return Object.keys(state).length > 1 ? state : undefined;
}

/** Each app, from every config read of it: its fields and published workflows as the configs show them. */
function appsOf(read: WorkspaceRead) {
  const apps: FixtureApp[] = [];
  const definitions = new Map<string, FixtureField>();
  for (const slug of read.slugs) {
    const configs = read.accounts.flatMap((a) => a.configs.get(slug) ?? []);
    const own = fieldDefaults([...configs, ...(read.referenceConfigs.get(slug) ?? [])]);
    const app: FixtureApp = { slug, name: slug, fields: [], workflows: [] };
    for (const config of [...configs, ...(read.referenceConfigs.get(slug) ?? [])]) {
      for (const workflow of config.workflows) {
        if (app.workflows.some((w) => w.id === workflow.id)) continue;
        const description = nonEmpty(workflow.description);
        app.workflows.push({
          id: workflow.id,
          name: workflow.name ?? workflow.id,
          ...(description ? { description } : {}),
          fields: [],
        });
      }
      for (const { field, workflowId } of fieldsOf(config)) {
        const key = `${slug}\n${fieldKey(workflowId, field.id)}`;
        if (definitions.has(key)) continue;
        const definition = definitionOf(field, own.get(fieldKey(workflowId, field.id)) ?? {});
        definitions.set(key, definition);
        const list = workflowId === undefined ? app.fields : app.workflows.find((w) => w.id === workflowId)!.fields;
        list.push(definition);
      }
    }
    apps.push(app);
  }
  return {
    apps,
    definitionOf: (slug: string, workflowId: string | undefined, fieldId: string) =>
      definitions.get(`${slug}\n${fieldKey(workflowId, fieldId)}`)!,
  };
}

/** Each config read, with what it holds beyond its app's definitions. */
function configsOf(read: WorkspaceRead, defined: ReturnType<typeof appsOf>["definitionOf"]): FixtureConfig[] {
  return read.accounts.flatMap(({ account, configs: bySlug }) =>
    [...bySlug].map(([slug, config]) => {
      const fields = (list: api.ConfigFieldState[] | null | undefined, workflowId?: string) =>
        (list ?? []).flatMap((f) => stateOf(f, defined(slug, workflowId, f.id)) ?? []);
      const labels = strictNameValues(Array.isArray(config.labels) ? config.labels : []);
      return {
        linked_account_id: account.account_id,
        slug,
        config_id: config.config_id,
        ...(labels && labels.length > 0 ? { labels } : {}),
        fields: fields(config.fields),
        workflows: config.workflows.map((w) => ({ id: w.id, enabled: w.enabled, fields: fields(w.fields, w.id) })),
      };
    }),
  );
}

/** Every env value read, an encrypted one as a placeholder; those of workflows not in `published` left out. */
function envValuesOf(read: WorkspaceRead, orgId: string, published: Set<string>) {
  const definitions = new Map(read.definitions.map((d) => [d._id, d]));
  const items = [...read.accounts.flatMap((a) => [...a.envValues, ...a.workflowEnvValues]), ...read.sharedEnvValues];
  let placeholders = 0;
  let otherWorkflows = 0;
  const values = items.flatMap((item) => {
    const definition = definitions.get(item.variable_definition_id._id);
    // A value of a workflow of an app not brought in: its workflow is not in the fixture.
    if (item.workflow_id && !published.has(item.workflow_id)) return (otherWorkflows++, []);
    const encrypted = definition?.encrypted || item.value === REDACTED;
    if (encrypted) placeholders++;
    return [
      {
        _id: item._id,
        variable_definition_id: item.variable_definition_id._id,
        org_id: orgId,
        linked_account_id: item.linked_account_id ?? null,
        workflow_id: item.workflow_id ?? null,
        value: encrypted ? PLACEHOLDERS[definition?.var_format ?? "string"] : item.value,
        ...(item.updatedAt ? { updatedAt: item.updatedAt } : {}),
      },
    ];
  });
  return { values, placeholders, otherWorkflows };
}

/** What the fixture leaves out, and why, for the report. */
function notesOf(placeholders: number, otherWorkflows: number): string[] {
  return [
    "application events: the API lists none, so the fixture has none " +
      "(add them by hand: docs/emulator.md, Fixture format)",
    "draft workflows and the apps' display names: the API shows neither; each app is named by its slug",
    `encrypted env values: ${placeholders} replaced by placeholders (${JSON.stringify(PLACEHOLDERS.string)}, ` +
      `"0" or ${JSON.stringify(PLACEHOLDERS.url)} by format); the platform never shows them`,
    ...(otherWorkflows > 0
      ? [`${otherWorkflows} env values of workflows of apps not brought in (add their --slug to keep them)`]
      : []),
  ];
}

/** The fixture of what `read` holds. */
export function fixtureOf(read: WorkspaceRead): ImportedFixture {
  const { apps, definitionOf } = appsOf(read);
  const orgId = read.definitions.find((d) => d.org_id)?.org_id ?? UNKNOWN_ORG;
  const configs = configsOf(read, definitionOf);
  const published = new Set(apps.flatMap((a) => a.workflows.map((w) => w.id)));
  const { values, placeholders, otherWorkflows } = envValuesOf(read, orgId, published);
  const fixture: EmulatorFixture = {
    org: { _id: orgId, name: "Imported workspace", environment: "test" },
    apps,
    linkedAccounts: read.accounts.map(({ account }) => ({
      _id: account._id,
      account_id: account.account_id,
      name: account.name ?? account.account_id,
      environment: account.environment ?? "test",
      udf: (account.udf ?? []).map((u) => ({ key_name: u.key_name, key_value: String(u.key_value) })),
      ...(account.createdAt ? { createdAt: account.createdAt } : {}),
      ...(account.updatedAt ? { updatedAt: account.updatedAt } : {}),
    })),
    configs,
    events: [],
    envDefinitions: read.definitions.map((d) => ({
      _id: d._id,
      org_id: d.org_id ?? orgId,
      name: d.name,
      description: d.description ?? "",
      scope: d.scope,
      var_format: d.var_format,
      encrypted: d.encrypted,
      ...(d.createdAt ? { createdAt: d.createdAt } : {}),
      ...(d.updatedAt ? { updatedAt: d.updatedAt } : {}),
    })),
    envValues: values,
    audit: [],
  };
  const counts = {
    linkedAccounts: read.accounts.length,
    configs: configs.length,
    envValues: values.length,
    placeholders,
  };
  return { fixture, counts, notes: notesOf(placeholders, otherWorkflows) };
}

/** Refuses, before anything is read, a --fixture that names a directory, or an existing file without --force. */
export async function checkFixtureFile(file: string, force: boolean): Promise<string> {
  const resolved = path.resolve(file);
  const stat = await fs.stat(resolved).catch(() => undefined);
  if (stat?.isDirectory())
    throw new ImportInputError(`--fixture ${file} is a directory: name a file, e.g. workspace.json`);
  if (stat && !force)
    throw new ImportInputError(`--fixture ${file} exists: give --force to replace it, or name a new file`);
  return resolved;
}

/** Writes the fixture (creating its directory), whole or not at all. */
export async function writeFixtureFile(file: string, fixture: EmulatorFixture): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  await fs.writeFile(partial, `${JSON.stringify(fixture, null, 2)}\n`);
  await fs.rename(partial, file);
}

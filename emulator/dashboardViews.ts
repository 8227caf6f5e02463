// What the dashboard (emulator/dashboard/) reads: small JSON views of the state, each bounded, so
// that a workspace of 10,000 linked accounts never goes to the browser whole. They carry no
// credential and never an encrypted env value: unlike GET /_emulator/state, which tests read, these
// go to a page, and a page is what a screenshot, a screen share or an extension sees.
import type { EmulatorContext } from "./context";
import type { App, FieldDefinition } from "./objects/applications";
import type { Config, FieldState } from "./objects/configs";
import type { EnvDefinition, EnvValue } from "./objects/envVariables";
import type { LinkedAccount } from "./objects/linkedAccounts";
import { paginate, type Page } from "./pagination";
import type { RequestLogEntry } from "./requestLog";
import type { EmulatorStore } from "./store";
import type { Delivery } from "./webhooks";

/** Longest text of a value the views show; a field may hold a 256 KiB JSON document. */
const MAX_SHOWN = 500;
/** Deliveries the webhooks view lists, newest first. */
export const DASHBOARD_DELIVERIES = 50;

/** A value as the page shows it: text, clipped. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN)}…`;
}

/** An env value as the page may see it: an encrypted one is only said to be there. */
export function envValueShown(definition: EnvDefinition, value: EnvValue) {
  return {
    name: definition.name,
    scope: definition.scope,
    var_format: definition.var_format,
    linked_account_id: value.linked_account_id,
    workflow_id: value.workflow_id,
    updatedAt: value.updatedAt,
    ...(definition.encrypted ? { encrypted: true as const } : { encrypted: false as const, value: value.value }),
  };
}

/** The header's figures: the organisation, how much it holds, and the control plane's settings. */
export function summaryView({ store, requests, faults, rateLimit, webhooks, runs }: EmulatorContext) {
  const { state } = store;
  const rules = faults.list();
  const window = requests.window({ limit: 0 });
  return {
    org: { name: state.org.name, environment: state.org.environment },
    counts: {
      linkedAccounts: state.linkedAccounts.length,
      apps: state.apps.length,
      configs: state.configs.length,
      envDefinitions: state.envDefinitions.length,
      envValues: state.envValues.length,
      auditEntries: state.audit.length,
    },
    journal: { size: window.size, capacity: window.capacity, lastSeq: window.lastSeq },
    faults: { rules: rules.length, active: rules.filter((rule) => rule.remaining !== 0).length },
    rateLimit: rateLimit.get(),
    webhooks: { receivers: webhooks.listReceivers().length, pending: webhooks.pending },
    runs: runs.list().length,
  };
}

/** One row of the linked accounts' table. */
export interface LinkedAccountRow {
  account_id: string;
  name: string;
  environment: string;
  configs: number;
  envValues: number;
  createdAt: string;
}

/** A page of linked accounts whose id or name holds `q` (any case), each with its counts of configs and env values. */
export function linkedAccountsPage(
  { state }: EmulatorStore,
  query: { page: number; limit: number; q?: string },
): Page<LinkedAccountRow> {
  const q = query.q?.toLowerCase();
  const matching =
    q === undefined || q === ""
      ? state.linkedAccounts
      : state.linkedAccounts.filter((a) => a.account_id.toLowerCase().includes(q) || a.name.toLowerCase().includes(q));
  const page = paginate(matching, query, (account: LinkedAccount) => account);
  // Counted for the page's accounts only, in one pass over each list.
  const counts = new Map(page.docs.map((a) => [a.account_id, { configs: 0, envValues: 0 }]));
  for (const config of state.configs) {
    const count = counts.get(config.linked_account_id);
    if (count) count.configs++;
  }
  for (const value of state.envValues) {
    const count = value.linked_account_id === null ? undefined : counts.get(value.linked_account_id);
    if (count) count.envValues++;
  }
  return {
    ...page,
    docs: page.docs.map(({ account_id, name, environment, createdAt }) => ({
      account_id,
      name,
      environment,
      createdAt,
      ...counts.get(account_id)!,
    })),
  };
}

/** A field with its definition and the config's override of it. */
function fieldShown(definition: FieldDefinition, state: FieldState | undefined) {
  return {
    id: definition.id,
    name: state?.name ?? definition.name,
    field_type: definition.field_type,
    required: definition.required,
    hidden: definition.hidden,
    ...(state?.value === undefined ? { set: false as const } : { set: true as const, value: shown(state.value) }),
    labels: state?.labels ?? [],
  };
}

/** A config with its application's fields and workflows, each with the config's values and states. */
function configShown(app: App | undefined, config: Config) {
  const workflowState = (id: string) => config.workflows.find((w) => w.id === id);
  return {
    slug: config.slug,
    app: app?.name ?? config.slug,
    config_id: config.config_id,
    labels: config.labels,
    updatedAt: config.updatedAt,
    fields: (app?.fields ?? []).map((d) =>
      fieldShown(
        d,
        config.fields.find((f) => f.id === d.id),
      ),
    ),
    workflows: (app?.workflows ?? []).map((w) => ({
      id: w.id,
      name: w.name,
      published: w.published,
      enabled: workflowState(w.id)?.enabled ?? false,
      fields: w.fields.map((d) =>
        fieldShown(
          d,
          workflowState(w.id)?.fields.find((f) => f.id === d.id),
        ),
      ),
    })),
  };
}

/** One linked account: its user-defined fields, each config of each application, and its env values. */
export function linkedAccountDetail(store: EmulatorStore, accountId: string) {
  const account = store.linkedAccounts.find(accountId);
  if (!account) return undefined;
  const { state } = store;
  const definitions = new Map(state.envDefinitions.map((d) => [d._id, d]));
  return {
    account: {
      account_id: account.account_id,
      name: account.name,
      environment: account.environment,
      udf: account.udf,
      createdAt: account.createdAt,
      updatedAt: account.updatedAt,
    },
    configs: state.configs
      .filter((c) => c.linked_account_id === accountId)
      .map((c) => configShown(store.applications.find(c.slug), c)),
    envValues: state.envValues
      .filter((v) => v.linked_account_id === accountId && definitions.has(v.variable_definition_id))
      .map((v) => envValueShown(definitions.get(v.variable_definition_id)!, v)),
  };
}

/** The env variable definitions with their counts of values, and the values that belong to no linked account. */
export function envView({ state }: EmulatorStore) {
  const counts = new Map<string, number>();
  for (const value of state.envValues)
    counts.set(value.variable_definition_id, (counts.get(value.variable_definition_id) ?? 0) + 1);
  const definitions = new Map(state.envDefinitions.map((d) => [d._id, d]));
  return {
    definitions: state.envDefinitions.map((d) => ({
      _id: d._id,
      name: d.name,
      description: d.description,
      scope: d.scope,
      var_format: d.var_format,
      encrypted: d.encrypted,
      values: counts.get(d._id) ?? 0,
    })),
    // Org, workspace and workflow values: a few, where linked_account values are one or more per account.
    values: state.envValues
      .filter((v) => v.linked_account_id === null && definitions.has(v.variable_definition_id))
      .map((v) => envValueShown(definitions.get(v.variable_definition_id)!, v)),
  };
}

/** The applications with their field and workflow definitions, and how many configs each has. */
export function appsView({ state }: EmulatorStore) {
  const configs = new Map<string, number>();
  for (const config of state.configs) configs.set(config.slug, (configs.get(config.slug) ?? 0) + 1);
  return {
    apps: state.apps.map((app) => ({
      slug: app.slug,
      name: app.name,
      configs: configs.get(app.slug) ?? 0,
      fields: app.fields.map(({ id, name, field_type, required }) => ({ id, name, field_type, required })),
      workflows: app.workflows.map(({ id, name, description, published, fields }) => ({
        id,
        name,
        description,
        published,
        fields: fields.length,
      })),
    })),
  };
}

/** The journal's filters, as the page sends them. */
export interface JournalFilter {
  method?: string;
  /** A status ("429", "0") or a class of them ("4xx"). */
  status?: string;
  /** A linked account's id, exactly. */
  account?: string;
  /** Part of the path, in any case. */
  path?: string;
  /** Only the rate limit's answers and injected faults. */
  flagged?: boolean;
}

/** The test of a journal entry against the page's filters; undefined when none is set. */
export function journalFilter(filter: JournalFilter): ((entry: RequestLogEntry) => boolean) | undefined {
  const method = filter.method?.toUpperCase();
  const path = filter.path?.toLowerCase();
  const status = filter.status;
  const statusClass = status?.endsWith("xx") ? Number(status[0]) : undefined;
  const tests: ((entry: RequestLogEntry) => boolean)[] = [];
  if (method) tests.push((e) => e.method === method);
  if (status !== undefined && statusClass !== undefined) tests.push((e) => Math.floor(e.status / 100) === statusClass);
  else if (status !== undefined) tests.push((e) => e.status === Number(status));
  if (filter.account) tests.push((e) => e.linkedAccountId === filter.account);
  if (path) tests.push((e) => e.path.toLowerCase().includes(path));
  if (filter.flagged) tests.push((e) => e.rateLimited === true || e.fault !== undefined);
  return tests.length === 0 ? undefined : (entry) => tests.every((test) => test(entry));
}

/** A delivery as the page lists it: what was sent where, its state and every attempt. */
function deliveryShown(d: Delivery) {
  const { payload } = d;
  return {
    id: d.id,
    receiverId: d.receiverId,
    url: d.url,
    event: d.event,
    state: d.state,
    createdAt: d.createdAt,
    finishedAt: d.finishedAt,
    redeliveryOf: d.redeliveryOf,
    run: {
      instance_id: payload.instance_id,
      workflow_id: payload.workflow_id,
      workflow_name: payload.workflow_name,
      linked_account_id: payload.linked_account_id,
      status: payload.status,
    },
    attempts: d.attempts,
  };
}

/** The receivers, the delivery settings, and the newest deliveries with their attempts. */
export function webhooksView({ webhooks }: EmulatorContext) {
  const deliveries = webhooks.deliveries();
  return {
    settings: webhooks.settings,
    pending: webhooks.pending,
    receivers: webhooks.listReceivers(),
    total: deliveries.length,
    deliveries: deliveries.slice(-DASHBOARD_DELIVERIES).reverse().map(deliveryShown),
  };
}

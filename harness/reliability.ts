// What the reliability tests share: the spec program (specProgram/index.js) and its specs, the
// documented recovery after a killed `pulumi up`, and checks of the platform, state and request log.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EmulatorState, RequestLogEntry, RunningEmulator } from "../emulator";
import type { Stack, StackExport, Workspace } from "./engine";
import { writeProgram } from "./program";
import { FIXTURE, TYPE, TYPE_PREFIX } from "./fixture";

/** A `{name, value}` pair, as options and labels take. */
export interface NameValue {
  name: string;
  value: string;
}
/** One declared ConfigField: its Pulumi name and its arguments, as the program passes them. */
export interface FieldSpec {
  name: string;
  args: {
    slug: string;
    linkedAccountId: string;
    configId: string;
    fieldId: string;
    workflowId?: string;
    name?: string;
    options?: NameValue[];
    labels?: NameValue[];
  };
}
/** One declared WorkflowToggle. */
export interface ToggleSpec {
  name: string;
  args: { slug: string; linkedAccountId: string; configId: string; workflowId: string; enabled: boolean };
}
/** One declared ApplicationEvent. */
export interface EventSpec {
  name: string;
  args: { eventId: string; name: string; response: Record<string, unknown> };
}
/** One declared EnvVariableValue; `valueFromConfig` names a secret stack config key holding the value. */
export interface EnvSpec {
  name: string;
  args: { definitionId: string; value: string; linkedAccountId?: string; workflowId?: string };
  valueFromConfig?: string;
}
/** What the spec program declares, and the lookups it calls first. */
export interface Spec {
  /** Lookups the program calls first, awaited; `unawaited` ones start at module load instead. */
  lookups?: { fn: string; args: unknown; unawaited?: boolean }[];
  fields?: FieldSpec[];
  toggles?: ToggleSpec[];
  events?: EventSpec[];
  envValues?: EnvSpec[];
}

/** Connection settings for short timeouts and enough retries (see faults.test.ts for the figures). */
export const FAST_CLIENT = { "integration-platform:timeoutMs": "1000", "integration-platform:maxRetries": "8" };

/**
 * Writes the spec program (plain JavaScript) into the workspace as `name`; its stacks run what `writeSpec` last wrote.
 */
export function specProgram(workspace: Workspace, name: string): string {
  return writeProgram(workspace.root, name, {
    "index.js": fs.readFileSync(path.join(__dirname, "specProgram", "index.js"), "utf8"),
    "Pulumi.yaml": `name: ${name}\nruntime: nodejs\nmain: index.js\n`,
    "package.json": JSON.stringify({ name, private: true, main: "index.js" }, null, 2),
    "spec.json": "{}",
  });
}

/** Replaces what the program in `dir` declares. */
export function writeSpec(dir: string, spec: Spec): void {
  fs.writeFileSync(path.join(dir, "spec.json"), JSON.stringify(spec, null, 2));
}

/**
 * A setup that touches the whole fixture: 27 ConfigFields, 9 WorkflowToggles, 3
 * ApplicationEvents and 18 EnvVariableValues (57 resources) across every app, linked account,
 * published workflow and env scope. `tag` goes into every value so that each run's values are
 * its own.
 */
export function fullSpec(tag: string): Spec {
  const fields: FieldSpec[] = [];
  const toggles: ToggleSpec[] = [];
  const envValues: EnvSpec[] = [];
  for (const account of FIXTURE.accounts) {
    const hubspot = { slug: "hubspot", linkedAccountId: account, configId: account };
    const slack = { slug: "slack", linkedAccountId: account, configId: account };
    const field = (
      name: string,
      args: Omit<FieldSpec["args"], "linkedAccountId" | "configId" | "slug">,
      app = hubspot,
    ) => fields.push({ name: `${account}-${name}`, args: { ...app, ...args } });
    field("hs-api-domain", { fieldId: "hs_api_domain", name: `API domain ${tag}` });
    field("hs-sync-limit", { fieldId: "hs_sync_limit", name: `Sync limit ${tag}` });
    field("hs-pipeline", {
      fieldId: "hs_pipeline",
      name: `Pipeline ${tag}`,
      options: [{ name: "Sales", value: `sales-${tag}` }],
    });
    field("hs-property-map", { fieldId: "hs_property_map", labels: [{ name: "team", value: `crm-${tag}` }] });
    field("hs-contact-owner", { fieldId: "hs_contact_owner", workflowId: "wf_hs_contact_sync", name: `Owner ${tag}` });
    field("hs-batch-size", {
      fieldId: "hs_batch_size",
      workflowId: "wf_hs_contact_sync",
      labels: [{ name: "unit", value: `rows-${tag}` }],
    });
    field("slack-default-channel", { fieldId: "slack_default_channel", name: `Channel ${tag}` }, slack);
    field(
      "slack-notify-level",
      { fieldId: "slack_notify_level", options: [{ name: "All", value: `all-${tag}` }] },
      slack,
    );
    field(
      "slack-channel",
      { fieldId: "slack_channel", workflowId: "wf_slack_notify", name: `Notify channel ${tag}` },
      slack,
    );
    for (const [app, workflowId] of [
      ["hubspot", "wf_hs_contact_sync"],
      ["hubspot", "wf_hs_deal_alerts"],
      ["slack", "wf_slack_notify"],
    ]) {
      toggles.push({
        name: `${account}-${workflowId}`,
        args: { slug: app, linkedAccountId: account, configId: account, workflowId, enabled: true },
      });
    }
    envValues.push(
      {
        name: `${account}-crm-token`,
        args: {
          definitionId: FIXTURE.definitions.crmApiToken,
          linkedAccountId: account,
          value: `crm-${account}-${tag}`,
        },
      },
      {
        name: `${account}-tier`,
        args: { definitionId: FIXTURE.definitions.accountTier, linkedAccountId: account, value: `tier-${tag}` },
      },
      {
        name: `${account}-quota`,
        args: {
          definitionId: FIXTURE.definitions.accountQuota,
          linkedAccountId: account,
          value: numeric(tag, account),
        },
      },
      {
        name: `${account}-batch`,
        args: {
          definitionId: FIXTURE.definitions.batchSize,
          linkedAccountId: account,
          workflowId: "wf_hs_contact_sync",
          value: numeric(tag, `b${account}`),
        },
      },
    );
  }
  for (const workflowId of ["wf_hs_contact_sync", "wf_hs_deal_alerts", "wf_slack_notify"]) {
    envValues.push({
      name: `webhook-${workflowId}`,
      args: {
        definitionId: FIXTURE.definitions.webhookUrl,
        workflowId,
        value: `https://hooks.example.com/${workflowId}/${tag}`,
      },
    });
  }
  envValues.push(
    {
      name: "api-base-url",
      args: { definitionId: FIXTURE.definitions.apiBaseUrl, value: `https://api.example.com/${tag}` },
    },
    { name: "max-retries", args: { definitionId: FIXTURE.definitions.maxRetries, value: numeric(tag, "retries") } },
    { name: "region", args: { definitionId: FIXTURE.definitions.workspaceRegion, value: `region-${tag}` } },
  );
  const events: EventSpec[] = FIXTURE.events.map((eventId, i) => ({
    name: `event-${i + 1}`,
    args: { eventId, name: `event${i + 1}.${tag}`, response: { id: `e_${i}`, nested: { tag, amount: i } } },
  }));
  return { fields, toggles, events, envValues };
}

/** A distinctive number-format value derived from a tag and a salt. */
function numeric(tag: string, salt: string): string {
  let hash = 7;
  for (const c of `${tag}/${salt}`) hash = (hash * 31 + c.charCodeAt(0)) % 1_000_000_007;
  return String(1_000_000_000 + hash);
}

/** How many resources a spec declares. */
export function resourceCount(spec: Spec): number {
  return (
    (spec.fields?.length ?? 0) +
    (spec.toggles?.length ?? 0) +
    (spec.events?.length ?? 0) +
    (spec.envValues?.length ?? 0)
  );
}

/** The placement key of an env value: one value may exist per definition, linked account and workflow. */
export function placement(definitionId: string, linkedAccountId?: string | null, workflowId?: string | null): string {
  return `${definitionId}|${linkedAccountId ?? "-"}|${workflowId ?? "-"}`;
}

/** Write requests (anything but GET) in a list of request log entries. */
export function writesIn(entries: RequestLogEntry[]): RequestLogEntry[] {
  return entries.filter((e) => e.method !== "GET");
}

/** The highest sequence number in the request log so far: pass it to `requests.list(since)`. */
export function logCursor(emulator: RunningEmulator): number {
  const entries = emulator.requests.list();
  return entries.length ? entries[entries.length - 1].seq : 0;
}

/**
 * Asserts, from the store (fault rules never touch it), that the platform holds what `spec`
 * declares and no duplicated env value; `retired` placements are empty again, or back as `before`.
 */
export function assertPlatformMatches(
  state: EmulatorState,
  spec: Spec,
  options: {
    retired?: string[];
    before?: EmulatorState;
    ownValues?: Map<string, Set<string>>;
    values?: Record<string, string>;
  } = {},
): void {
  for (const { name, args } of spec.fields ?? []) {
    const config = state.configs.find(
      (c) => c.linked_account_id === args.linkedAccountId && c.slug === args.slug && c.config_id === args.configId,
    );
    assert.ok(config, `${name}: the config exists`);
    const fields =
      args.workflowId === undefined ? config.fields : config.workflows.find((w) => w.id === args.workflowId)?.fields;
    const field = fields?.find((f) => f.id === args.fieldId);
    assert.ok(field, `${name}: the field holds the managed values`);
    if (args.name !== undefined) assert.equal(field.name, args.name, `${name}: name`);
    if (args.options !== undefined) assert.deepEqual(field.options, args.options, `${name}: options`);
    if (args.labels !== undefined) assert.deepEqual(field.labels, args.labels, `${name}: labels`);
  }
  for (const { name, args } of spec.toggles ?? []) {
    const config = state.configs.find(
      (c) => c.linked_account_id === args.linkedAccountId && c.slug === args.slug && c.config_id === args.configId,
    );
    assert.equal(config?.workflows.find((w) => w.id === args.workflowId)?.enabled, args.enabled, `${name}: enabled`);
  }
  for (const { name, args } of spec.events ?? []) {
    const event = state.events.find((e) => e._id === args.eventId);
    assert.equal(event?.name, args.name, `${name}: event name`);
    assert.deepEqual(JSON.parse(event!.raw_response!), args.response, `${name}: event response`);
  }
  const byPlacement = new Map<string, string[]>();
  for (const v of state.envValues) {
    const key = placement(v.variable_definition_id, v.linked_account_id, v.workflow_id);
    byPlacement.set(key, [...(byPlacement.get(key) ?? []), v.value]);
  }
  const duplicated = [...byPlacement].filter(([, values]) => values.length > 1).map(([key]) => key);
  assert.deepEqual(duplicated, [], "no env value is duplicated");
  for (const { name, args, valueFromConfig } of spec.envValues ?? []) {
    const values = byPlacement.get(placement(args.definitionId, args.linkedAccountId, args.workflowId)) ?? [];
    const expected = valueFromConfig ? options.values?.[valueFromConfig] : args.value;
    // Compared without printing: the values stand for secrets.
    assert.ok(
      values.length === 1 && values[0] === expected,
      `${name}: exactly one env value, equal to the declared one (found ${values.length})`,
    );
  }
  // Back, but which value is not checked: an interrupted create records the killed run's write as
  // "before" (docs/guides/reliability.md, "Known limitations").
  const heldBefore = new Set(
    (options.before?.envValues ?? []).map((v) =>
      placement(v.variable_definition_id, v.linked_account_id, v.workflow_id),
    ),
  );
  // For the same reason the stack's own value (`ownValues`) may be left, never another.
  for (const key of options.retired ?? []) {
    const left = byPlacement.get(key) ?? [];
    if (heldBefore.has(key))
      assert.equal(
        left.length,
        1,
        `the retired placement ${key}, which held a value before the stack, holds one again`,
      );
    else
      assert.ok(
        left.length === 0 || (left.length === 1 && options.ownValues?.get(key)?.has(left[0])),
        `no env value but the stack's own is left at the retired placement ${key}`,
      );
  }
}

/**
 * Asserts that the exported stack lists every declared resource exactly once, nothing else of
 * ours, and no pending operation.
 */
export function assertStateMatches(exported: StackExport, spec: Spec): void {
  const deployment = exported.deployment as StackExport["deployment"] & { pending_operations?: unknown[] };
  assert.deepEqual(deployment.pending_operations ?? [], [], "no pending operation is left in the state");
  const ours = (deployment.resources ?? []).filter((r) => r.type.startsWith(TYPE_PREFIX));
  const urns = ours.map((r) => r.urn);
  assert.equal(new Set(urns).size, urns.length, "every resource is listed once");
  const expected = [
    ...(spec.fields ?? []).map((r) => `${TYPE("ConfigField")}::${r.name}`),
    ...(spec.toggles ?? []).map((r) => `${TYPE("WorkflowToggle")}::${r.name}`),
    ...(spec.events ?? []).map((r) => `${TYPE("ApplicationEvent")}::${r.name}`),
    ...(spec.envValues ?? []).map((r) => `${TYPE("EnvVariableValue")}::${r.name}`),
  ].sort();
  assert.deepEqual(
    ours.map((r) => `${r.type}::${r.urn.split("::").pop()}`).sort(),
    expected,
    "the state lists exactly the declared resources",
  );
}

/**
 * The documented recovery after a killed `pulumi up` (docs/guides/reliability.md): remove empty
 * `*.attrs` sidecars, then cancel, refresh --clear-pending-creates, up. `inspect` sees the state
 * the kill left. Returns the sidecars removed and each command's output.
 */
export async function recoverInterruptedUp(
  stack: Stack,
  backendDir: string,
  inspect?: (exported: StackExport) => void,
): Promise<{ repairedSidecars: string[]; outputs: string[] }> {
  const repairedSidecars = emptySidecars(path.join(backendDir, ".pulumi"));
  for (const file of repairedSidecars) fs.rmSync(file);
  if (inspect) inspect(await stack.exportState());
  const outputs: string[] = [];
  for (const args of [
    ["cancel", "--yes"],
    ["refresh", "--yes", "--skip-preview", "--clear-pending-creates"],
    ["up", "--yes", "--skip-preview"],
  ]) {
    const result = await stack.ok(args);
    outputs.push(result.stdout + result.stderr);
  }
  return { repairedSidecars, outputs };
}

/** Whether the file backend holds a lock of any stack (a command is running, or was killed). */
export function lockHeld(backendDir: string): boolean {
  const locks = path.join(backendDir, ".pulumi", "locks");
  return fs.existsSync(locks) && fs.readdirSync(locks, { recursive: true }).some((f) => String(f).endsWith(".json"));
}

/** Zero-byte `.attrs` sidecars under a directory: always corrupt, since a valid one holds JSON. */
function emptySidecars(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name.endsWith(".attrs") && fs.statSync(file).size === 0) found.push(file);
  }
  return found;
}

/** Polls until `condition` holds; fails after `timeoutMs` with `what`. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

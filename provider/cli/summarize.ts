// The change summary of a pull request: reads what `pulumi preview --json` prints and writes
// Markdown that says, per linked account and app, which platform objects change and how.
//
// What the preview JSON holds was read off the real CLI (v3.259), not guessed:
//   - `steps[]` with `op`, `urn`, `oldState`/`newState` (`type`, `inputs`, `outputs`,
//     `additionalSecretOutputs`) and `replaceReasons`. Dynamic providers cannot report
//     `diffReasons` or a `detailedDiff` (the Node host drops them), so the changed properties are
//     found here by comparing the old and the new inputs.
//   - Secret values appear as the string "[secret]", even with --show-secrets; a state file's
//     secret signature object is recognised too. Neither is ever printed, nor is anything inside.
//   - With --show-replacement-steps a replace is three steps on one URN; they are merged.
//   - Values not known until `up` are the engine's unknown sentinel.
//   - `diagnostics[]` messages can quote a secret input (the engine formats the property's value
//     into check failures), so only their count and resource names are printed.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { TYPE_PREFIX as RESOURCE_TYPE_PREFIX } from "../bridge/program";
import { ApplicationEventProperties } from "../resources/applicationEvent";
import { ConfigFieldProperties } from "../resources/configField";
import { EnvVariableValueProperties } from "../resources/envVariableValue";
import { containsUnknown } from "../resources/lifecycle";
import type { AnyProperties } from "../resources/properties";
import { WorkflowToggleProperties } from "../resources/workflowToggle";
/** Types that carry no platform object of their own: the stack, providers, our component. */
const SILENT_TYPES = [/^pulumi:pulumi:Stack$/, /^pulumi:providers:/, /^integration-platform:index:LinkedAccountSetup$/];
/** The key of the object that marks a secret in Pulumi's state format. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
/** How `pulumi preview --json` shows a secret value. */
const MASKED_SECRET = "[secret]";

const PreviewState = z.looseObject({
  type: z.string(),
  inputs: z.record(z.string(), z.unknown()).nullish(),
  outputs: z.record(z.string(), z.unknown()).nullish(),
  additionalSecretOutputs: z.array(z.string()).nullish(),
});

const PreviewStep = z.looseObject({
  op: z.string(),
  urn: z.string().startsWith("urn:pulumi:", "must be a Pulumi URN"),
  oldState: PreviewState.nullish(),
  newState: PreviewState.nullish(),
  replaceReasons: z.array(z.string()).nullish(),
});

/** The parts of `pulumi preview --json` output that the summary reads. */
export const PreviewJson = z.looseObject({
  steps: z.array(PreviewStep),
  changeSummary: z.record(z.string(), z.number()).nullish(),
  diagnostics: z.array(z.looseObject({ urn: z.string().nullish(), severity: z.string().nullish() })).nullish(),
});
/** Parsed `pulumi preview --json` output. */
export type PreviewJson = z.infer<typeof PreviewJson>;
type PreviewState = z.infer<typeof PreviewState>;
type PreviewStep = z.infer<typeof PreviewStep>;

/** The input is not the output of `pulumi preview --json`; the message names the first problems. */
export class PreviewJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PreviewJsonError";
  }
}

/** Validates parsed JSON as preview output, or throws a PreviewJsonError naming each bad path. */
export function parsePreview(data: unknown): PreviewJson {
  const parsed = PreviewJson.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "");
    return `${where || "(the whole document)"}: ${issue.message}`;
  });
  throw new PreviewJsonError(`not the output of \`pulumi preview --json\`: ${problems.join("; ")}`);
}

/** How a step changes its object, in the words `pulumi preview` uses. */
type Kind = "create" | "update" | "replace" | "delete";
const KIND_OF_OP: Record<string, Kind> = {
  create: "create",
  import: "create",
  update: "update",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  "import-replacement": "replace",
  delete: "delete",
};
/** Steps that change nothing on the platform. */
const NO_CHANGE_OPS = new Set(["same", "read", "refresh", "read-replacement", "remove-pending-replace"]);
const KIND_ORDER = ["create", "update", "replace", "delete"];

/** One resource's change, its steps merged. `kind` is an op we do not know when it is not a Kind. */
interface Change {
  kind: Kind | string;
  name: string;
  type: string;
  old?: PreviewState;
  new?: PreviewState;
  replaceReasons: string[];
}

type Props = Record<string, unknown>;

/** What the summary knows of each resource type: how to name its object and what delete does. */
interface ObjectKind {
  /** Sorts fields before workflows before env values before events. */
  order: number;
  /** Properties that address the platform object: resources with equal values manage the same one. */
  identity: string[];
  /** Other properties the title shows; with the identity, not repeated when the object is created. */
  titled?: string[];
  /** Properties the provider adds at preview: not the user's words, so never listed. */
  derived: string[];
  /** Properties that are secret whatever the JSON says. */
  secret: string[];
  /** The object, e.g. "field `hs_pipeline` of workflow `wf_x`". */
  title(inputs: Props, outputs: Props): string;
  /** What deleting the resource does to the platform object. */
  release(inputs: Props, outputs: Props): string;
}

/** What a kind takes from its resource's one declaration of its properties (resources/properties.ts). */
function declared(properties: AnyProperties): Pick<ObjectKind, "identity" | "derived" | "secret"> {
  return { identity: [...properties.identity], derived: [...properties.derived], secret: properties.secret.map(String) };
}

const KINDS: Record<string, ObjectKind> = {
  ConfigField: {
    order: 0,
    ...declared(ConfigFieldProperties),
    title: (i) =>
      `field ${showId(i.fieldId)}${i.workflowId !== undefined ? ` of workflow ${showId(i.workflowId)}` : ""}` +
      (i.configId !== undefined && i.configId !== i.linkedAccountId ? ` in config ${showId(i.configId)}` : ""),
    release: (i, o) => {
      // Delete puts back what each managed property held before the stack took it over;
      // options and labels with nothing recorded go back to empty (see ConfigField's delete).
      const previous = isRecord(o.previous) ? o.previous : {};
      const restored = ConfigFieldProperties.settings
        .filter((key) => i[key] !== undefined && (key !== "name" || previous.name !== undefined))
        .map((key) => `${code(key)} goes back to ${show(previous[key] ?? [])}`);
      return restored.length > 0 ? restored.join(", ") : "the field keeps its current values";
    },
  },
  WorkflowToggle: {
    order: 1,
    ...declared(WorkflowToggleProperties),
    title: (i, o) => `workflow ${showId(i.workflowId)}${typeof o.workflowName === "string" && o.workflowName ? ` (${escape(o.workflowName)})` : ""}`,
    release: (i, o) =>
      typeof o.previousEnabled === "boolean" && o.previousEnabled !== i.enabled
        ? `${code("enabled")} goes back to ${show(o.previousEnabled)}`
        : `the workflow stays ${i.enabled === true ? "enabled" : "disabled"}`,
  },
  EnvVariableValue: {
    order: 2,
    ...declared(EnvVariableValueProperties),
    title: (i) =>
      `env value of definition ${showId(i.definitionId)}${i.workflowId !== undefined ? ` for workflow ${showId(i.workflowId)}` : ""}` +
      (typeof i.scope === "string" ? `, scope ${code(i.scope)}` : ""),
    release: () => "the value is deleted from the platform",
  },
  ApplicationEvent: {
    order: 3,
    ...declared(ApplicationEventProperties),
    titled: ["name"],
    title: (i) => `event ${i.name !== undefined ? `${showId(i.name)} ` : ""}(id ${showId(i.eventId)})`,
    release: (i) =>
      isRecord(i.restoreOnDelete)
        ? `the event goes back to ${code("restoreOnDelete")}`
        : `the event keeps its last declared name and response (no ${code("restoreOnDelete")})`,
  },
};

/** A platform type this version does not know yet: still listed, with every input shown. */
const UNKNOWN_KIND: ObjectKind = {
  order: 4,
  identity: [],
  derived: [],
  secret: [],
  title: () => "object",
  release: () => "the stack stops managing it",
};

/** Renders preview JSON (already parsed from text) as a Markdown change summary; pure. */
export function summarize(data: unknown): string {
  const preview = parsePreview(data);
  const changes = mergeSteps(preview.steps);
  const ours = changes.filter((c) => c.type.startsWith(RESOURCE_TYPE_PREFIX));
  const others = changes.filter((c) => !c.type.startsWith(RESOURCE_TYPE_PREFIX) && !SILENT_TYPES.some((t) => t.test(c.type)));

  const lines = ["## Integration platform changes", ""];
  const errors = (preview.diagnostics ?? []).filter((d) => d.severity === "error");
  if (errors.length > 0) {
    const names = [...new Set(errors.map((d) => (d.urn ? resourceName(d.urn) : "")).filter(Boolean))].sort();
    lines.push(
      `> **The preview failed** with ${plural(errors.length, "error")}${names.length ? ` (${names.map(code).join(", ")})` : ""}. ` +
        "The changes below are incomplete; the preview's log has the messages.",
      "",
    );
  }
  lines.push(countLine(ours), "");
  const clashing = clashes(ours);
  if (clashing.length > 0) {
    lines.push(
      "> **Warning: an object changes hands.** In each pair below one resource releases a platform object that another takes over in the " +
        "same update. The provider leaves the object to the new resource, but the new one records the values it finds (the old one's) as " +
        "what to restore on delete, so the original values are forgotten:",
      ">",
      ...clashing.map((line) => `> - ${line}`),
      ">",
      "> A rename is the usual cause: give the new resource `aliases` naming its old name (it then stays the same resource), and preview again.",
      "",
    );
  }

  const groups = new Map<string, Map<string, Change[]>>();
  for (const change of ours) {
    const [group, section] = placeOf(change);
    if (!groups.has(group)) groups.set(group, new Map());
    const sections = groups.get(group)!;
    sections.set(section, [...(sections.get(section) ?? []), change]);
  }
  for (const group of [...groups.keys()].sort(compareGroups)) {
    lines.push(`### ${group}`, "");
    const sections = groups.get(group)!;
    for (const section of [...sections.keys()].sort(compareSections)) {
      lines.push(`#### ${section}`, "");
      for (const change of sections.get(section)!.sort(compareChanges)) lines.push(...describe(change));
      lines.push("");
    }
  }
  if (others.length > 0) {
    lines.push("### Other resources", "");
    for (const change of others.sort(compareChanges)) lines.push(`- **${change.kind}** ${code(change.type)} ${code(change.name)}`);
    lines.push("");
  }
  lines.push("Secret values are never shown. Made by `pulumi-integration-platform summarize` from `pulumi preview --json`.");
  return lines.join("\n") + "\n";
}

/**
 * Platform objects that one resource releases (delete, or the old side of a replace) while another
 * takes them over (create, or the new side of a replace) in the same update. The provider keeps the
 * release from undoing the takeover, but the original values to restore are lost. A resource
 * renamed without `aliases` does exactly this.
 */
function clashes(changes: Change[]): string[] {
  const objectKey = (change: Change, inputs: Props | null | undefined) => {
    const identity = kindOf(change).identity;
    if (!inputs || identity.length === 0 || identity.some((p) => containsUnknown(inputs[p]) || containsSecret(inputs[p]))) return undefined;
    return JSON.stringify([change.type, ...identity.map((p) => inputs[p] ?? null)]);
  };
  const released = new Map<string, Change>();
  for (const change of changes) {
    const key = change.kind === "delete" || change.kind === "replace" ? objectKey(change, change.old?.inputs) : undefined;
    if (key) released.set(key, change);
  }
  const found: string[] = [];
  for (const taker of changes.filter((c) => c.kind === "create" || c.kind === "replace").sort(compareChanges)) {
    const inputs = taker.new?.inputs ?? {};
    const releaser = released.get(objectKey(taker, inputs) ?? "");
    if (!releaser || releaser === taker) continue;
    const account = inputs.linkedAccountId !== undefined ? `, linked account ${showId(inputs.linkedAccountId)}` : "";
    found.push(`${kindOf(taker).title(inputs, {})}${account}: ${code(releaser.name)} releases it, ${code(taker.name)} takes it over`);
  }
  return found;
}

/** One Change per URN: a replace shown as several steps becomes one. */
function mergeSteps(steps: PreviewStep[]): Change[] {
  const byUrn = new Map<string, Change>();
  for (const step of steps) {
    if (NO_CHANGE_OPS.has(step.op)) continue;
    const kind = KIND_OF_OP[step.op] ?? step.op;
    const known = byUrn.get(step.urn);
    const change: Change = known ?? { kind, name: resourceName(step.urn), type: typeOf(step), replaceReasons: [] };
    if (kind === "replace") change.kind = "replace";
    change.old ??= step.oldState ?? undefined;
    // A delete-replaced step's "new" side does not exist; the replacement's newState is the new object.
    if (step.op !== "delete-replaced") change.new ??= step.newState ?? undefined;
    if (step.replaceReasons?.length) change.replaceReasons = step.replaceReasons;
    byUrn.set(step.urn, change);
  }
  return [...byUrn.values()];
}

function typeOf(step: PreviewStep): string {
  const stated = step.newState?.type ?? step.oldState?.type;
  if (stated) return stated;
  // The URN's type part lists parent types too, separated by `$`; the last one is the resource's.
  return step.urn.split("::")[2]?.split("$").pop() ?? "";
}

function resourceName(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

function kindOf(change: Change): ObjectKind {
  return KINDS[change.type.slice(RESOURCE_TYPE_PREFIX.length)] ?? UNKNOWN_KIND;
}

const SHARED = "Not tied to a linked account";

/** The group (linked account) and section (app, env values, events) a change is listed under. */
function placeOf(change: Change): [string, string] {
  const inputs = (change.new ?? change.old)?.inputs ?? {};
  const type = change.type.slice(RESOURCE_TYPE_PREFIX.length);
  const account = inputs.linkedAccountId;
  const group = account === undefined ? SHARED : `Linked account ${showId(account)}`;
  if (type === "ApplicationEvent") return [group, "Application events"];
  if (type === "EnvVariableValue") return [group, account === undefined ? "Env values (org, workspace and workflow scope)" : "Env values"];
  return [group, inputs.slug !== undefined ? `App ${showId(inputs.slug)}` : "Other objects"];
}

function compareGroups(a: string, b: string): number {
  return Number(a === SHARED) - Number(b === SHARED) || a.localeCompare(b);
}

function compareSections(a: string, b: string): number {
  return Number(!a.startsWith("App ")) - Number(!b.startsWith("App ")) || a.localeCompare(b);
}

function compareChanges(a: Change, b: Change): number {
  const order = (c: Change) => (c.type.startsWith(RESOURCE_TYPE_PREFIX) ? kindOf(c).order : 0);
  return order(a) - order(b) || rank(a.kind) - rank(b.kind) || a.name.localeCompare(b.name);
}

/** Creates first, deletes last, ops we do not know after them. */
function rank(kind: string): number {
  const at = KIND_ORDER.indexOf(kind);
  return at < 0 ? KIND_ORDER.length : at;
}

function countLine(changes: Change[]): string {
  if (changes.length === 0) return "No changes to integration platform objects.";
  const counts = new Map<string, number>();
  for (const change of changes) counts.set(change.kind, (counts.get(change.kind) ?? 0) + 1);
  const parts = [...counts.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([kind, n]) => `${n} to ${kind}`);
  const accounts = new Set(changes.map((c) => (c.new ?? c.old)?.inputs?.linkedAccountId).filter((a) => a !== undefined).map(showId));
  const who = accounts.size > 0 ? ` for ${plural(accounts.size, "linked account")}: ${[...accounts].sort().join(", ")}` : "";
  return `${plural(changes.length, "change")} to integration platform objects (${parts.join(", ")})${who}.`;
}

/** The bullet of one change, with one sub-bullet per changed property. */
function describe(change: Change): string[] {
  const kind = kindOf(change);
  const oldInputs = change.old?.inputs ?? {};
  const newInputs = change.new?.inputs ?? {};
  const oldOutputs = change.old?.outputs ?? {};
  const secret = new Set([...kind.secret, ...(change.old?.additionalSecretOutputs ?? []), ...(change.new?.additionalSecretOutputs ?? [])]);
  const hidden = new Set(["__provider", ...kind.derived]);
  // The old outputs describe the new object only when it is the same one: an update.
  const head =
    change.kind === "delete" || !change.new
      ? `- **${change.kind}** ${kind.title(oldInputs, oldOutputs)}: resource ${code(change.name)}`
      : `- **${change.kind}** ${kind.title(newInputs, change.kind === "update" ? oldOutputs : {})}: resource ${code(change.name)}`;
  const details: string[] = [];

  if (change.kind === "create") {
    const listed = Object.keys(newInputs).filter((key) => !hidden.has(key) && !kind.identity.includes(key) && !kind.titled?.includes(key)).sort();
    for (const key of listed) details.push(`${code(key)}: ${secret.has(key) || containsSecret(newInputs[key]) ? "set (secret, not shown)" : show(newInputs[key])}`);
  } else if (change.kind === "update" || change.kind === "replace") {
    const found = propertyChanges(oldInputs, newInputs, hidden, secret);
    for (const { path, text } of found.visible) {
      details.push(`${code(path)}: ${text}${change.replaceReasons.includes(path) ? " (replaces)" : ""}`);
    }
    // Masked secrets cannot be compared; an update that changes nothing visible must change them.
    if (change.kind === "update" && found.visible.length === 0) {
      for (const key of found.masked) details.push(`${code(key)}: changes (secret, not shown)`);
    }
    if (change.kind === "replace" && change.old) details.push(`the old ${kind.title(oldInputs, oldOutputs)} is released: ${kind.release(oldInputs, oldOutputs)}`);
  } else if (change.kind === "delete") {
    details.push(kind.release(oldInputs, oldOutputs));
  }
  return [head, ...details.map((d) => `  - ${d}`)];
}

/** Changed properties as `path: old → new`; nested objects by dot path, lists by added and removed entries. */
function propertyChanges(olds: Props, news: Props, hidden: Set<string>, secret: Set<string>) {
  const visible: { path: string; text: string }[] = [];
  const masked: string[] = [];
  const walk = (a: Props, b: Props, prefix: string) => {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const path = prefix + key;
      if (!prefix && hidden.has(key)) continue;
      const [before, after] = [a[key], b[key]];
      if ((!prefix && secret.has(key)) || containsSecret(before) || containsSecret(after)) {
        // Values masked on both sides cannot be compared; plaintext (a state file) can, but is never shown.
        if (isMasked(before) && isMasked(after)) masked.push(path);
        else if (!isDeepStrictEqual(before, after)) visible.push({ path, text: "changes (secret, not shown)" });
      } else if (isRecord(before) && isRecord(after) && !containsUnknown(after)) {
        walk(before, after, `${path}.`);
      } else if (Array.isArray(before) && Array.isArray(after) && !containsUnknown(after)) {
        if (!isDeepStrictEqual(before, after)) visible.push({ path, text: listChange(before, after) });
      } else if (!isDeepStrictEqual(before, after)) {
        visible.push({ path, text: `${show(before)} → ${show(after)}` });
      }
    }
  };
  walk(olds, news, "");
  return { visible, masked };
}

/** Entries added and removed, or the whole list when only the order changed. */
function listChange(before: unknown[], after: unknown[]): string {
  const missingFrom = (list: unknown[], from: unknown[]) => {
    const pool = [...from];
    return list.filter((item) => {
      const at = pool.findIndex((other) => isDeepStrictEqual(item, other));
      if (at < 0) return true;
      pool.splice(at, 1);
      return false;
    });
  };
  const added = missingFrom(after, before);
  const removed = missingFrom(before, after);
  const parts = [];
  if (added.length) parts.push(`adds ${added.map(show).join(", ")}`);
  if (removed.length) parts.push(`removes ${removed.map(show).join(", ")}`);
  return parts.length ? parts.join("; ") : `order changes: ${show(before)} → ${show(after)}`;
}

function isRecord(value: unknown): value is Props {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isMasked(value: unknown): boolean {
  return value === MASKED_SECRET || (isRecord(value) && SECRET_SIGNATURE in value);
}

function containsSecret(value: unknown): boolean {
  if (isMasked(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  return isRecord(value) && Object.values(value).some(containsSecret);
}


/** A value as compact JSON in a code span; secrets and unknowns as words. */
function show(value: unknown): string {
  if (value === undefined) return "(none)";
  if (containsSecret(value)) return "(secret, not shown)";
  if (containsUnknown(value)) return "(known after `up`)";
  return code(JSON.stringify(value));
}

/** An id as a code span, without JSON quotes (it is always a string). */
function showId(value: unknown): string {
  if (containsSecret(value)) return "(secret)";
  if (containsUnknown(value)) return "(known after `up`)";
  return code(typeof value === "string" ? value : JSON.stringify(value));
}

/** A Markdown code span that holds any text, backticks included (CommonMark 6.1). */
function code(value: unknown): string {
  const text = (typeof value === "string" ? value : JSON.stringify(value) ?? "").replace(/\s*\n\s*/g, " ");
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Plain text safe in Markdown: characters that start formatting are escaped. */
function escape(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

// The change summary of a pull request: reads what `pulumi preview --json` prints and writes
// Markdown that says, per linked account and app, which platform objects change and how. Each
// linked account is one folded block, so that a summary too long for a pull request comment can
// leave out whole accounts, never part of one, and say how many it left out.
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
//   - With --refresh, each resource first has a `refresh` step; the steps after it compare the
//     refreshed state (what the platform holds) with the program. That is what `--drift` reports.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { printable } from "./text";
import { TYPE_PREFIX as RESOURCE_TYPE_PREFIX } from "../provider/bridge/program";
import { ApplicationEventProperties } from "../provider/resources/applicationEvent";
import { ConfigFieldProperties, MANAGED } from "../provider/resources/configField";
import { EnvVariableValueProperties } from "../provider/resources/envVariableValue";
import { containsUnknown } from "../provider/resources/lifecycle";
import type { AnyProperties } from "../provider/resources/properties";
import { WorkflowToggleProperties } from "../provider/resources/workflowToggle";
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

/**
 * Several stacks' previews as one (the shards of one program, docs/guides/scaling.md): their steps,
 * change counts and diagnostics together, so that one summary covers every stack.
 */
export function mergePreviews(previews: PreviewJson[]): PreviewJson {
  if (previews.length === 1) return previews[0];
  const changeSummary: Record<string, number> = {};
  for (const preview of previews) for (const [op, n] of Object.entries(preview.changeSummary ?? {})) changeSummary[op] = (changeSummary[op] ?? 0) + n;
  return {
    steps: previews.flatMap((preview) => preview.steps),
    changeSummary,
    diagnostics: previews.flatMap((preview) => preview.diagnostics ?? []),
  };
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
      // A declared restoreOnDelete is put back as declared (see ConfigField's delete).
      if (isRecord(i.restoreOnDelete)) {
        const declared = Object.entries(i.restoreOnDelete).map(([key, value]) => `${code(key)} goes back to ${show(value)} (${code("restoreOnDelete")})`);
        return declared.length > 0 ? declared.join(", ") : "the field keeps its current values";
      }
      // Otherwise delete puts back what each managed property held before the stack took it over;
      // options and labels with nothing recorded go back to empty.
      const previous = isRecord(o.previous) ? o.previous : {};
      const restored = MANAGED
        .filter((key) => i[key] !== undefined && (key !== "name" || previous.name !== undefined))
        .map((key) => `${code(key)} goes back to ${show(previous[key] ?? [])}`);
      return restored.length > 0 ? restored.join(", ") : "the field keeps its current values";
    },
  },
  WorkflowToggle: {
    order: 1,
    ...declared(WorkflowToggleProperties),
    title: (i, o) => `workflow ${showId(i.workflowId)}${typeof o.workflowName === "string" && o.workflowName ? ` (${escape(o.workflowName)})` : ""}`,
    release: (i, o) => {
      const declared = typeof i.restoreOnDelete === "boolean";
      const restore = declared ? i.restoreOnDelete : o.previousEnabled;
      return typeof restore === "boolean" && restore !== i.enabled
        ? `${code("enabled")} goes back to ${show(restore)}${declared ? ` (${code("restoreOnDelete")})` : ""}`
        : `the workflow stays ${i.enabled === true ? "enabled" : "disabled"}`;
    },
  },
  EnvVariableValue: {
    order: 2,
    ...declared(EnvVariableValueProperties),
    title: (i) =>
      `env value of definition ${showId(i.definitionId)}${i.workflowId !== undefined ? ` for workflow ${showId(i.workflowId)}` : ""}` +
      (typeof i.scope === "string" ? `, scope ${code(i.scope)}` : ""),
    // The order of EnvVariableValue's delete; the values themselves are secrets and never shown.
    release: (i, o) =>
      i.restoreOnDelete !== undefined
        ? `the value is set to ${code("restoreOnDelete")}`
        : o.previousValue !== undefined
          ? "the value it replaced is put back"
          : o.foundExisting === true
            ? "the value stays on the platform (it replaced an encrypted value that could not be read)"
            : "the value is deleted from the platform",
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

/** The default bound of `summarize`'s output: GitHub refuses a comment over 65,536 characters, and the comment action adds a marker. */
export const DEFAULT_MAX_CHARS = 60_000;
/** The smallest bound accepted: the title, the count line and the closing line need this much room. */
export const MIN_MAX_CHARS = 1_000;
/** How many names a count, failure or warning line lists before "and N more": enough to recognise, short enough to bound. */
const NAMES_LISTED = 10;

/** What a report is about: the changes a pull request makes, or the drift a scheduled check finds. */
export type ReportMode = "changes" | "drift";

/** The words of each report, so the drift report reads as one and not as a list of changes. */
interface Words {
  title: string;
  /** The noun counted: "change", "drifted object". */
  noun: string;
  /** A change's kind as a bullet's label. */
  label(kind: string): string;
  /** "3 to create" or "3 missing". */
  count(n: number, kind: string): string;
  none: string;
  footer: string;
}

/** Drift, in the words of what the platform holds: `up` would make each of these a change. */
const DRIFT_LABELS: Record<string, string> = { update: "changed", create: "missing", replace: "changed (replaces)", delete: "not declared" };

const WORDS: Record<ReportMode, Words> = {
  changes: {
    title: "Integration platform changes",
    noun: "change",
    label: (kind) => kind,
    count: (n, kind) => `${n} to ${kind}`,
    none: "No changes to integration platform objects.",
    footer: "Secret values are never shown. Made by `pulumi-integration-platform summarize` from `pulumi preview --json`.",
  },
  drift: {
    title: "Integration platform drift",
    noun: "drifted object",
    label: (kind) => DRIFT_LABELS[kind] ?? kind,
    count: (n, kind) => `${n} ${DRIFT_LABELS[kind] ?? kind}`,
    none: "No drift: the platform holds what the program declares, for every object it could read.",
    footer:
      "Secret values are never shown. Made by `pulumi-integration-platform summarize --drift` from `pulumi preview --refresh --json`. " +
      "To put back what the program declares, run `pulumi up --refresh`; to keep what the platform holds, change the program to match it.",
  },
};

/** Where the full summary can be read, named by the closing line of a bounded one. */
export interface FullSummaryAt {
  /** An http(s) address, e.g. the CI run's page, which shows the step summary and the artifacts. */
  link?: string;
  /** The file the full summary is written to. */
  file?: string;
}

/** What a bounded summary leaves out, as its closing line says. */
export interface LeftOut {
  /** Linked accounts whose block is left out. */
  linkedAccounts: number;
  /** The changes of those linked accounts. */
  accountChanges: number;
  /** Changes not tied to a linked account, when their block is left out. */
  sharedChanges: number;
  /** Changes of other providers' resources, when their block is left out. */
  otherChanges: number;
}

/** A bounded summary and the full one it is cut from. */
export interface Summaries {
  /** At most the bound's characters: the header and whole blocks, with a closing line naming what is left out. */
  bounded: string;
  /** Every change: what `summarize` returns. */
  full: string;
  /** What `bounded` leaves out: all zero when it equals `full`. */
  leftOut: LeftOut;
  /** The changes (or drifted objects) listed: of this package's resources and of others. */
  changes: number;
  /** Errors the preview reported: when there are any, the list of changes is incomplete. */
  errors: number;
}

/** One `<details>` block: a linked account's changes, the changes tied to none, or other providers' resources. */
interface Block {
  kind: "account" | "shared" | "other";
  /** Markdown from `<details>` to `</details>`, ending with a newline. */
  text: string;
  changes: number;
}

/** The summary in pieces, each ending with a newline; joined with blank lines between them. */
interface Layout {
  /** The title, a failed preview's warning, the count line and the clash warning with every clash. */
  head: string;
  /** The same with at most NAMES_LISTED clashes: the head of a bounded summary. */
  shortHead: string;
  /** The title and the count line without names: the head when nothing else fits. */
  minimalHead: string;
  blocks: Block[];
  changes: number;
  errors: number;
  words: Words;
}

/** Renders preview JSON (already parsed from text) as the full Markdown change summary, or drift report; pure. */
export function summarize(data: unknown, mode: ReportMode = "changes"): string {
  const { head, blocks, words } = layout(parsePreview(data), mode);
  return join([head, ...blocks.map((b) => b.text), words.footer + "\n"]);
}

/**
 * Renders preview JSON as a change summary of at most `maxChars` characters (JavaScript string
 * length: UTF-16 code units, never fewer than the Unicode characters), and the full one; pure. When the full
 * one is longer, whole blocks are left out, never part of one: first linked accounts from the end
 * of the list, then the changes tied to no account and other providers' resources, which concern
 * everyone. The head stays (its clash warning shortened), and a closing line says how many linked
 * accounts and changes are left out and where the full summary is.
 */
export function summarizeBounded(data: unknown, maxChars: number = DEFAULT_MAX_CHARS, fullAt: FullSummaryAt = {}, mode: ReportMode = "changes"): Summaries {
  if (!Number.isSafeInteger(maxChars) || maxChars < MIN_MAX_CHARS) {
    throw new RangeError(`maxChars must be a whole number of at least ${MIN_MAX_CHARS}; got ${maxChars}`);
  }
  if (fullAt.link !== undefined) fullSummaryLink(fullAt.link);
  const parts = layout(parsePreview(data), mode);
  const { words, changes, errors } = parts;
  const footer = words.footer;
  const full = join([parts.head, ...parts.blocks.map((b) => b.text), footer + "\n"]);
  const none: LeftOut = { linkedAccounts: 0, accountChanges: 0, sharedChanges: 0, otherChanges: 0 };
  if (full.length <= maxChars) return { bounded: full, full, leftOut: none, changes, errors };

  // The closing line's length grows with its numbers: reserve it for the worst case, everything left out.
  const everything = leftOutOf(parts.blocks);
  const reserve = closingLine(everything, maxChars, fullAt, words).length + 1;
  let room = maxChars - join([parts.shortHead, footer + "\n"]).length - reserve;
  const kept = new Set<Block>();
  const keep = (block: Block) => {
    if (block.text.length + 1 > room) return false;
    kept.add(block);
    room -= block.text.length + 1;
    return true;
  };
  for (const block of parts.blocks) if (block.kind !== "account") keep(block);
  // Accounts in list order, stopping at the first that does not fit, so "N more" are the last N.
  for (const block of parts.blocks) if (block.kind === "account" && !keep(block)) break;
  const leftOut = leftOutOf(parts.blocks.filter((b) => !kept.has(b)));
  const bounded = join([parts.shortHead, ...parts.blocks.filter((b) => kept.has(b)).map((b) => b.text), footer + "\n", closingLine(leftOut, maxChars, fullAt, words) + "\n"]);
  if (bounded.length <= maxChars) return { bounded, full, leftOut, changes, errors };

  // A head too long for the bound (many long names): the title, the counts and the closing line alone.
  for (const at of [fullAt, undefined]) {
    const minimal = join([parts.minimalHead, footer + "\n", closingLine(everything, maxChars, at, words) + "\n"]);
    if (minimal.length <= maxChars) return { bounded: minimal, full, leftOut: everything, changes, errors };
  }
  throw new Error(`the summary's closing lines alone exceed ${maxChars} characters; this is a bug, please report it`);
}

/** An http(s) address as a Markdown link target, or a RangeError saying what to pass instead. */
export function fullSummaryLink(address: string): string {
  let url: URL | undefined;
  try {
    url = new URL(address);
  } catch {
    // Reported below, with the same advice as a scheme that is not http(s).
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new RangeError(`${JSON.stringify(address)} is not an http(s) address: give an absolute URL, e.g. the CI run's page`);
  }
  // A parenthesis would end the Markdown link target early; the URL parser already encoded spaces and angle brackets.
  return url.href.replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29"));
}

/** Joins pieces that each end with a newline, with a blank line between them. */
function join(pieces: string[]): string {
  return pieces.join("\n");
}

function leftOutOf(blocks: Block[]): LeftOut {
  const sum = (kind: Block["kind"]) => blocks.filter((b) => b.kind === kind).reduce((n, b) => n + b.changes, 0);
  return { linkedAccounts: blocks.filter((b) => b.kind === "account").length, accountChanges: sum("account"), sharedChanges: sum("shared"), otherChanges: sum("other") };
}

/** "… and N more linked accounts (M changes)": what a bounded summary leaves out, and where to read it. */
function closingLine(left: LeftOut, maxChars: number, fullAt: FullSummaryAt | undefined, words: Words): string {
  const parts: string[] = [];
  if (left.linkedAccounts > 0) parts.push(`${plural(left.linkedAccounts, "more linked account")} (${plural(left.accountChanges, words.noun)})`);
  if (left.sharedChanges > 0) parts.push(`${plural(left.sharedChanges, words.noun)} not tied to a linked account`);
  if (left.otherChanges > 0) parts.push(`${plural(left.otherChanges, words.noun)} of other resources`);
  const where = !fullAt
    ? ""
    : fullAt.link
      ? ` [The full summary](${fullSummaryLink(fullAt.link)}) lists every change.`
      : fullAt.file
        ? ` The full summary, with every change, is in ${code(fullAt.file)}.`
        : ` Run \`pulumi-integration-platform summarize${words === WORDS.drift ? " --drift" : ""} --full <file>\` to write the full summary to a file.`;
  return `**… and ${parts.join(", and ")}** are left out here, to keep this summary within ${maxChars} characters.${where}`;
}

/** Cuts a preview's changes into the head and one block per group. */
function layout(preview: PreviewJson, mode: ReportMode): Layout {
  const words = WORDS[mode];
  const changes = mergeSteps(preview.steps);
  const ours = changes.filter((c) => c.type.startsWith(RESOURCE_TYPE_PREFIX));
  const others = changes.filter((c) => !c.type.startsWith(RESOURCE_TYPE_PREFIX) && !SILENT_TYPES.some((t) => t.test(c.type)));
  if (mode === "drift") requireRefresh(preview.steps);

  const title = titleOf(preview.steps, words);
  const top = [title, ""];
  const errors = (preview.diagnostics ?? []).filter((d) => d.severity === "error");
  if (errors.length > 0) {
    const names = [...new Set(errors.map((d) => (d.urn ? resourceName(d.urn) : "")).filter(Boolean))].sort();
    top.push(
      `> **The preview failed** with ${plural(errors.length, "error")}${names.length ? ` (${listed(names.map(code))})` : ""}. ` +
        `The ${words === WORDS.drift ? "drift" : "changes"} below ${words === WORDS.drift ? "is" : "are"} incomplete; the preview's log has the messages.`,
      "",
    );
  }
  top.push(countLine(ours, true, words), "");
  if (mode === "drift") top.push(...notChecked(preview.steps));
  // A drift report compares the platform with the program; a takeover is a pull request's concern.
  const clashing = mode === "drift" ? [] : clashes(ours);
  const warning = (shown: string[]) =>
    shown.length === 0
      ? []
      : [
          "> **Warning: an object changes hands.** In each pair below one resource releases a platform object that another takes over in the " +
            "same update. The provider leaves the object to the new resource, but the new one records the values it finds (the old one's) as " +
            "what to restore on delete, so the original values are forgotten:",
          ">",
          ...shown.map((line) => `> - ${line}`),
          ...(shown.length < clashing.length ? [`> - … and ${clashing.length - shown.length} more, left out here to keep this summary short`] : []),
          ">",
          "> A rename is the usual cause: give the new resource `aliases` naming its old name (it then stays the same resource), and preview again.",
          "",
        ];

  const groups = new Map<string, { account: unknown; sections: Map<string, Change[]> }>();
  for (const change of ours) {
    const [group, section, account] = placeOf(change);
    if (!groups.has(group)) groups.set(group, { account, sections: new Map() });
    const { sections } = groups.get(group)!;
    sections.set(section, [...(sections.get(section) ?? []), change]);
  }
  const blocks: Block[] = [];
  // Folding hides nothing worth hiding when there is one block: it is shown open.
  const open = groups.size + (others.length > 0 ? 1 : 0) === 1;
  for (const group of [...groups.keys()].sort(compareGroups)) {
    const { account, sections } = groups.get(group)!;
    const all = [...sections.values()].flat();
    const lines: string[] = [];
    for (const section of [...sections.keys()].sort(compareSections)) {
      lines.push(`#### ${section}`, "");
      for (const change of sections.get(section)!.sort(compareChanges)) lines.push(...(mode === "drift" ? describeDrift(change) : describe(change)));
      lines.push("");
    }
    const label = group === SHARED ? SHARED : `Linked account ${htmlId(account)}`;
    blocks.push({ kind: group === SHARED ? "shared" : "account", text: details(label, all, open, lines, words), changes: all.length });
  }
  if (others.length > 0) {
    const lines = others.sort(compareChanges).map((change) => `- **${words.label(change.kind)}** ${code(change.type)} ${code(change.name)}`);
    blocks.push({ kind: "other", text: details("Other resources", others, open, [...lines, ""], words), changes: others.length });
  }
  return {
    head: [...top, ...warning(clashing)].join("\n"),
    shortHead: [...top, ...warning(clashing.slice(0, NAMES_LISTED))].join("\n"),
    minimalHead: [title, "", countLine(ours, false, words), ""].join("\n"),
    blocks,
    changes: ours.length + others.length,
    errors: errors.length,
    words,
  };
}

/** A preview without --refresh compares the program with the last deployment only: it cannot show drift, and saying "no drift" would be wrong. */
function requireRefresh(steps: PreviewStep[]): void {
  const ours = steps.filter((s) => typeOf(s).startsWith(RESOURCE_TYPE_PREFIX));
  if (ours.length > 0 && !steps.some((s) => s.op === "refresh")) {
    throw new PreviewJsonError("a preview without --refresh, which cannot show drift: run `pulumi preview --refresh --expect-no-changes --json`");
  }
}

/**
 * What a refresh cannot see, counted from the resources it read: application events (the API
 * has no read operation) and encrypted env values (read back redacted, so only whether they
 * exist is checked). A report of no drift must not be taken for more than it is.
 */
function notChecked(steps: PreviewStep[]): string[] {
  const byUrn = new Map<string, PreviewStep>();
  for (const step of steps) if (step.op === "refresh" && typeOf(step).startsWith(RESOURCE_TYPE_PREFIX)) byUrn.set(step.urn, step);
  const type = (s: PreviewStep) => typeOf(s).slice(RESOURCE_TYPE_PREFIX.length);
  const events = [...byUrn.values()].filter((s) => type(s) === "ApplicationEvent").length;
  const encrypted = [...byUrn.values()].filter((s) => type(s) === "EnvVariableValue" && (s.oldState?.inputs ?? s.newState?.inputs)?.encrypted === true).length;
  const parts: string[] = [];
  if (events > 0) parts.push(`${plural(events, "application event")} (the API has no read operation for events)`);
  if (encrypted > 0) parts.push(`the values of ${plural(encrypted, "encrypted env value")} (the platform reads them back redacted; only whether they exist is checked)`);
  return parts.length > 0 ? [`Not checked: ${parts.join("; and ")}.`, ""] : [];
}

/**
 * The title, naming the stack and project from the URNs (`urn:pulumi:<stack>::<project>::…`):
 * with one job and one comment per stack, readers tell the comments apart by it.
 */
function titleOf(steps: PreviewStep[], words: Words): string {
  const places = steps.map((s) => /^urn:pulumi:([^:]+)::([^:]+)::/.exec(s.urn)?.slice(1, 3));
  const stacks = [...new Set(places.map((p) => p?.[0]))].sort();
  const projects = new Set(places.map((p) => p?.[1]));
  const [project] = projects;
  if (projects.size !== 1 || !project || stacks.some((s) => !s)) return `## ${words.title}`;
  // The shards of one program (several previews summarized together) name their stacks.
  if (stacks.length > 1) return `## ${words.title} in ${stacks.length} stacks (${stacks.map((s) => code(s!)).join(", ")}) of project ${code(project)}`;
  return `## ${words.title} in stack ${code(stacks[0]!)} of project ${code(project)}`;
}

/**
 * A folded block. GitHub renders Markdown inside `<details>` only after a blank line; the
 * `<summary>` line is raw HTML, so its label is HTML (`htmlId`), not Markdown.
 */
function details(label: string, changes: Change[], open: boolean, body: string[], words: Words): string {
  const summary = `<summary><b>${label}</b>: ${plural(changes.length, words.noun)} (${kindCounts(changes, words)})</summary>`;
  return [open ? "<details open>" : "<details>", summary, "", ...body, "</details>"].join("\n") + "\n";
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

/** The group (linked account, as a sort key) and section (app, env values, events) a change is listed under, and its linked account. */
function placeOf(change: Change): [string, string, unknown] {
  const inputs = (change.new ?? change.old)?.inputs ?? {};
  const type = change.type.slice(RESOURCE_TYPE_PREFIX.length);
  const account = inputs.linkedAccountId;
  const group = account === undefined ? SHARED : `Linked account ${showId(account)}`;
  if (type === "ApplicationEvent") return [group, "Application events", account];
  if (type === "EnvVariableValue") return [group, account === undefined ? "Env values (org, workspace and workflow scope)" : "Env values", account];
  return [group, inputs.slug !== undefined ? `App ${showId(inputs.slug)}` : "Other objects", account];
}

/** Linked accounts in natural order (`tenant-2` before `tenant-10`), whatever the machine's locale; shared objects last. */
function compareGroups(a: string, b: string): number {
  return Number(a === SHARED) - Number(b === SHARED) || naturalOrder(a, b);
}

function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
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

/** "5 to create, 4 to update" (or "2 changed, 1 missing"): the changes per kind, creates first. */
function kindCounts(changes: Change[], words: Words): string {
  const counts = new Map<string, number>();
  for (const change of changes) counts.set(change.kind, (counts.get(change.kind) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([kind, n]) => words.count(n, kind))
    .join(", ");
}

/** The count line; `withNames` lists the first linked accounts (their blocks below list all of them). */
function countLine(changes: Change[], withNames: boolean, words: Words): string {
  if (changes.length === 0) return words.none;
  const accounts = new Set(changes.map((c) => (c.new ?? c.old)?.inputs?.linkedAccountId).filter((a) => a !== undefined).map(showId));
  const names = withNames ? `: ${listed([...accounts].sort(naturalOrder))}` : "";
  const who = accounts.size > 0 ? ` for ${plural(accounts.size, "linked account")}${names}` : "";
  if (words === WORDS.drift) return `${plural(changes.length, "object")} on the platform ${changes.length === 1 ? "differs" : "differ"} from what the program declares (${kindCounts(changes, words)})${who}.`;
  return `${plural(changes.length, words.noun)} to integration platform objects (${kindCounts(changes, words)})${who}.`;
}

/** The first NAMES_LISTED items, comma-separated, and how many more there are. */
function listed(items: string[]): string {
  const more = items.length - NAMES_LISTED;
  return more > 0 ? `${items.slice(0, NAMES_LISTED).join(", ")} and ${more} more` : items.join(", ");
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

/**
 * The bullet of one drifted object. The preview compares the refreshed state (what the platform
 * holds) with the program: an update's old side is the platform's, its new side the program's.
 * A secret's two sides are both masked, so a changed one is only ever "[secret] changed".
 */
function describeDrift(change: Change): string[] {
  const kind = kindOf(change);
  const platform = change.old?.inputs ?? {};
  const declared = change.new?.inputs ?? {};
  const secret = new Set([...kind.secret, ...(change.old?.additionalSecretOutputs ?? []), ...(change.new?.additionalSecretOutputs ?? [])]);
  const hidden = new Set(["__provider", ...kind.derived]);
  const inputs = change.kind === "delete" || !change.new ? platform : declared;
  // The refreshed outputs describe the object as the platform holds it, e.g. a workflow's name.
  const head = `- **${DRIFT_LABELS[change.kind] ?? change.kind}** ${kind.title(inputs, change.old?.outputs ?? {})}: resource ${code(change.name)}`;
  const details: string[] = [];
  if (change.kind === "create") {
    details.push("not on the platform: `up` creates it as declared");
  } else if (change.kind === "update" || change.kind === "replace") {
    const found = propertyChanges(platform, declared, hidden, secret, (before, after) => `the platform holds ${show(before)}, the program declares ${show(after)}`);
    for (const { path, text } of found.visible) details.push(`${code(path)}: ${text.replace(/^changes \(secret, not shown\)$/, "[secret] changed")}${change.replaceReasons.includes(path) ? " (replaces)" : ""}`);
    if (change.kind === "update" && found.visible.length === 0) for (const key of found.masked) details.push(`${code(key)}: [secret] changed`);
  } else if (change.kind === "delete") {
    details.push(`in the stack but no longer in the program: \`up\` releases it (${kind.release(platform, change.old?.outputs ?? {})})`);
  }
  return [head, ...details.map((d) => `  - ${d}`)];
}

/** Changed properties by dot path, as `old → new` with lists by added and removed entries, or in the words `changed` gives (lists whole). */
function propertyChanges(olds: Props, news: Props, hidden: Set<string>, secret: Set<string>, changed?: (before: unknown, after: unknown) => string) {
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
        if (!isDeepStrictEqual(before, after)) visible.push({ path, text: changed ? changed(before, after) : listChange(before, after) });
      } else if (!isDeepStrictEqual(before, after)) {
        visible.push({ path, text: changed ? changed(before, after) : `${show(before)} → ${show(after)}` });
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

/** An id in raw HTML (a `<summary>` line), where Markdown is not read; secrets and unknowns as words. */
function htmlId(value: unknown): string {
  if (containsSecret(value)) return "(secret)";
  if (containsUnknown(value)) return "(known after <code>up</code>)";
  const text = printable((typeof value === "string" ? value : JSON.stringify(value) ?? "").replace(/\s*\n\s*/g, " "));
  return `<code>${text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</code>`;
}

/** A Markdown code span that holds any text, backticks included (CommonMark 6.1). */
function code(value: unknown): string {
  const text = printable((typeof value === "string" ? value : JSON.stringify(value) ?? "").replace(/\s*\n\s*/g, " "));
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Plain text safe in Markdown: characters that start formatting are escaped. */
function escape(text: string): string {
  return printable(text).replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

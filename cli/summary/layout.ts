// The summary in pieces: the head (title, counts, warnings) and one folded block per linked
// account, so that a bound can leave out whole accounts, never part of one.
import { resourceTypeOf } from "../../provider/resources";
import { listed, plural } from "../text";
import { compareChanges, mergeSteps, rank, type Change } from "./changes";
import { clashes, clashWarning } from "./clashes";
import { describeChange } from "./describe";
import { describeDeployedDrift, describeDrift, notChecked, requireRefresh, requireRefreshOnly } from "./drift";
import { crossed, gateLines, gates, type Breach, type Limits } from "./gates";
import { compareGroups, compareSections, naturalOrder, placeOf, SHARED } from "./groups";
import { code, htmlId, showId } from "./markdown";
import { resourceName, type PreviewJson, type PreviewStep } from "./preview";
import { driftCount } from "./refresh";
import { describeRefusal, refusalsOf, type Refusal } from "./refusals";
import { WORDS, type ReportMode, type Words } from "./words";

/** Types that carry no platform object of their own: the stack, providers, our component. */
const SILENT_TYPES = [/^pulumi:pulumi:Stack$/, /^pulumi:providers:/, /^integration-platform:index:LinkedAccountSetup$/];
/**
 * How many names a count, failure or warning line lists before "and N more": enough to recognise,
 * short enough to bound.
 */
const NAMES_LISTED = 10;

/** One `<details>` block: a linked account's changes, the changes tied to none, or other providers' resources. */
export interface Block {
  kind: "account" | "shared" | "other";
  /** Markdown from `<details>` to `</details>`, ending with a newline. */
  text: string;
  changes: number;
}

/** The summary in pieces, each ending with a newline; joined with blank lines between them. */
export interface Layout {
  /**
   * The limits crossed (or the line saying the change is within them), the title, a failed
   * preview's warning, the count line and the clash warning with every clash.
   */
  head: string;
  /** The same with at most NAMES_LISTED clashes: the head of a bounded summary. */
  shortHead: string;
  /**
   * The limits' line (the ones crossed in one line), the title and the count line, without names:
   * the head when nothing else fits.
   */
  minimalHead: string;
  blocks: Block[];
  changes: number;
  errors: number;
  /** The limits set that the changes cross: none when no limit is set, or the change is within them. */
  breaches: Breach[];
  words: Words;
}

/** A diagnostic the preview printed. */
type Diagnostic = NonNullable<PreviewJson["diagnostics"]>[number];

/** A group's sections (an app each), with their changes and the resources refused at preview. */
type Groups = Map<string, { account: unknown; sections: Map<string, { changes: Change[]; refused: Refusal[] }> }>;

/** The warning that the preview failed: how many errors, on which resources, and where the refused ones are listed. */
function failureLines(errors: Diagnostic[], refused: Refusal[], drift: boolean): string[] {
  if (errors.length === 0) return [];
  const names = [...new Set(errors.map((d) => (d.urn ? resourceName(d.urn) : "")).filter(Boolean))].sort();
  const one = refused.length === 1;
  const where =
    refused.length > 0
      ? ` ${plural(refused.length, "resource")} refused at preview ${one ? "is" : "are"} listed below with the ` +
        `reason, under ${one ? "its" : "their"} linked account and app.`
      : "";
  const named = names.length ? ` (${listed(names.map(code), NAMES_LISTED)})` : "";
  return [
    `> **The preview failed** with ${plural(errors.length, "error")}${named}. ` +
      `The ${drift ? "drift" : "changes"} below ${drift ? "is" : "are"} incomplete; ` +
      `the preview's log has the messages.${where}`,
    "",
  ];
}

/** Our changes and the refused resources, by group (a linked account, or SHARED) and section. */
function groupsOf(ours: Change[], refused: Refusal[]): Groups {
  const groups: Groups = new Map();
  const sectionOf = (group: string, section: string, account: unknown) => {
    if (!groups.has(group)) groups.set(group, { account, sections: new Map() });
    const { sections } = groups.get(group)!;
    if (!sections.has(section)) sections.set(section, { changes: [], refused: [] });
    return sections.get(section)!;
  };
  for (const change of ours) {
    const [group, section, account] = placeOf(change);
    sectionOf(group, section, account).changes.push(change);
  }
  for (const refusal of refused) sectionOf(refusal.group, refusal.section, refusal.account).refused.push(refusal);
  return groups;
}

/** One block per group, in order: each section's refusals first (they block the change), then its changes. */
function groupBlocks(groups: Groups, open: boolean, mode: ReportMode, words: Words): Block[] {
  const describe = mode === "drift" ? describeDeployedDrift : mode === "programDrift" ? describeDrift : describeChange;
  const blocks: Block[] = [];
  for (const group of [...groups.keys()].sort(compareGroups)) {
    const { account, sections } = groups.get(group)!;
    const all = [...sections.values()].flatMap((s) => s.changes);
    const refusals = [...sections.values()].flatMap((s) => s.refused);
    const lines: string[] = [];
    for (const section of [...sections.keys()].sort(compareSections)) {
      lines.push(`#### ${section}`, "");
      const { changes, refused: refusedHere } = sections.get(section)!;
      for (const refusal of refusedHere.sort((a, b) => naturalOrder(a.name, b.name)))
        lines.push(describeRefusal(refusal));
      for (const change of changes.sort(compareChanges)) lines.push(...describe(change, words));
      lines.push("");
    }
    const label = group === SHARED ? SHARED : `Linked account ${htmlId(account)}`;
    blocks.push({
      kind: group === SHARED ? "shared" : "account",
      text: details(label, all, open, lines, words, refusals.length),
      changes: all.length,
    });
  }
  return blocks;
}

/** The block of other providers' resources: one line each, kind, type and name. */
function otherBlock(others: Change[], open: boolean, words: Words): Block {
  const lines = others
    .sort(compareChanges)
    .map((change) => `- **${words.label(change.kind)}** ${code(change.type)} ${code(change.name)}`);
  return {
    kind: "other",
    text: details("Other resources", others, open, [...lines, ""], words),
    changes: others.length,
  };
}

/** Cuts a preview's changes into the head and one block per group; `limits` are checked on a changes report only. */
export function layout(preview: PreviewJson, mode: ReportMode, limits: Limits = {}): Layout {
  const words = WORDS[mode];
  // A drift report has no author to stop: the limits are a pull request's.
  if (mode !== "changes" && Object.values(limits).some((v) => v !== undefined))
    throw new RangeError("limits apply to the changes report only, not to a drift report");
  const changes = mergeSteps(preview.steps);
  // This package's resources, dynamic or native (a stack being moved has both).
  const ours = changes.filter((c) => resourceTypeOf(c.type));
  const others = changes.filter((c) => !resourceTypeOf(c.type) && !SILENT_TYPES.some((t) => t.test(c.type)));
  if (mode === "drift") requireRefreshOnly(preview);
  if (mode === "programDrift") requireRefresh(preview.steps);
  const drift = mode !== "changes";
  // A refresh's single JSON document counts drift without saying where (refresh.ts).
  const unnamed =
    mode === "drift" && preview.refreshOnly !== "events" && ours.length + others.length === 0 ? driftCount(preview) : 0;

  const title = titleOf(preview.steps, words);
  const errors = (preview.diagnostics ?? []).filter((d) => d.severity === "error");
  const refused = refusalsOf(preview.diagnostics);
  const top = [title, "", ...failureLines(errors, refused, drift)];
  top.push(unnamed > 0 ? unnamedDrift(unnamed) : countLine(ours, true, words), "");
  if (drift) top.push(...notChecked(preview.steps));
  // A takeover is a pull request's concern, not a drift report's.
  const clashing = drift ? [] : clashes(ours);

  const groups = groupsOf(ours, refused);
  // Folding hides nothing worth hiding when there is one block: it is shown open.
  const open = groups.size + (others.length > 0 ? 1 : 0) === 1;
  const blocks = groupBlocks(groups, open, mode, words);
  if (others.length > 0) blocks.push(otherBlock(others, open, words));
  // First of all, and in every head, so that a bound never leaves them out: whether the change is
  // bigger than allowed is the reviewer's first question.
  const gated = gates(ours, limits);
  const gate = gateLines(gated, NAMES_LISTED);
  return {
    head: [...gate, ...top, ...clashWarning(clashing, clashing.length)].join("\n"),
    shortHead: [...gate, ...top, ...clashWarning(clashing.slice(0, NAMES_LISTED), clashing.length)].join("\n"),
    minimalHead: [...gateLines(gated, 0), title, "", countLine(ours, false, words), ""].join("\n"),
    blocks,
    changes: ours.length + others.length + unnamed,
    errors: errors.length,
    breaches: gated.filter(crossed),
    words,
  };
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
  if (stacks.length > 1) {
    const names = stacks.map((s) => code(s!)).join(", ");
    return `## ${words.title} in ${stacks.length} stacks (${names}) of project ${code(project)}`;
  }
  return `## ${words.title} in stack ${code(stacks[0]!)} of project ${code(project)}`;
}

/**
 * A folded block. GitHub renders Markdown inside `<details>` only after a blank line; the
 * `<summary>` line is raw HTML, so its label is HTML (`htmlId`), not Markdown.
 */
function details(label: string, changes: Change[], open: boolean, body: string[], words: Words, refused = 0): string {
  const counts = [
    ...(refused > 0 ? [`${refused} refused at preview`] : []),
    ...(changes.length > 0 || refused === 0
      ? [`${plural(changes.length, words.noun)} (${kindCounts(changes, words)})`]
      : []),
  ];
  const summary = `<summary><b>${label}</b>: ${counts.join(", ")}</summary>`;
  return [open ? "<details open>" : "<details>", summary, "", ...body, "</details>"].join("\n") + "\n";
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

/** The count line of drift that a refresh's single JSON document counts but does not place. */
function unnamedDrift(count: number): string {
  return (
    `**${plural(count, "object")} on the platform ${count === 1 ? "differs" : "differ"} from the last deployment**, ` +
    "but the output of `pulumi refresh --preview-only --json` does not say which. " +
    "Run it with `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true` to list them with their properties."
  );
}

/** The count line; `withNames` lists the first linked accounts (their blocks below list all of them). */
function countLine(changes: Change[], withNames: boolean, words: Words): string {
  if (changes.length === 0) return words.none;
  const accounts = new Set(
    changes
      .map((c) => (c.new ?? c.old)?.inputs?.linkedAccountId)
      .filter((a) => a !== undefined)
      .map(showId),
  );
  const names = withNames ? `: ${listed([...accounts].sort(naturalOrder), NAMES_LISTED)}` : "";
  const who = accounts.size > 0 ? ` for ${plural(accounts.size, "linked account")}${names}` : "";
  const objects = `${plural(changes.length, "object")} on the platform ${changes.length === 1 ? "differs" : "differ"}`;
  if (words === WORDS.drift) return `${objects} from the last deployment (${kindCounts(changes, words)})${who}.`;
  if (words === WORDS.programDrift)
    return `${objects} from what the program declares (${kindCounts(changes, words)})${who}.`;
  return `${plural(changes.length, words.noun)} to integration platform objects (${kindCounts(changes, words)})${who}.`;
}

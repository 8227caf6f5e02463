// The change summary (or drift report) as Markdown, whole or bounded to fit a pull request
// comment; docs/design/cli.md says how the bound leaves out whole accounts.
import { plural } from "../text";
import type { Breach, Limits } from "./gates";
import { layout, type Block } from "./layout";
import { code } from "./markdown";
import { parsePreview } from "./preview";
import { WORDS, type ReportMode, type Words } from "./words";

/**
 * The default bound of `summarize`'s output: GitHub refuses a comment over 65,536 characters, and the
 * comment action adds a marker.
 */
export const DEFAULT_MAX_CHARS = 60_000;
/** The smallest bound accepted: the title, the count line and the closing line need this much room. */
export const MIN_MAX_CHARS = 1_000;

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
  /** The limits given that the changes cross: `summarize` exits 4 when there are any. */
  breaches: Breach[];
}

/** Renders preview JSON (already parsed from text) as the full Markdown change summary, or drift report; pure. */
export function summarize(data: unknown, mode: ReportMode = "changes", limits: Limits = {}): string {
  const { head, blocks, words } = layout(parsePreview(data), mode, limits);
  return join([head, ...blocks.map((b) => b.text), words.footer + "\n"]);
}

/**
 * Renders preview JSON as a summary of at most `maxChars` UTF-16 code units, and the full one;
 * pure. Whole blocks are left out, accounts from the end first (docs/design/cli.md). `limits`
 * (changes only) open it with the ones crossed, or a line saying it is within them; the crossed
 * ones are returned as `breaches`.
 */
export function summarizeBounded(
  data: unknown,
  maxChars: number = DEFAULT_MAX_CHARS,
  fullAt: FullSummaryAt = {},
  mode: ReportMode = "changes",
  limits: Limits = {},
): Summaries {
  if (!Number.isSafeInteger(maxChars) || maxChars < MIN_MAX_CHARS) {
    throw new RangeError(`maxChars must be a whole number of at least ${MIN_MAX_CHARS}; got ${maxChars}`);
  }
  if (fullAt.link !== undefined) fullSummaryLink(fullAt.link);
  const parts = layout(parsePreview(data), mode, limits);
  const { words, changes, errors, breaches } = parts;
  const footer = words.footer;
  const full = join([parts.head, ...parts.blocks.map((b) => b.text), footer + "\n"]);
  const none: LeftOut = { linkedAccounts: 0, accountChanges: 0, sharedChanges: 0, otherChanges: 0 };
  if (full.length <= maxChars) return { bounded: full, full, leftOut: none, changes, errors, breaches };

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
  const bounded = join([
    parts.shortHead,
    ...parts.blocks.filter((b) => kept.has(b)).map((b) => b.text),
    footer + "\n",
    closingLine(leftOut, maxChars, fullAt, words) + "\n",
  ]);
  if (bounded.length <= maxChars) return { bounded, full, leftOut, changes, errors, breaches };

  // A head too long for the bound (many long names): the limits crossed, the title, the counts and the
  // closing line alone.
  for (const at of [fullAt, undefined]) {
    const minimal = join([parts.minimalHead, footer + "\n", closingLine(everything, maxChars, at, words) + "\n"]);
    if (minimal.length <= maxChars) return { bounded: minimal, full, leftOut: everything, changes, errors, breaches };
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
    throw new RangeError(
      `${JSON.stringify(address)} is not an http(s) address: give an absolute URL, e.g. the CI run's page`,
    );
  }
  // A parenthesis would end the Markdown link target early; the URL parser already encoded spaces and angle brackets.
  return url.href.replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29"));
}

/** Joins pieces that each end with a newline, with a blank line between them. */
function join(pieces: string[]): string {
  return pieces.join("\n");
}

/** What leaving out `blocks` leaves out, counted. */
function leftOutOf(blocks: Block[]): LeftOut {
  const sum = (kind: Block["kind"]) => blocks.filter((b) => b.kind === kind).reduce((n, b) => n + b.changes, 0);
  return {
    linkedAccounts: blocks.filter((b) => b.kind === "account").length,
    accountChanges: sum("account"),
    sharedChanges: sum("shared"),
    otherChanges: sum("other"),
  };
}

/** "… and N more linked accounts (M changes)": what a bounded summary leaves out, and where to read it. */
function closingLine(left: LeftOut, maxChars: number, fullAt: FullSummaryAt | undefined, words: Words): string {
  const parts: string[] = [];
  if (left.linkedAccounts > 0)
    parts.push(`${plural(left.linkedAccounts, "more linked account")} (${plural(left.accountChanges, words.noun)})`);
  if (left.sharedChanges > 0) parts.push(`${plural(left.sharedChanges, words.noun)} not tied to a linked account`);
  if (left.otherChanges > 0) parts.push(`${plural(left.otherChanges, words.noun)} of other resources`);
  const flag = words === WORDS.drift ? " --drift" : words === WORDS.programDrift ? " --drift-against-program" : "";
  const where = !fullAt
    ? ""
    : fullAt.link
      ? ` [The full summary](${fullSummaryLink(fullAt.link)}) lists every change.`
      : fullAt.file
        ? ` The full summary, with every change, is in ${code(fullAt.file)}.`
        : ` Run \`pulumi-integration-platform summarize${flag} --full <file>\` ` +
          "to write the full summary to a file.";
  return (
    `**… and ${parts.join(", and ")}** are left out here, to keep this summary within ${maxChars} ` +
    `characters.${where}`
  );
}

// Gates on a pull request's reach: limits on how many linked accounts a change touches and how many
// platform objects it deletes or replaces, so that a change bigger than its author meant fails the
// check. They count across every preview given: a sharded program's pull request changes every shard.
import { z } from "zod";
import { shapeProblem } from "../input";
import { listed, plural, printable } from "../text";
import type { Change } from "./changes";
import { naturalOrder } from "./groups";
import { code, showId } from "./markdown";

/** The limits set on a change, each a whole number of at least 0; a limit not set is not checked. */
export interface Limits {
  /** The most linked accounts with a change (create, update, replace or delete) of this package's resources. */
  maxLinkedAccounts?: number;
  /** The most platform objects to delete. */
  maxDeletes?: number;
  /** The most platform objects to replace. */
  maxReplaces?: number;
}

/** A limit's name, as the gates file spells it. */
export type Limit = keyof Limits;

/** The option that sets each limit on the command line, in the order the summary names them. */
export const LIMIT_OPTIONS: Record<Limit, string> = {
  maxLinkedAccounts: "--max-linked-accounts",
  maxDeletes: "--max-deletes",
  maxReplaces: "--max-replaces",
};

/** Every limit, in the order the summary names them. */
const LIMITS = Object.keys(LIMIT_OPTIONS) as Limit[];

/** One limit set, and what the change counts against it. */
export interface Gate {
  /** Which limit, as the gates file names it. */
  limit: Limit;
  /** The option that sets it, e.g. `--max-deletes`. */
  option: string;
  /** The limit: a count above it crosses it. */
  max: number;
  /** Linked accounts with a change, or objects to delete or to replace. */
  count: number;
  /** The linked accounts counted, or those the deleted or replaced objects are in, as the summary shows ids, sorted. */
  accounts: string[];
  /** For deletes and replaces: how many of the objects are tied to no linked account. */
  untied: number;
}

/** A limit the change crosses: its count is over its limit. */
export type Breach = Gate;

/** The kinds of change that touch a linked account: an op we do not know is not counted. */
const CHANGING = new Set(["create", "update", "replace", "delete"]);

/** A whole number of at least 0: what every limit is, from the command line or the gates file. */
export function isLimitValue(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** Checks limits handed to the summary (not from a user: the command checks those); a RangeError names a bad one. */
export function checkLimits(limits: Limits): void {
  for (const [key, value] of Object.entries(limits)) {
    if (!Object.hasOwn(LIMIT_OPTIONS, key))
      throw new RangeError(`${key} is not a limit: the limits are ${LIMITS.join(", ")}`);
    if (value !== undefined && !isLimitValue(value))
      throw new RangeError(`${key} must be a whole number of at least 0; got ${value}`);
  }
}

/**
 * Each limit set, counted on this package's changes (`ours`): linked accounts as the count line
 * counts them, by the id the summary shows.
 */
export function gates(ours: Change[], limits: Limits): Gate[] {
  checkLimits(limits);
  const accountOf = (change: Change) => (change.new ?? change.old)?.inputs?.linkedAccountId;
  const accountsOf = (changes: Change[]) => {
    const ids = changes.map(accountOf).filter((a) => a !== undefined);
    return [...new Set(ids.map(showId))].sort(naturalOrder);
  };
  const counted = (limit: Limit, max: number): Gate => {
    if (limit === "maxLinkedAccounts") {
      const accounts = accountsOf(ours.filter((c) => CHANGING.has(c.kind)));
      return { limit, option: LIMIT_OPTIONS[limit], max, count: accounts.length, accounts, untied: 0 };
    }
    const changes = ours.filter((c) => c.kind === (limit === "maxDeletes" ? "delete" : "replace"));
    const untied = changes.filter((c) => accountOf(c) === undefined).length;
    return { limit, option: LIMIT_OPTIONS[limit], max, count: changes.length, accounts: accountsOf(changes), untied };
  };
  return LIMITS.flatMap((limit) => {
    const max = limits[limit];
    return max === undefined ? [] : [counted(limit, max)];
  });
}

/** Whether a gate's count crosses its limit: at the limit passes. */
export function crossed(gate: Gate): boolean {
  return gate.count > gate.max;
}

/** The limits `ours` crosses (pure): what makes `summarize` exit 4. */
export function breaches(ours: Change[], limits: Limits): Breach[] {
  return gates(ours, limits).filter(crossed);
}

/**
 * The lines that open the summary when limits are set: each limit crossed, its count, its limit and
 * the first `names` linked accounts (0: one line of counts, for the smallest head); or one line
 * saying the change is within them, so a reviewer sees the gate ran.
 */
export function gateLines(set: Gate[], names: number): string[] {
  if (set.length === 0) return [];
  const over = set.filter(crossed);
  const limits = set.map((g) => code(`${g.option} ${g.max}`)).join(", ");
  if (over.length === 0)
    return [`**Within the limits set for this change** (${limits}): ${set.map(countWords).join(", ")}.`, ""];
  const title = "**Over the limits set for this change**";
  // The smallest head must fit the smallest bound, beside a title naming many stacks: one short line, no names.
  if (names === 0)
    return [`> ${title}: ${over.map((g) => `${countWords(g)}, over ${code(`${g.option} ${g.max}`)}`).join("; ")}.`, ""];
  return [`> ${title} (${limits}):`, ...over.map((gate) => `> - ${breachLine(gate, names)}`), ""];
}

/** A gate's count in words: "3 linked accounts with changes", "0 platform objects to delete". */
function countWords(gate: Gate): string {
  if (gate.limit === "maxLinkedAccounts") return `${plural(gate.count, "linked account")} with changes`;
  return `${plural(gate.count, "platform object")} to ${gate.limit === "maxDeletes" ? "delete" : "replace"}`;
}

/** "over the limit of 50 (`--max-linked-accounts`)". */
function overLimit(gate: Gate): string {
  return `over the limit of ${gate.max} (${code(gate.option)})`;
}

/** One crossed limit: its count, its limit and option, and the first `names` accounts it concerns. */
function breachLine(gate: Gate, names: number): string {
  const list = `: ${listed(gate.accounts, names)}`;
  if (gate.limit === "maxLinkedAccounts")
    return `**${plural(gate.count, "linked account")}** would change, ${overLimit(gate)}${list}.`;
  const where =
    gate.accounts.length === 0
      ? "tied to no linked account"
      : `in ${plural(gate.accounts.length, "linked account")}${list}` +
        (gate.untied > 0 ? `; and ${gate.untied} tied to no linked account` : "");
  return `**${countWords(gate)}**, ${overLimit(gate)}, ${where}.`;
}

/** A limit's value in the gates file: a whole number, 0 or more. */
const LimitValue = z.int().min(0).optional();
/** The gates file's shape: any of the three limits, and nothing else (a misspelt limit would check nothing). */
const GatesFile = z.strictObject({ maxLinkedAccounts: LimitValue, maxDeletes: LimitValue, maxReplaces: LimitValue });

/** A gates file that cannot be used: `problems` says what is wrong, in words. */
export class GatesFileError extends Error {
  /** Each problem, e.g. "`maxDeletes` is -1; it should be a whole number, 0 or more". */
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join("; "));
    this.name = "GatesFileError";
    this.problems = problems;
  }
}

/** An example of the gates file, for messages that say what it should hold. */
export const GATES_EXAMPLE = '{"maxLinkedAccounts": 50, "maxDeletes": 0, "maxReplaces": 0}';

/** Reads a gates file's parsed JSON as limits, or throws a GatesFileError naming each problem in words. */
export function parseGates(data: unknown): Limits {
  const parsed = GatesFile.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const which = issue.keys.length === 1 ? "is not a limit" : "are not limits";
      return `${issue.keys.map((k) => code(k)).join(", ")} ${which}: the limits are ${LIMITS.map(code).join(", ")}`;
    }
    const [key] = issue.path;
    // zod's words for a number out of range or not whole are not the product's.
    if (issue.path.length === 1 && typeof key === "string" && Object.hasOwn(LIMIT_OPTIONS, key)) {
      const value = (data as Record<string, unknown>)[key];
      const shown = printable(JSON.stringify(value) ?? String(value));
      const short = shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
      return `${code(key)} is ${short}; it should be a whole number, 0 or more`;
    }
    return shapeProblem(issue, data);
  });
  throw new GatesFileError(problems);
}

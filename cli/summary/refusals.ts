// Check failures of this package's resources (validation at preview, or bad input), read back from
// the preview's diagnostics: listed in their linked account's block, under their app. Only our own
// check failures are shown: their reasons never hold a value, while other diagnostics may.
import { resourceTypeOf } from "../../provider/resources";
import { SHARED } from "./groups";
import { code, escape, showId } from "./markdown";
import type { PreviewJson } from "./preview";

/** One resource refused at check. */
export interface Refusal {
  /** The group (linked account) and section (app) it is listed under, and its linked account. */
  group: string;
  section: string;
  account?: string;
  /** The resource's name and type (after the package's type prefix). */
  name: string;
  type: string;
  /** The reason, as the provider gave it: `property: why`. */
  reason: string;
}

/** How the engine words a check failure: `error: <type> resource '<name>' has a problem: <reason>`. */
const CHECK_FAILURE = /^error: (\S+) resource '(.+)' has a problem: ([\s\S]+?)\s*$/;
/** A JSON-quoted id after a word, as validation's reasons name the linked account and the app. */
const quotedAfter = (word: string) => new RegExp(`${word} ("(?:[^"\\\\]|\\\\.)*")`);
/** The longest reason shown: a summary stays bounded whatever a reason holds. */
const MAX_REASON = 500;

/** This package's check failures among the preview's diagnostics. */
export function refusalsOf(diagnostics: PreviewJson["diagnostics"]): Refusal[] {
  const refusals: Refusal[] = [];
  for (const diagnostic of diagnostics ?? []) {
    const match =
      diagnostic.severity === "error" && typeof diagnostic.message === "string"
        ? CHECK_FAILURE.exec(diagnostic.message)
        : null;
    const type = match ? resourceTypeOf(match[1]) : undefined;
    if (!match || !type) continue;
    const [, , name, reason] = match;
    const account = quoted(reason, "linked account");
    const app = quoted(reason, "app");
    refusals.push({
      group: account === undefined ? SHARED : `Linked account ${showId(account)}`,
      section: app === undefined ? "Refused at preview" : `App ${showId(app)}`,
      account,
      name,
      type,
      reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason,
    });
  }
  return refusals;
}

/** A refusal as a bullet of its section. */
export function describeRefusal(refusal: Refusal): string {
  return `- **Refused at preview** ${code(refusal.name)} (${refusal.type}): ${escape(refusal.reason)}`;
}

function quoted(reason: string, word: string): string | undefined {
  const match = quotedAfter(word).exec(reason);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as string;
  } catch {
    return undefined;
  }
}

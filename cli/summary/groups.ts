// Where a change is listed: under its linked account (a folded block of its own), then its app,
// its env values or its events, in an order that does not depend on the machine's locale.
import { objectKindOf, type Change } from "./changes";
import { showId } from "./markdown";

/** The group of the changes tied to no linked account, listed last. */
export const SHARED = "Not tied to a linked account";

/**
 * The group (linked account, as a sort key) and section (app, env values, events) a change is listed
 * under, and its linked account.
 */
export function placeOf(change: Change): [string, string, unknown] {
  const inputs = (change.new ?? change.old)?.inputs ?? {};
  const account = inputs.linkedAccountId;
  const group = account === undefined ? SHARED : `Linked account ${showId(account)}`;
  const section = objectKindOf(change).section?.(inputs);
  return [group, section ?? (inputs.slug !== undefined ? `App ${showId(inputs.slug)}` : "Other objects"), account];
}

/**
 * Linked accounts in natural order (`tenant-2` before `tenant-10`), whatever the machine's locale;
 * shared objects last.
 */
export function compareGroups(a: string, b: string): number {
  return Number(a === SHARED) - Number(b === SHARED) || naturalOrder(a, b);
}

/** Numbers in names by value (`tenant-2` before `tenant-10`), the same on every machine. */
export function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/** Apps first, then env values and events, each by name. */
export function compareSections(a: string, b: string): number {
  return Number(!a.startsWith("App ")) - Number(!b.startsWith("App ")) || a.localeCompare(b);
}

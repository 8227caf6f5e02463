// Rollout in waves (`shards up --waves`): which linked accounts each wave of a change applies to.
// An account's wave comes from its id alone, as its shard does (provider/sharding.ts), so a rerun
// or a `--resume` picks the same accounts, and growing a later share never moves earlier ones.
import { createHash } from "node:crypto";
import { naturalOrder } from "../summary/groups";
import { listed, plural, printable } from "../text";
import { ShardsError } from "./stacks";

/** A bad `--waves` or `--canary`, said in the command's words: a ShardsError, so exit status 2. */
export class WavesError extends ShardsError {}

/** All linked accounts, in basis points: shares are whole hundredths of a percent. */
export const WHOLE = 10000;

/** The most waves `--waves` may give: each is a round of previews and checks on every stack. */
export const MAX_WAVES = 20;

/** The name of the wave of resources tied to no linked account (application events, org values). */
export const SHARED_WAVE = "shared";

/** The name of the wave of the `--canary` linked accounts. */
export const CANARY_WAVE = "canary";

/** One wave of a rollout: the linked accounts whose resources it applies the change to. */
export interface Wave {
  /** "shared", "canary", or the share of all linked accounts it reaches, e.g. "25%". */
  name: string;
  /** Its linked accounts, in natural order (`tenant-2` before `tenant-10`). */
  accounts: string[];
  /** On the shared wave only: it applies the resources tied to no linked account. */
  shared?: true;
  /** On the canary wave only: the `--canary` ids the change does not touch, in the order given. */
  absent?: string[];
}

/** `--waves`'s problem, with what to give instead. */
function sharesError(problem: string): WavesError {
  return new WavesError(
    `--waves ${problem}; give growing shares of the linked accounts, each a number above 0 with at most two ` +
      `decimals and %, the last 100%, e.g. --waves 5%,25%,100%`,
  );
}

/** `--canary`'s problem, with what to give instead. */
function canaryError(problem: string): WavesError {
  return new WavesError(`--canary ${problem}; give linked account ids separated by commas, e.g. --canary acme,globex`);
}

/** Text the user gave, quoted and on one visible line. */
function quoted(text: string): string {
  return printable(JSON.stringify(text));
}

/** A share in basis points as `--waves` writes it: 500 is "5%", 1250 is "12.5%". */
export function shareName(share: number): string {
  return `${share / 100}%`;
}

/** One `N%` item in basis points, read from its digits so that 0.29% is 29, not 28.999…. */
function shareOf(item: string, position: number): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?%$/.exec(item);
  const where = `item ${position}, ${quoted(item)},`;
  if (match === null) throw sharesError(`${where} is not a share such as 25% or 2.5%`);
  const share = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (share <= 0) throw sharesError(`${where} is not above 0%`);
  if (share > WHOLE) throw sharesError(`${where} is over 100%`);
  return share;
}

/** The shares of `--waves` ("5%,25%,100%") in basis points ([500, 2500, 10000]); a WavesError names what is wrong. */
export function parseShares(text: string): number[] {
  const items = text.split(",").map((item) => item.trim());
  if (items.length > MAX_WAVES) throw sharesError(`gives ${items.length} waves; at most ${MAX_WAVES}`);
  const shares: number[] = [];
  for (const [i, item] of items.entries()) {
    if (item === "") throw sharesError(items.length === 1 ? "is empty" : `item ${i + 1} is empty`);
    const share = shareOf(item, i + 1);
    const before = shares.at(-1);
    if (before !== undefined && share <= before)
      throw sharesError(`item ${i + 1}, ${quoted(item)}, does not grow from the wave before it, ${shareName(before)}`);
    shares.push(share);
  }
  if (shares.at(-1) !== WHOLE)
    throw sharesError(`ends at ${quoted(items.at(-1)!)}, so some linked accounts would be in no wave`);
  return shares;
}

// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The linked account ids of `--canary` ("acme, globex"), trimmed, each once, in the order given. */
export function parseCanary(text: string): string[] {
  const items = text.split(",");
  const ids = new Set<string>();
  for (const [i, item] of items.entries()) {
    const id = item.trim();
    const where = items.length === 1 ? quoted(item) : `item ${i + 1}, ${quoted(item)},`;
    if (id === "") throw canaryError(items.length === 1 ? "is empty" : `item ${i + 1} is empty`);
    // Checked before trimming: a line break in an id is a pasting mistake, not a separator.
    if (CONTROL.test(item)) throw canaryError(`${where} has a control character`);
    ids.add(id);
  }
  return [...ids];
}

/**
 * A linked account's wave bucket, 0 to 9999: the first 8 bytes of the SHA-256 of `wave\0` and its
 * id, as a fraction of 2^64, times 10000. A wave of share s (basis points) holds the buckets below s.
 */
export function waveBucketOf(linkedAccountId: string): number {
  // Salted: unsalted, the 8 bytes that choose the shard (shardOf) would choose the wave too, and a
  // wave could lean on a few shards' stacks; salted, each wave spreads over all of them.
  const key = createHash("sha256").update(`wave\0${linkedAccountId}`, "utf8").digest().readBigUInt64BE(0);
  return Number((key * BigInt(WHOLE)) >> 64n);
}

/** Ids in natural order, and by code unit where it ties (some Unicode forms), so the input's order never shows. */
function sorted(ids: Iterable<string>): string[] {
  return [...ids].sort((a, b) => naturalOrder(a, b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Checks shares given to planWaves: growing, within 1 to 10000, the last 10000, so every account has a wave. */
function checkShares(shares: number[]): void {
  const growing = shares.every((s, i) => Number.isInteger(s) && s > (i === 0 ? 0 : shares[i - 1]));
  if (!growing || shares.at(-1) !== WHOLE || shares.length > MAX_WAVES)
    throw new RangeError(
      `shares must grow from above 0 to ${WHOLE} (parseShares), at most ${MAX_WAVES}; got ${shares}`,
    );
}

/**
 * The waves of a change, in order: the resources tied to no linked account (when `shared`), the
 * canary linked accounts (when `canary` is given), then one wave per share. `accounts` are the linked
 * accounts the change touches; each lands in exactly one wave. A share wave left empty is kept, so
 * that wave numbers stay the same when the change is planned again.
 */
export function planWaves(input: {
  accounts: Iterable<string>;
  shared: boolean;
  canary: string[];
  shares: number[];
}): Wave[] {
  checkShares(input.shares);
  const left = new Set(input.accounts);
  const waves: Wave[] = [];
  if (input.shared) waves.push({ name: SHARED_WAVE, accounts: [], shared: true });
  if (input.canary.length > 0) {
    const canary = [...new Set(input.canary)];
    waves.push({
      name: CANARY_WAVE,
      accounts: sorted(canary.filter((id) => left.has(id))),
      absent: canary.filter((id) => !left.has(id)),
    });
    for (const id of canary) left.delete(id);
  }
  const buckets = new Map([...left].map((id) => [id, waveBucketOf(id)]));
  for (const share of input.shares) {
    const accounts = [...left].filter((id) => buckets.get(id)! < share);
    for (const id of accounts) left.delete(id);
    waves.push({ name: shareName(share), accounts: sorted(accounts) });
  }
  return waves;
}

/** `done` of `all` as a percent with one decimal, rounded down so that only the last wave says 100%. */
function percentOf(done: number, all: number): string {
  return `${Math.floor((done * 1000) / all) / 10}%`;
}

/** One wave's line, without its number. */
function waveLine(wave: Wave, done: number, all: number, names: number): string {
  if (wave.shared) return "resources tied to no linked account";
  const total = all === 0 ? `${done} of ${all} so far` : `${done} of ${all} so far (${percentOf(done, all)})`;
  let line = `${plural(wave.accounts.length, "linked account")}, ${total}`;
  if (wave.accounts.length > 0) line += `: ${listed(wave.accounts.map(printable), names)}`;
  if (wave.absent !== undefined && wave.absent.length > 0)
    line += `; the change does not touch ${listed(wave.absent.map(printable), names)}`;
  return line;
}

/**
 * The plan as a dry run prints it, one line per wave (number, name, its linked accounts, the running
 * total and its share of all, the first `names` accounts), then the totals; plain text, each line ending in \n.
 */
export function describeWaves(waves: Wave[], names = 10): string {
  const all = waves.reduce((sum, wave) => sum + wave.accounts.length, 0);
  let done = 0;
  const lines = waves.map((wave, i) => {
    done += wave.accounts.length;
    return `wave ${i + 1} (${printable(wave.name)}): ${waveLine(wave, done, all, names)}`;
  });
  const shared = waves.some((wave) => wave.shared) ? "the resources tied to no linked account, then " : "";
  lines.push(`${plural(waves.length, "wave")} in all: ${shared}${plural(all, "linked account")}`);
  return lines.map((line) => `${line}\n`).join("");
}

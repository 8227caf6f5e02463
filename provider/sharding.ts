// Sharding: a large workspace as several stacks of one program. Each linked account belongs to
// one shard, chosen from its id alone by a jump consistent hash, so adding accounts never moves
// others, and going from S to S + 1 shards moves only the accounts that land in the new one.
// docs/guides/scaling.md tells when to shard and how; the `shards` command runs and re-shards them.
import { createHash } from "node:crypto";
import { getStack } from "@pulumi/pulumi/metadata";
import { getConfig } from "@pulumi/pulumi/runtime/config";

/** The stack config key (namespace `integration-platform`) that says how many shards there are. */
export const SHARDS_SETTING = "integration-platform:shards";

/** The most shards: well past what one API key's 20 requests per second can keep busy. */
export const MAX_SHARDS = 1000;

const MASK = (1n << 64n) - 1n;

/**
 * The shard (0 to shards - 1) of a linked account: a jump consistent hash (Lamping and Veach,
 * 2014) of the first 8 bytes of the id's SHA-256. It depends on the id and `shards` only.
 */
export function shardOf(linkedAccountId: string, shards: number): number {
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw new RangeError(`shards must be a whole number from 1 to ${MAX_SHARDS}; got ${shards}`);
  }
  let key = createHash("sha256").update(linkedAccountId, "utf8").digest().readBigUInt64BE(0);
  let bucket = -1;
  let next = 0;
  while (next < shards) {
    bucket = next;
    key = (key * 2862933555777941757n + 1n) & MASK;
    next = Math.floor((bucket + 1) * (2 ** 31 / (Number(key >> 33n) + 1)));
  }
  return bucket;
}

/** Where a stack sits among the shards. */
export interface StackShard {
  /** This stack's shard, 0 to shards - 1. */
  shard: number;
  /** How many shards the workspace is split into. */
  shards: number;
}

/**
 * This stack's shard: the count from `integration-platform:shards`, the shard from the number
 * ending the stack's name (`prod-3`), so that every shard has the same config (docs/guides/scaling.md).
 * `{shard: 0, shards: 1}` when the key is not set; throws saying what to fix.
 */
export function stackShard(
  config: { get(key: string): string | undefined } = { get: (key) => getConfig(key) },
  stack: string = getStack(),
): StackShard {
  const text = config.get(SHARDS_SETTING)?.trim();
  if (text === undefined) return { shard: 0, shards: 1 };
  const shards = Number(text);
  if (!/^\d+$/.test(text) || shards < 1 || shards > MAX_SHARDS) {
    throw new Error(`${SHARDS_SETTING} must be a whole number from 1 to ${MAX_SHARDS}; got ${JSON.stringify(text)}`);
  }
  const number = /(?:^|\D)(\d+)$/.exec(stack)?.[1];
  const shard = Number(number);
  if (number === undefined || shard >= shards || (number.length > 1 && number.startsWith("0"))) {
    throw new Error(
      `stack ${JSON.stringify(stack)} must be named for its shard, ` +
        `from 0 to ${shards - 1} (${SHARDS_SETTING} is ${shards}), at the end of its name: e.g. prod-0`,
    );
  }
  return { shard, shards };
}

/** The items whose linked account belongs to this stack's shard (see stackShard), in their order. */
export function inThisShard<T>(
  items: T[],
  linkedAccountIdOf: (item: T) => string,
  where: StackShard = stackShard(),
): T[] {
  return items.filter((item) => shardOf(linkedAccountIdOf(item), where.shards) === where.shard);
}

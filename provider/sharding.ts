// Sharding: a large workspace as several stacks of one program. Each linked account belongs to
// one shard, chosen from its id alone by a jump consistent hash, so adding accounts never moves
// others, and going from S to S + 1 shards moves only the accounts that land in the new one.
// docs/guides/scaling.md tells when to shard and how; the `shards` command runs and re-shards them.
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

/** Stack config keys (namespace `integration-platform`) that place a stack among the shards. */
export const SHARD_SETTINGS = {
  shards: "integration-platform:shards",
  shard: "integration-platform:shard",
} as const;

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
 * This stack's shard, from its config `integration-platform:shards` and `integration-platform:shard`;
 * `{shard: 0, shards: 1}` (everything) when neither is set. Throws naming the key when one is bad.
 */
export function stackShard(config: { get(key: string): string | undefined } = { get: (key) => pulumi.runtime.getConfig(key) }): StackShard {
  const shardsText = config.get(SHARD_SETTINGS.shards);
  const shardText = config.get(SHARD_SETTINGS.shard);
  if (shardsText === undefined && shardText === undefined) return { shard: 0, shards: 1 };
  const shards = wholeNumber(shardsText, SHARD_SETTINGS.shards, 1, MAX_SHARDS);
  const shard = wholeNumber(shardText, SHARD_SETTINGS.shard, 0, shards - 1);
  return { shard, shards };
}

function wholeNumber(text: string | undefined, key: string, min: number, max: number): number {
  if (text === undefined) throw new Error(`${key} is not set: set both ${SHARD_SETTINGS.shards} and ${SHARD_SETTINGS.shard}, or neither`);
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new Error(`${key} must be a whole number from ${min} to ${max}; got ${JSON.stringify(text)}`);
  }
  return value;
}

/** The items whose linked account belongs to this stack's shard (see stackShard), in their order. */
export function inThisShard<T>(items: T[], linkedAccountIdOf: (item: T) => string, where: StackShard = stackShard()): T[] {
  return items.filter((item) => shardOf(linkedAccountIdOf(item), where.shards) === where.shard);
}

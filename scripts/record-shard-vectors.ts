// Records the shard test vectors that every SDK's sharding helpers are tested against (the Python,
// Go and Java overlays in sdk-overlays/, and the native provider's getShard): each case's shard is
// what the TypeScript shardOf answers, so a port that differs by one bucket fails its own tests.
// test/unit/shardVectors.test.ts checks that the file still agrees with shardOf.
//
//   npm run record:shard-vectors   (or: npx ts-node --transpile-only scripts/record-shard-vectors.ts [--out <file>])
import * as fs from "node:fs";
import * as path from "node:path";
import { Command } from "commander";
import { MAX_SHARDS, shardOf } from "../provider/sharding";

/** One case: a linked account's id, a number of shards, and the shard shardOf puts it in. */
export interface ShardVector {
  linkedAccountId: string;
  shards: number;
  shard: number;
}

/** Where the SDKs' tests find the vectors. */
export const DEFAULT_SHARD_VECTORS_FILE = path.join(__dirname, "..", "contract", "shardVectors.json");

/**
 * The ids: ASCII as the platform issues them, ids whose UTF-8 is longer than their UTF-16 (accents,
 * an emoji beyond the BMP, CJK), a one-character id, an id of spaces, and one of 1 KB.
 */
const IDS = [
  "acme",
  "globex",
  "tenant-0042",
  "64f0000000000000000000a1",
  "x",
  " ",
  "café-été",
  "rocket-🚀",
  "東京-支店",
  "Zürich_ÅÖ",
  "a".repeat(1024),
];

/** The counts: one shard, the smallest splits, a round one, and the largest allowed. */
const SHARD_COUNTS = [1, 2, 3, 10, 999, MAX_SHARDS];

/** Every id at every count, with its shard from shardOf. */
export function shardVectors(): ShardVector[] {
  return IDS.flatMap((linkedAccountId) =>
    SHARD_COUNTS.map((shards) => ({ linkedAccountId, shards, shard: shardOf(linkedAccountId, shards) })),
  );
}

if (require.main === module) {
  const options = new Command()
    .option("--out <file>", "where to write the vectors", DEFAULT_SHARD_VECTORS_FILE)
    .parse()
    .opts<{ out: string }>();
  fs.writeFileSync(options.out, `${JSON.stringify(shardVectors(), null, 2)}\n`);
  console.log(`wrote ${shardVectors().length} shard vectors to ${options.out}`);
}

// The shard vectors every SDK's sharding helpers are tested against (contract/shardVectors.json) are
// what the TypeScript shardOf answers now, so the file cannot drift from it: a change to shardOf
// that moves any account fails here, before any SDK's tests read a stale file.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { describe, it } from "mocha";
import { getShard } from "../../provider/functions/shard";
import { shardOf } from "../../provider/sharding";
import { DEFAULT_SHARD_VECTORS_FILE, shardVectors, type ShardVector } from "../../scripts/record-shard-vectors";

const recorded = JSON.parse(fs.readFileSync(DEFAULT_SHARD_VECTORS_FILE, "utf8")) as ShardVector[];

describe("shard vectors (contract/shardVectors.json)", () => {
  it("covers ASCII, accented, emoji and CJK ids, a one-character and a 1 KB id, at 1 to 1,000 shards", () => {
    assert.ok(recorded.length >= 60, `${recorded.length} vectors`);
    const ids = recorded.map((v) => v.linkedAccountId);
    assert.ok(ids.some((id) => /[éü]/.test(id)));
    assert.ok(ids.some((id) => id.includes("🚀")));
    assert.ok(ids.some((id) => /[\u4e00-\u9fff]/.test(id)));
    assert.ok(ids.some((id) => id.length === 1));
    assert.ok(ids.some((id) => Buffer.byteLength(id) >= 1024));
    assert.deepEqual([...new Set(recorded.map((v) => v.shards))], [1, 2, 3, 10, 999, 1000]);
    // Not all in one shard: a port that always answered 0 would pass otherwise.
    assert.ok(new Set(recorded.filter((v) => v.shards === 10).map((v) => v.shard)).size >= 4);
  });

  it("agrees with shardOf on every vector", () => {
    for (const { linkedAccountId, shards, shard } of recorded) {
      assert.equal(shardOf(linkedAccountId, shards), shard, `${JSON.stringify(linkedAccountId)} at ${shards} shards`);
    }
  });

  it("is what `npm run record:shard-vectors` writes", () => {
    assert.deepEqual(recorded, shardVectors());
  });

  it("getShard, the function every SDK has, answers as shardOf with no API key set", async () => {
    // No settings in this process: a lookup that read the platform would fail here for want of a key.
    for (const { linkedAccountId, shards, shard } of recorded.slice(0, 12))
      assert.deepEqual(await getShard({ linkedAccountId, shards }), { shard });
    await assert.rejects(
      getShard({ linkedAccountId: "acme", shards: 0 }),
      /getShard: invalid arguments: shards: must be from 1 to 1000/,
    );
  });
});

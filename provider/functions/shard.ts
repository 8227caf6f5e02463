// The shard of a linked account as a function of the native provider, so that a program in any
// language (YAML above all, which has no code of its own) gets the same answer as shardOf. It is
// computed by the plugin from its arguments: no API key, no call to the platform.
import { documented } from "../documented";
import { z } from "zod";
import { MAX_SHARDS, shardOf } from "../sharding";
import { ArgsOf, defineLookup, type OutputTwin } from "./definition";

/** What getShard returns. */
const ShardResultSchema = z.object(
  documented("ShardResult", {
    /** The account's shard, 0 to shards - 1. */
    shard: z.number().int(),
  }),
);

/** What getShard returns: the account's shard. */
export type GetShardResult = z.output<typeof ShardResultSchema>;

/** getShard, defined once (see definition.ts). */
export const ShardLookup = defineLookup({
  name: "getShard",
  description:
    "The shard (0 to shards - 1) a linked account belongs to among `shards`: a jump consistent hash of its id, " +
    "as every SDK's shardOf computes it. Sends nothing to the platform.",
  args: documented("getShard", {
    /** Your identifier of the account, as resources take it. */
    linkedAccountId: z.string(),
    /** How many shards the workspace is split into, 1 to 1000. */
    shards: z
      .number()
      .int("must be a whole number")
      .min(1, `must be from 1 to ${MAX_SHARDS}`)
      .max(MAX_SHARDS, `must be from 1 to ${MAX_SHARDS}`),
  }),
  result: ShardResultSchema,
  compute: (a) => ({ shard: shardOf(a.linkedAccountId, a.shards) }),
});

/** Arguments of getShard. */
export type GetShardArgs = ArgsOf<typeof ShardLookup.args>;

/**
 * The shard (0 to shards - 1) a linked account belongs to among `shards`: a jump consistent hash of its id, as
 * every SDK's shardOf computes it. Sends nothing to the platform.
 */
export const getShard: (args: GetShardArgs) => Promise<GetShardResult> = ShardLookup.inProgram;

/** getShard, taking Inputs and returning an Output. */
export const getShardOutput: OutputTwin<GetShardArgs, GetShardResult> = ShardLookup.output(getShard);

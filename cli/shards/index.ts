// The `shards` commands' public face, for cli/commands/shards.ts and the tests.
export { moveShards, planMoves, type MoveShardsOptions, type PlannedMove } from "./move";
export { runShards, SHARD_COMMANDS, type RunShardsOptions, type ShardCommand } from "./run";
export { checkTemplate, shardCount, ShardsError, stackName, type ShardStacks, type ShardsIo } from "./stacks";

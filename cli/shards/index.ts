// The `shards` commands' public face, for cli/commands/shards.ts and the tests.
export { moveShards, planMoves, type MoveShardsOptions, type PlannedMove } from "./move";
export { onEveryStack, SHARD_COMMANDS, type EveryStackOptions, type ShardCommand } from "./everyStack";
export {
  buildAdvice,
  checkTemplate,
  commonPoolAdvice,
  heapAdvice,
  javaMajorVersion,
  projectRuntime,
  shardCount,
  shardsAdvice,
  ShardsError,
  stackName,
  type ProjectRuntime,
  type ShardStacks,
  type ShardsIo,
} from "./stacks";
export { describeWaves, parseCanary, parseShares, planWaves, waveBucketOf, WavesError, type Wave } from "./waves";
export {
  changesByAccount,
  rollOut,
  waveTargets,
  type RolloutOptions,
  type RolloutRecord,
  type StackChanges,
} from "./rollout";

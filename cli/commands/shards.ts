// `shards`: its arguments, for running a command on every stack and for `shards move`.
import { parseArgs } from "node:util";
import type { Io } from "../io";
import { moveShards, runShards, SHARD_COMMANDS, shardCount, ShardsError, type ShardCommand } from "../shards";
import { USAGE, UsageError } from "../usage";

/** Runs `shards …`; resolves to the exit status. */
export async function shardsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      shards: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      stack: { type: "string", default: "shard-{shard}" },
      cwd: { type: "string", default: "." },
      "requests-per-second": { type: "string" },
      "expect-no-changes": { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const [command, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`shards takes one command; got ${positionals.map((p) => JSON.stringify(p)).join(", ")}`);
  const stacks = { dir: values.cwd!, template: values.stack! };
  const shardsIo = { stdout: io.stdout, stderr: io.stderr, env: io.env };
  try {
    if (command === "move") {
      await moveShards({ ...stacks, from: shardCount("--from", values.from), to: shardCount("--to", values.to), dryRun: values["dry-run"] }, shardsIo);
      return 0;
    }
    if (!SHARD_COMMANDS.includes(command as ShardCommand)) {
      throw new UsageError(`shards needs a command: ${SHARD_COMMANDS.join(", ")} or move; got ${command === undefined ? "none" : JSON.stringify(command)}`);
    }
    const rate = values["requests-per-second"];
    const requestsPerSecond = rate === undefined ? undefined : Number(rate);
    if (requestsPerSecond !== undefined && !(Number.isFinite(requestsPerSecond) && requestsPerSecond > 0 && requestsPerSecond <= 1000)) {
      throw new UsageError(`--requests-per-second must be a number above 0, at most 1000 (the API key's limit in all); got ${JSON.stringify(rate)}`);
    }
    const options = { ...stacks, command: command as ShardCommand, shards: shardCount("--shards", values.shards), requestsPerSecond, expectNoChanges: values["expect-no-changes"] };
    return (await runShards(options, shardsIo)) > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof ShardsError) throw new UsageError(error.message);
    throw error;
  }
}

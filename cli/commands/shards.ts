// `shards`: its options and help, for running a command on every stack, and `shards move`.
import { Command } from "commander";
import type { Io } from "../io";
import {
  moveShards,
  onEveryStack,
  parseCanary,
  parseShares,
  projectRuntime,
  rollOut,
  SHARD_COMMANDS,
  shardCount,
  shardsAdvice,
  ShardsError,
  type ShardCommand,
} from "../shards";
import { COMMAND, INVOCATION, UsageError } from "../usage";

/** `shards`'s options as commander parsed them, before they are checked. */
interface RunOptions {
  shards?: string;
  stack?: string;
  cwd?: string;
  requestsPerSecond?: string;
  expectNoChanges?: boolean;
  startingAtOnce?: string;
  waves?: string;
  canary?: string;
  check?: string;
  dryRun?: boolean;
  resume?: boolean;
  record?: string;
}

/** Where `shards up --waves` keeps its plan and progress unless --record says otherwise. */
const DEFAULT_RECORD = "rollout.json";

/** `shards move`'s options as commander parsed them, before they are checked. */
interface MoveOptions {
  from?: string;
  to?: string;
  stack?: string;
  cwd?: string;
  dryRun?: boolean;
}

/** The stacks' names when --stack is not given. */
const DEFAULT_STACK = "shard-{shard}";

/** A count of shards that must be given: its absence said as such, not as a bad number. */
function requiredCount(option: string, text: string | undefined, example: string): number {
  if (text === undefined)
    throw new UsageError(`${option} is required: the number of shards (stacks), e.g. ${option} ${example}`);
  return shardCount(option, text);
}

/** Runs `body`, turning a ShardsError (a bad --stack, a failed move) into a usage problem that names it. */
async function shardsProblem<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ShardsError) throw new UsageError(error.message);
    throw error;
  }
}

/** Runs a command on every stack; resolves to the exit status: 1 when any stack failed. */
async function runOnEveryStack(
  command: string | undefined,
  extra: string[],
  values: RunOptions,
  io: Io,
): Promise<number> {
  if (extra.length > 0)
    throw new UsageError(
      `shards takes one command; got ${[command, ...extra].map((p) => JSON.stringify(p)).join(", ")}`,
    );
  if (!SHARD_COMMANDS.includes(command as ShardCommand)) {
    throw new UsageError(
      `shards needs a command: ${SHARD_COMMANDS.join(", ")} or move; got ` +
        `${command === undefined ? "none" : JSON.stringify(command)}`,
    );
  }
  const rate = values.requestsPerSecond;
  const requestsPerSecond = rate === undefined ? undefined : Number(rate);
  if (
    requestsPerSecond !== undefined &&
    !(Number.isFinite(requestsPerSecond) && requestsPerSecond > 0 && requestsPerSecond <= 1000)
  ) {
    throw new UsageError(
      `--requests-per-second must be a number above 0, at most 1000 (the API key's limit in all); got ` +
        `${JSON.stringify(rate)}`,
    );
  }
  return shardsProblem(async () => {
    // A --stack without {shard} names the one stack of an unsharded program: waves work there too.
    const sharded = values.stack === undefined || values.stack.includes("{shard}");
    if (!sharded && values.shards !== undefined && values.shards.trim() !== "1")
      throw new UsageError(
        `--stack ${JSON.stringify(values.stack)} names one stack (no {shard} in it), so --shards is 1 or not given; ` +
          `got --shards ${values.shards}. For several, name them with {shard}, e.g. --stack prod-{shard}`,
      );
    const options = {
      dir: values.cwd ?? ".",
      template: values.stack ?? DEFAULT_STACK,
      command: command as ShardCommand,
      sharded,
      shards: sharded ? requiredCount("--shards", values.shards, "4") : 1,
      requestsPerSecond,
      expectNoChanges: values.expectNoChanges ?? false,
      startingAtOnce:
        values.startingAtOnce === undefined ? undefined : shardCount("--starting-at-once", values.startingAtOnce),
    };
    const shardsIo = { stdout: io.stdout, stderr: io.stderr, env: io.env };
    const runtime = await projectRuntime(options);
    for (const advice of await shardsAdvice(runtime, options.shards, options.command, io.env ?? process.env))
      io.stderr(advice);
    const rollout = [values.waves, values.canary, values.check, values.dryRun, values.resume, values.record];
    if (values.waves === undefined) {
      if (rollout.some((v) => v !== undefined))
        throw new UsageError("--canary, --check, --dry-run, --resume and --record are --waves's: give --waves too");
      return (await onEveryStack(options, shardsIo)) > 0 ? 1 : 0;
    }
    if (command !== "up") throw new UsageError(`--waves rolls out an up; got shards ${command}`);
    if (values.expectNoChanges) throw new UsageError("--waves applies a change: --expect-no-changes contradicts it");
    if (values.check !== undefined && !values.check.trim())
      throw new UsageError("--check must be a command to run after each wave, e.g. --check ./smoke-test.sh");
    return rollOut(
      {
        ...options,
        shares: parseShares(values.waves),
        canary: values.canary === undefined ? [] : parseCanary(values.canary),
        check: values.check,
        dryRun: values.dryRun ?? false,
        resume: values.resume ?? false,
        record: values.record ?? DEFAULT_RECORD,
      },
      shardsIo,
    );
  });
}

/** Re-shards; resolves to the exit status. */
async function move(values: MoveOptions, before: string[], io: Io): Promise<number> {
  // `shards --stack x move` would parse --stack as shards's own option, and move would not see it.
  if (before.length > 0)
    throw new UsageError(
      `give ${before.join(", ")} after \`move\`: e.g. shards move --from 4 --to 5 --stack prod-{shard}`,
    );
  return shardsProblem(async () => {
    const from = requiredCount("--from", values.from, "4");
    const to = requiredCount("--to", values.to, "5");
    await moveShards(
      { dir: values.cwd ?? ".", template: values.stack ?? DEFAULT_STACK, from, to, dryRun: values.dryRun ?? false },
      { stdout: io.stdout, stderr: io.stderr, env: io.env },
    );
    return 0;
  });
}

/** `shards move`: its options and help. */
function moveCommand(io: Io, done: (status: number) => void): Command {
  return new Command("move")
    .summary("Re-shard: move each linked account's resources to its new stack, without a call to the platform.")
    .usage("--from <n> --to <n> [--stack <name>]\n         [--cwd <dir>] [--dry-run]")
    .description(
      "Re-shards from --from to --to stacks: each linked account whose shard changes has its top-level " +
        "resources (and their children) moved to its new stack with `pulumi state move`. Nothing is called on " +
        "the platform, so nothing is deleted, recreated or restored. Missing stacks are created; every stack's " +
        "integration-platform:shards becomes --to. If it stops half way, run it again: it plans from where the " +
        "resources are.",
    )
    .option("--from <n>", "The number of shards now. Required.")
    .option("--to <n>", "The number of shards wanted. Required.")
    .option("--stack <name>", `The stacks' names, ending with {shard} for the number (default ${DEFAULT_STACK}).`)
    .option("--cwd <dir>", "The program's directory (default: the current one).")
    .option("--dry-run", "Print what would move, move nothing.")
    .addHelpText(
      "after",
      `
Example (from 4 to 5 shards, then check that nothing changes):
  ${INVOCATION} shards move --from 4 --to 5 --stack prod-{shard}
  ${INVOCATION} shards preview --shards 5 --stack prod-{shard} --expect-no-changes

Exit status: 0 when every move was made (or, with --dry-run, planned); 2 for bad
usage, or a move that could not be made (the message says how far it got: run it
again); 3 for an unexpected failure.
`,
    )
    .action(async (values: MoveOptions, command: Command) => {
      const parent = command.parent!;
      const before = parent.options
        .filter((o) => parent.getOptionValueSource(o.attributeName()) === "cli")
        .map((o) => o.long!);
      done(await move(values, before, io));
    });
}

/** `shards up --waves`'s options, added to `command` (they are refused without --waves, or on another command). */
function withWaveOptions(command: Command): Command {
  return command
    .option(
      "--waves <shares>",
      "up: roll the change out in waves, e.g. 5%,25%,100%: the resources tied to no linked account first, " +
        "then --canary, then each share of the linked accounts (an account's wave comes from its id, so a " +
        "rerun picks the same ones). Each wave is an up of its accounts' resources alone on every stack at " +
        "once, then a refresh preview of them that must show no change, then --check.",
    )
    .option("--canary <ids>", "up --waves: linked accounts, comma-separated, to change first, in a wave of their own.")
    .option(
      "--check <command>",
      "up --waves: run after each wave, through the shell, with INTEGRATION_PLATFORM_WAVE (its name), " +
        "INTEGRATION_PLATFORM_WAVE_NUMBER and INTEGRATION_PLATFORM_WAVE_ACCOUNTS_FILE (its linked accounts, " +
        "one a line) set; a non-zero exit stops the rollout before the next wave.",
    )
    .option("--dry-run", "up --waves: print the waves, apply nothing.")
    .option("--resume", "up --waves: go on from the wave where the last rollout stopped (its --record).")
    .option("--record <file>", `up --waves: where the plan and the progress are kept (default ${DEFAULT_RECORD}).`);
}

/** `shards` and `shards move`: their options and help; the actions hand their exit status to `done`. */
export function shardsCommand(io: Io, done: (status: number) => void): Command {
  return withWaveOptions(
    new Command("shards")
      .summary(
        "Run up, preview, refresh or destroy on every stack of a sharded program at once; `shards move` re-shards.",
      )
      .usage(
        "<up | preview | refresh | destroy> --shards <n>\n         [--stack <name>] [--cwd <dir>] " +
          "[--requests-per-second <n>]\n         [--expect-no-changes] [--starting-at-once <n>]\n         " +
          "[--waves <shares> [--canary <ids>] [--check <command>] [--dry-run] [--resume] [--record <file>]]",
      )
      .description(
        "Runs a command on every stack of a sharded program at once (docs/guides/scaling.md), through Pulumi's " +
          "Automation API and the `pulumi` on PATH, each stack's output prefixed with its name. Stack i is named " +
          "by --stack with {shard} replaced by i (the program reads its shard from the end of the name); `up` " +
          "and `preview`, which run the program, create missing stacks and set integration-platform:shards in " +
          "each stack's config. The connection comes from each stack's config or the environment, as the " +
          "provider's does.",
      )
      .argument("[command]", `${SHARD_COMMANDS.join(", ")}; or move, to re-shard (\`${COMMAND} shards move --help\`).`)
      .option("--shards <n>", "How many shards (stacks). Required, unless --stack names one stack.")
      .option(
        "--stack <name>",
        `The stacks' names, ending with {shard} for the number (default ${DEFAULT_STACK}); a name without ` +
          "{shard} is the one stack of a program that is not sharded (its config is left as it is), e.g. for " +
          "up --waves.",
      )
      .option("--cwd <dir>", "The program's directory (default: the current one).")
      .option(
        "--requests-per-second <n>",
        "What the API key allows in all (default: INTEGRATION_PLATFORM_REQUESTS_PER_SECOND, else 20): every " +
          "stack takes its turns at one pacer of that rate, so that together they stay within the platform's " +
          "limit (should the pacer stop answering, each paces itself to an equal part). A stack whose config " +
          "sets requestsPerSecond keeps it.",
      )
      .option("--expect-no-changes", "Fail a stack whose up, preview or refresh would change anything.")
      .option(
        "--starting-at-once <n>",
        "up, refresh and destroy: how many stacks may be starting at once, before their first request " +
          "(default: the machine's CPUs). A program builds all its resources on the CPU before it sends " +
          "anything, and every stack's engine loads its state and plugins; a stack that has sent its first " +
          "request is paced by the limit and makes room for the next. preview starts every stack at once.",
      )
      // Stray words are refused by runOnEveryStack, in words that name the commands.
      .allowExcessArguments()
      // `shards move --stack x`: options after `move` are move's, not shards's.
      .enablePositionalOptions()
      // `shards help` is no command; `shards --help` and `shards move --help` are the help.
      .helpCommand(false)
      .addHelpText(
        "after",
        `
Example (a sharded program's four stacks):
  ${INVOCATION} shards preview --shards 4 --stack prod-{shard}
  ${INVOCATION} shards up --shards 4 --stack prod-{shard}

Example (a change in waves: two canary accounts, then 25%, then all):
  ${INVOCATION} shards up --shards 4 --stack prod-{shard} --waves 25%,100% \\
    --canary acme,globex --check ./smoke-test.sh

Example (the same for a program of one stack, prod):
  ${INVOCATION} shards up --stack prod --waves 5%,100% --canary acme

Exit status: 0 when every stack succeeded; 1 when any failed (each one's error
is shown), or a wave's up or check failed (the rollout stopped: --resume goes
on); 2 for bad usage; 3 for an unexpected failure.
`,
      )
      .action(async (command: string | undefined, values: RunOptions, self: Command) =>
        done(await runOnEveryStack(command, self.args.slice(1), values, io)),
      )
      .addCommand(moveCommand(io, done)),
  );
}

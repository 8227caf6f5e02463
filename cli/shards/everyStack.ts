// `shards <command>`: the stacks of a sharded program run at once through Pulumi's Automation API,
// each paced to an equal part of the one API key's limit.
import * as os from "node:os";
import type { EngineEvent, Stack, StepEventMetadata } from "@pulumi/pulumi/automation";
import { RATE_BROKER_ENV, startRateBroker } from "../../provider/client/rateBroker";
import { DEFAULT_REQUESTS_PER_SECOND, SETTINGS } from "../../provider/settings";
import {
  checkTemplate,
  lastLines,
  ShardsError,
  shardStack,
  stackName,
  type ShardStacks,
  type ShardsIo,
} from "./stacks";

/** What `shards` runs on each stack. */
export const SHARD_COMMANDS = ["up", "preview", "refresh", "destroy"] as const;
/** One of SHARD_COMMANDS. */
export type ShardCommand = (typeof SHARD_COMMANDS)[number];
/**
 * The commands that run the program, which reads the shard count from each stack's config (refresh and
 * destroy do not).
 */
const RUNS_PROGRAM: ReadonlySet<ShardCommand> = new Set(["up", "preview"]);
/**
 * The commands whose time is their paced requests: their stacks start a few at a time. A preview makes no
 * request to wait on, so all its stacks start at once and share the CPU to the end.
 */
const STARTS_BY_TURNS: ReadonlySet<ShardCommand> = new Set(["up", "refresh", "destroy"]);

/** Calls `write` with each whole line of a stream of chunks; `flush` writes what is left. */
function lines(write: (line: string) => void) {
  let pending = "";
  return {
    push(chunk: string) {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop()!;
      for (const part of parts) write(part);
    },
    flush() {
      if (pending) write(pending);
      pending = "";
    },
  };
}

/** Options of `shards <command>`. */
export interface EveryStackOptions extends ShardStacks {
  command: ShardCommand;
  shards: number;
  /**
   * False for a program of one stack, named by `template` as it is (no `{shard}`): its config is left
   * as it is, without integration-platform:shards (default true).
   */
  sharded?: boolean;
  /**
   * What the API key allows in all (default: the environment's
   * INTEGRATION_PLATFORM_REQUESTS_PER_SECOND, else 20); each shard gets an equal part.
   */
  requestsPerSecond?: number;
  /** Fail when the command would change anything (preview, up and refresh). */
  expectNoChanges?: boolean;
  /**
   * `up`, `refresh` and `destroy`: how many stacks may be starting at once, before their first request
   * (default: the machine's CPUs, os.availableParallelism); a stack starts once one of those has made
   * its first request or ended. `preview` starts every stack at once.
   */
  startingAtOnce?: number;
  /**
   * Per shard, the URNs to act on alone (`--target`): a rollout's wave. A stack whose list is empty
   * is skipped.
   */
  targets?: string[][];
  /** preview: refresh first, so that the preview compares the program with what the platform holds. */
  refresh?: boolean;
  /** refresh: read and compare only, writing nothing to state (`pulumi refresh --preview-only`). */
  previewOnly?: boolean;
  /** preview: each step the engine would take on shard `shard`, as it reports it. */
  onStep?: (shard: number, step: StepEventMetadata) => void;
  /** Leave out the stacks' own output (a wave's preview is read for its steps, not shown). */
  quiet?: boolean;
}

/** At most `size` holders at once: `enter` waits for a free place, `leave` gives one back. */
class Places {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async enter(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** What the Automation API options of every command share. */
interface CommandOptions {
  onOutput: (chunk: string) => void;
  color: "never";
  expectNoChanges?: boolean;
  target?: string[];
  refresh?: boolean;
  previewOnly?: boolean;
  onEvent?: (event: EngineEvent) => void;
}

/** Each command through the Automation API; resolves to its counts of changes by kind. */
const AUTOMATION: Record<
  ShardCommand,
  (stack: Stack, options: CommandOptions) => Promise<Record<string, number> | undefined>
> = {
  up: async (stack, options) => (await stack.up(options)).summary.resourceChanges,
  preview: async (stack, options) => (await stack.preview(options)).changeSummary,
  refresh: async (stack, { refresh: _, previewOnly, ...options }) =>
    previewOnly
      ? (await stack.previewRefresh(options)).changeSummary
      : (await stack.refresh(options)).summary.resourceChanges,
  destroy: async (stack, { expectNoChanges: _, refresh: __, previewOnly: ___, ...options }) =>
    (await stack.destroy(options)).summary.resourceChanges,
};

/**
 * Runs `command` on every shard's stack at once (`up`, `refresh`, `destroy`: `startingAtOnce` starting
 * at a time, each next once one has made its first request) and waits for all of them; resolves to the number
 * of stacks whose command failed. Every stack takes its requests' turns at one pacer of the key's
 * whole limit, served here (rateBroker.ts): a stack that is done leaves its part to the others.
 * Should that pacer be unreachable, each paces itself to an equal part (a stack whose config sets
 * requestsPerSecond keeps it).
 */
export async function onEveryStack(options: EveryStackOptions, io: ShardsIo): Promise<number> {
  const sharded = options.sharded ?? true;
  if (sharded) checkTemplate(options.template);
  else if (options.shards !== 1)
    throw new ShardsError(`--stack ${options.template} names one stack: give --shards 1, or none`);
  const env = io.env ?? process.env;
  const total =
    options.requestsPerSecond ?? (Number(env[SETTINGS.requestsPerSecond.env]) || DEFAULT_REQUESTS_PER_SECOND);
  const names = Array.from({ length: options.shards }, (_, i) => stackName(options.template, i));
  const broker = await startRateBroker(total);
  const envVars = (shard: number) => ({
    [SETTINGS.requestsPerSecond.env]: String(total / options.shards),
    [RATE_BROKER_ENV]: broker.urlFor(shard),
    // `pulumi refresh --preview-only` refuses to run where CI skips confirmations (it reads that as --yes).
    ...(options.previewOnly ? { PULUMI_SKIP_CONFIRMATIONS: "false" } : {}),
  });
  // `up`'s programs build every resource before their first request, on the CPU: ten at once on two
  // cores made the first request wait 120 s where one alone makes it in 20 (BENCHMARKS.md, 2026-11-28);
  // ten refreshes' engines, state and plugins, 19 s. A stack that sends is paced and leaves the CPU to the next.
  const starting = STARTS_BY_TURNS.has(options.command)
    ? Math.min(options.shards, options.startingAtOnce ?? os.availableParallelism())
    : options.shards;
  const places = new Places(starting);
  const atATime = starting < options.shards ? ` (${starting} starting at a time)` : "";
  io.stderr(
    sharded
      ? `shards: ${options.command} on ${options.shards} stacks (${names[0]} to ${names[names.length - 1]}) at ` +
          `once${atATime}, sharing ${fmt(total)} requests/s\n`
      : `shards: ${options.command} on the stack ${names[0]}, at ${fmt(total)} requests/s\n`,
  );

  const results = await Promise.allSettled(
    names.map(async (name, shard) => {
      if (options.targets?.[shard]?.length === 0) return undefined;
      await places.enter();
      let left = false;
      const leave = () => {
        if (!left) places.leave();
        left = true;
      };
      void broker.firstTurn(shard).then(leave);
      // Setting the count is one `pulumi config set` per stack before its first call: only where the program reads it.
      const count = sharded && RUNS_PROGRAM.has(options.command) ? options.shards : undefined;
      const out = lines((line) => (options.quiet ? undefined : io.stdout(`[${name}] ${line}\n`)));
      try {
        const stack = await shardStack(options, shard, count, envVars(shard), options.command !== "destroy");
        const started = Date.now();
        const changes = await AUTOMATION[options.command](
          stack,
          commandOptions(options, shard, (chunk) => out.push(chunk)),
        );
        return { changes, seconds: (Date.now() - started) / 1000 };
      } finally {
        leave();
        out.flush();
      }
    }),
  );
  await broker.close();
  return report(results, names, options, io);
}

/** One stack's command's Automation API options: its output, and a wave's targets and steps. */
function commandOptions(options: EveryStackOptions, shard: number, onOutput: (chunk: string) => void): CommandOptions {
  const target = options.targets?.[shard];
  const onStep = options.onStep;
  return {
    onOutput,
    color: "never",
    expectNoChanges: options.expectNoChanges,
    ...(target ? { target } : {}),
    ...(options.refresh ? { refresh: true } : {}),
    ...(options.previewOnly ? { previewOnly: true } : {}),
    ...(onStep
      ? { onEvent: (event: EngineEvent) => event.resourcePreEvent && onStep(shard, event.resourcePreEvent.metadata) }
      : {}),
  };
}

/** Prints each stack's outcome and the count; returns the number of stacks whose command failed. */
function report(
  results: PromiseSettledResult<{ changes?: Record<string, number>; seconds: number } | undefined>[],
  names: string[],
  options: EveryStackOptions,
  io: ShardsIo,
): number {
  let failed = 0;
  let skipped = 0;
  for (const [i, result] of results.entries()) {
    if (result.status === "fulfilled") {
      const done = result.value;
      if (done === undefined) {
        skipped++;
        continue;
      }
      const changes = Object.entries(done.changes ?? {})
        .map(([op, n]) => `${n} ${op}`)
        .join(", ");
      io.stderr(
        `shards: ${names[i]}: ${options.command} succeeded in ${done.seconds.toFixed(1)} s ` +
          `(${changes || "no changes"})\n`,
      );
    } else {
      failed++;
      io.stderr(
        `shards: ${names[i]}: ${options.command} failed: ` +
          `${lastLines(String((result.reason as Error)?.message ?? result.reason))}\n`,
      );
    }
  }
  const ran = options.shards - skipped;
  io.stderr(
    `shards: ${ran - failed} of ${ran} stacks succeeded` +
      (skipped > 0 ? ` (${skipped} with nothing to do skipped)` : "") +
      "\n",
  );
  return failed;
}

/** A rate with at most two decimals. */
const fmt = (n: number) => String(Math.round(n * 100) / 100);

// `shards move`: re-shards by moving each linked account's resources to the stack its id now maps
// to, with `pulumi state move`: no call to the platform, so nothing is deleted, created or restored.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { shardOf } from "../../provider/sharding";
import {
  checkTemplate,
  lastLines,
  placeStack,
  shardStack,
  ShardsError,
  stackName,
  type ShardStacks,
  type ShardsIo,
} from "./stacks";

/** The parts of an exported state that re-sharding reads. */
interface StateResource {
  urn: string;
  type: string;
  parent?: string;
  inputs?: Record<string, unknown>;
}

/** One linked account's resources in a stack: the top-level resources that hold them (their children go along). */
export interface PlannedMove {
  from: number;
  to: number;
  linkedAccountId: string;
  urns: string[];
}

/**
 * Plans which top-level resources of shard `from`'s state move to which shard when the workspace
 * goes to `shards` shards. A top-level resource (a child of the stack) goes with the one linked
 * account its tree names in `linkedAccountId` inputs; one without any stays; one naming two
 * accounts cannot be placed and is an error.
 */
export function planMoves(
  from: number,
  resources: StateResource[],
  shards: number,
): { moves: PlannedMove[]; unplaced: string[] } {
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const isStack = (r: StateResource | undefined) => r?.type === "pulumi:pulumi:Stack";
  const topOf = (r: StateResource): StateResource => {
    let current = r;
    for (
      let parent = byUrn.get(current.parent ?? "");
      parent && !isStack(parent);
      parent = byUrn.get(current.parent ?? "")
    )
      current = parent;
    return current;
  };
  const accounts = new Map<string, Set<string>>();
  for (const r of resources) {
    if (isStack(r) || r.type.startsWith("pulumi:providers:")) continue;
    const top = topOf(r).urn;
    const ids = accounts.get(top) ?? new Set<string>();
    accounts.set(top, ids);
    const id = r.inputs?.linkedAccountId;
    if (typeof id === "string") ids.add(id);
  }
  const moves = new Map<string, PlannedMove>();
  const unplaced: string[] = [];
  for (const [urn, ids] of accounts) {
    if (ids.size > 1)
      throw new ShardsError(
        `${urn} holds resources of ${ids.size} linked accounts (${[...ids].slice(0, 3).join(", ")}…), ` +
          "so it cannot follow one to its shard: give each linked account a top-level resource of its own",
      );
    const [id] = [...ids];
    if (id === undefined) {
      unplaced.push(urn);
      continue;
    }
    const to = shardOf(id, shards);
    if (to === from) continue;
    const move = moves.get(id) ?? { from, to, linkedAccountId: id, urns: [] };
    move.urns.push(urn);
    moves.set(id, move);
  }
  return { moves: [...moves.values()], unplaced };
}

/** Options of `shards move`. */
export interface MoveShardsOptions extends ShardStacks {
  from: number;
  to: number;
  /** Print the plan, move nothing. */
  dryRun?: boolean;
}

/** URNs per `pulumi state move` call: well under the kernel's limit on a command line. */
const URNS_PER_MOVE = 400;

/** The current stacks, shard 0 first; one that cannot be selected stops the move before anything changes. */
async function sourceStacks(options: MoveShardsOptions, envVars: Record<string, string>): Promise<Stack[]> {
  const source: Stack[] = [];
  for (let i = 0; i < options.from; i++)
    source.push(
      await shardStack(options, i, undefined, envVars, false).catch((error: Error) => {
        const stack = `${stackName(options.template, i)}, shard ${i} of ${options.from}`;
        throw new ShardsError(`cannot select stack ${stack}: ${lastLines(error.message)}`);
      }),
    );
  return source;
}

/** The moves of every current stack, grouped by pair of stacks, and what no linked account places. */
async function planAll(source: Stack[], to: number) {
  const plans: PlannedMove[] = [];
  const unplaced: string[] = [];
  for (const [i, stack] of source.entries()) {
    const state = await stack.exportStack();
    const planned = planMoves(i, (state.deployment?.resources ?? []) as StateResource[], to);
    plans.push(...planned.moves);
    if (i >= to) unplaced.push(...planned.unplaced);
  }
  const pairs = new Map<string, PlannedMove[]>();
  for (const move of plans)
    pairs.set(`${move.from}>${move.to}`, [...(pairs.get(`${move.from}>${move.to}`) ?? []), move]);
  return { plans, pairs, unplaced };
}

/** The plan on stderr: per pair of stacks, how many linked accounts move (the first five named). */
function reportPlan(options: MoveShardsOptions, planned: Awaited<ReturnType<typeof planAll>>, io: ShardsIo): void {
  const { from, to, template } = options;
  io.stderr(`shards: ${from} to ${to} shards: ${planned.plans.length} linked accounts move\n`);
  for (const group of planned.pairs.values()) {
    const named = group.slice(0, 5).map((m) => m.linkedAccountId);
    const accounts = `${named.join(", ")}${group.length > 5 ? ", …" : ""}`;
    const pair = `${stackName(template, group[0].from)} -> ${stackName(template, group[0].to)}`;
    io.stderr(`  ${pair}: ${group.length} (${accounts})\n`);
  }
  const { unplaced } = planned;
  if (unplaced.length > 0) {
    io.stderr(
      `shards: ${unplaced.length} resources without a linked account stay in stacks that ${to} shards no longer use; ` +
        `move them with \`pulumi state move\` or destroy them:\n${unplaced
          .slice(0, 10)
          .map((u) => `  ${u}\n`)
          .join("")}`,
    );
  }
}

/** Runs `pulumi state move` for one pair of stacks, a bounded number of URNs per call. */
async function moveGroup(
  pulumi: string,
  group: PlannedMove[],
  options: MoveShardsOptions,
  io: ShardsIo,
): Promise<void> {
  const run = promisify(execFile);
  const urns = group.flatMap((m) => m.urns);
  const source = stackName(options.template, group[0].from);
  const dest = stackName(options.template, group[0].to);
  for (let at = 0; at < urns.length; at += URNS_PER_MOVE) {
    const args = ["state", "move", "--source", source, "--dest", dest, "--yes", "--non-interactive"];
    args.push("--color", "never", ...urns.slice(at, at + URNS_PER_MOVE));
    try {
      await run(pulumi, args, {
        cwd: path.resolve(options.dir),
        env: io.env ?? process.env,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw moveFailed(`${stdout ?? ""}\n${stderr ?? ""}`, { source, dest, at, of: urns.length, from: options.from });
    }
  }
}

/** Why a `pulumi state move` failed, and how to go on: the same `shards move` again. */
function moveFailed(
  output: string,
  where: { source: string; dest: string; at: number; of: number; from: number },
): ShardsError {
  // The default provider's inputs in state are the stack's config when it was last updated; the move needs them equal.
  const why = /provider \S+ already exists in destination stack/.test(output)
    ? "\nThe two stacks' states hold different config. Give every shard's stack the same config, run " +
      `\`shards up --shards ${where.from}\` so that their states hold it, then move again.`
    : "";
  return new ShardsError(
    `pulumi state move from ${where.source} to ${where.dest} failed after ${where.at} of ${where.of} resources ` +
      `moved: ${lastLines(output)}${why}\n` +
      "Run the same `shards move` again: resources already moved are planned from their new stack.",
  );
}

/**
 * Re-shards from `from` to `to` stacks: plans the moves from every current stack's state, runs
 * `pulumi state move` for each pair of stacks, then sets every remaining stack's shard count.
 * Resolves to the number of linked accounts moved.
 */
export async function moveShards(options: MoveShardsOptions, io: ShardsIo): Promise<number> {
  checkTemplate(options.template);
  const { from, to } = options;
  const envVars: Record<string, string> = {};
  const source = await sourceStacks(options, envVars);
  const planned = await planAll(source, to);
  reportPlan(options, planned, io);
  if (options.dryRun) return planned.plans.length;

  // The destination stacks exist before anything moves; new ones start with their place in config.
  const stacks = new Map<number, Stack>(source.entries());
  for (let i = from; i < to; i++) {
    stacks.set(i, await shardStack(options, i, to, envVars, true));
    io.stderr(
      `shards: created stack ${stackName(options.template, i)}; it takes its connection from the environment, ` +
        "or give it the others' stack config\n",
    );
  }
  // `pulumi state move` has no Automation API call: run the CLI that the Automation API uses.
  const pulumi = source[0].workspace.pulumiCommand.command;
  for (const group of planned.pairs.values()) await moveGroup(pulumi, group, options, io);
  for (let i = 0; i < to; i++) await placeStack(stacks.get(i)!, to);
  io.stderr(
    `shards: moved ${planned.plans.length} linked accounts; every stack now says ${to} shards. ` +
      `\`shards preview --shards ${to}\` should show no changes.\n`,
  );
  return planned.plans.length;
}

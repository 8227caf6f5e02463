// `shards`: the stacks of a sharded program (docs/guides/scaling.md) run at once, on one API key,
// through Pulumi's Automation API; and `shards move`, which re-shards by moving each linked
// account's resources to the stack its id now maps to, with `pulumi state move`: no call to the
// platform, so nothing is deleted, created or restored.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_REQUESTS_PER_SECOND, SETTINGS } from "../provider/settings";
import { MAX_SHARDS, SHARDS_SETTING, shardOf } from "../provider/sharding";

/** What `shards` runs on each stack. */
export const SHARD_COMMANDS = ["up", "preview", "refresh", "destroy"] as const;
/** One of SHARD_COMMANDS. */
export type ShardCommand = (typeof SHARD_COMMANDS)[number];

/** Where the shards' stacks are and how they are named. */
export interface ShardStacks {
  /** The program's directory (holds Pulumi.yaml). */
  dir: string;
  /** The stack name of shard i: `{shard}` in it is replaced by i, e.g. `prod-{shard}`. */
  template: string;
}

/** Where `shards` prints: each stack's output line by line, prefixed with the stack's name. */
export interface ShardsIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The environment the stacks' commands run with (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A problem with the options or the stacks, said in the command's words: exit status 2. */
export class ShardsError extends Error {}

/** Shard i's stack name. */
export function stackName(template: string, shard: number): string {
  return template.replaceAll("{shard}", String(shard));
}

/** Checks a `--stack` template: the shard's number ends each name, where the program reads it (stackShard). */
export function checkTemplate(template: string): void {
  if (!/(^|[^0-9{])\{shard\}$/.test(template) || template.indexOf("{shard}") !== template.length - "{shard}".length) {
    throw new ShardsError(`--stack must end with {shard}, which becomes each shard's number (the program reads it from the end of the stack's name), e.g. --stack prod-{shard}; got ${JSON.stringify(template)}`);
  }
}

/** Checks a number of shards given on the command line. */
export function shardCount(option: string, text: string | undefined): number {
  const value = Number(text?.trim());
  if (text === undefined || !/^\d+$/.test(text.trim()) || value < 1 || value > MAX_SHARDS) {
    throw new ShardsError(`${option} must be a whole number of shards from 1 to ${MAX_SHARDS}; got ${JSON.stringify(text)}`);
  }
  return value;
}

// Loaded when a `shards` command runs: the Automation API is not needed to summarize or import.
async function automation() {
  return import("@pulumi/pulumi/automation");
}

/** Selects shard i's stack (creating it when `create`); with `shards`, sets their count in its config. */
async function shardStack(stacks: ShardStacks, shard: number, shards: number | undefined, envVars: Record<string, string>, create: boolean): Promise<Stack> {
  const { LocalWorkspace } = await automation();
  const args = { stackName: stackName(stacks.template, shard), workDir: path.resolve(stacks.dir) };
  const stack = create ? await LocalWorkspace.createOrSelectStack(args, { envVars }) : await LocalWorkspace.selectStack(args, { envVars });
  if (shards !== undefined) await placeStack(stack, shards);
  return stack;
}

// Only the count: every shard's config stays the same, as `pulumi state move` needs (stackShard).
function placeStack(stack: Stack, shards: number): Promise<void> {
  return stack.setConfig(SHARDS_SETTING, { value: String(shards) });
}

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
export interface RunShardsOptions extends ShardStacks {
  command: ShardCommand;
  shards: number;
  /** What the API key allows in all (default: the environment's INTEGRATION_PLATFORM_REQUESTS_PER_SECOND, else 20); each shard gets an equal part. */
  requestsPerSecond?: number;
  /** Fail when the command would change anything (preview, up and refresh). */
  expectNoChanges?: boolean;
}

/** What the Automation API options of every command share. */
interface CommandOptions {
  onOutput: (chunk: string) => void;
  color: "never";
  expectNoChanges?: boolean;
}

/** Each command through the Automation API; resolves to its counts of changes by kind. */
const RUN: Record<ShardCommand, (stack: Stack, options: CommandOptions) => Promise<Record<string, number> | undefined>> = {
  up: async (stack, options) => (await stack.up(options)).summary.resourceChanges,
  preview: async (stack, options) => (await stack.preview(options)).changeSummary,
  refresh: async (stack, options) => (await stack.refresh(options)).summary.resourceChanges,
  destroy: async (stack, { expectNoChanges: _, ...options }) => (await stack.destroy(options)).summary.resourceChanges,
};

/**
 * Runs `command` on every shard's stack at once and waits for all of them; resolves to the number
 * of stacks whose command failed. Each stack paces itself to an equal part of the key's limit, so
 * together they stay within it without a 429 (a stack whose config sets requestsPerSecond keeps it).
 */
export async function runShards(options: RunShardsOptions, io: ShardsIo): Promise<number> {
  checkTemplate(options.template);
  const env = io.env ?? process.env;
  const total = options.requestsPerSecond ?? (Number(env[SETTINGS.requestsPerSecond.env]) || DEFAULT_REQUESTS_PER_SECOND);
  const envVars = { [SETTINGS.requestsPerSecond.env]: String(total / options.shards) };
  const names = Array.from({ length: options.shards }, (_, i) => stackName(options.template, i));
  io.stderr(`shards: ${options.command} on ${options.shards} stacks (${names[0]} to ${names[names.length - 1]}) at once, ${fmt(total / options.shards)} requests/s each (${fmt(total)} in all)\n`);

  const results = await Promise.allSettled(
    names.map(async (name, shard) => {
      const stack = await shardStack(options, shard, options.shards, envVars, options.command !== "destroy");
      const out = lines((line) => io.stdout(`[${name}] ${line}\n`));
      const common = { onOutput: (chunk: string) => out.push(chunk), color: "never" as const };
      const started = Date.now();
      try {
        const changes = await RUN[options.command](stack, { ...common, expectNoChanges: options.expectNoChanges });
        return { changes, seconds: (Date.now() - started) / 1000 };
      } finally {
        out.flush();
      }
    }),
  );

  let failed = 0;
  for (const [i, result] of results.entries()) {
    if (result.status === "fulfilled") {
      const changes = Object.entries(result.value.changes ?? {}).map(([op, n]) => `${n} ${op}`).join(", ");
      io.stderr(`shards: ${names[i]}: ${options.command} succeeded in ${result.value.seconds.toFixed(1)} s (${changes || "no changes"})\n`);
    } else {
      failed++;
      io.stderr(`shards: ${names[i]}: ${options.command} failed: ${lastLines(String((result.reason as Error)?.message ?? result.reason))}\n`);
    }
  }
  io.stderr(`shards: ${options.shards - failed} of ${options.shards} stacks succeeded\n`);
  return failed;
}

const fmt = (n: number) => String(Math.round(n * 100) / 100);

/** The last lines of an error that quotes a whole command's output: the part that says why. */
function lastLines(text: string): string {
  const kept = text.trim().split("\n").filter((line) => line.trim() !== "");
  return kept.slice(-12).join("\n  ");
}

/** The parts of an exported state that re-sharding reads. */
interface StateResource {
  urn: string;
  type: string;
  parent?: string;
  inputs?: Record<string, unknown>;
}

/** One linked account's resources in a stack: the top-level resources that hold them (their children move with them). */
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
export function planMoves(from: number, resources: StateResource[], shards: number): { moves: PlannedMove[]; unplaced: string[] } {
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const isStack = (r: StateResource | undefined) => r?.type === "pulumi:pulumi:Stack";
  const topOf = (r: StateResource): StateResource => {
    let current = r;
    for (let parent = byUrn.get(current.parent ?? ""); parent && !isStack(parent); parent = byUrn.get(current.parent ?? "")) current = parent;
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
    if (ids.size > 1) throw new ShardsError(`${urn} holds resources of ${ids.size} linked accounts (${[...ids].slice(0, 3).join(", ")}…), so it cannot follow one to its shard: give each linked account a top-level resource of its own`);
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

/**
 * Re-shards from `from` to `to` stacks: plans the moves from every current stack's state, runs
 * `pulumi state move` for each pair of stacks, then sets every remaining stack's shard count.
 * Resolves to the number of linked accounts moved.
 */
export async function moveShards(options: MoveShardsOptions, io: ShardsIo): Promise<number> {
  checkTemplate(options.template);
  const { from, to } = options;
  const envVars: Record<string, string> = {};
  const source: Stack[] = [];
  for (let i = 0; i < from; i++) source.push(await shardStack(options, i, undefined, envVars, false).catch((error: Error) => {
    throw new ShardsError(`cannot select stack ${stackName(options.template, i)}, shard ${i} of ${from}: ${lastLines(error.message)}`);
  }));

  const plans: PlannedMove[] = [];
  const unplaced: string[] = [];
  for (const [i, stack] of source.entries()) {
    const state = await stack.exportStack();
    const planned = planMoves(i, (state.deployment?.resources ?? []) as StateResource[], to);
    plans.push(...planned.moves);
    if (i >= to) unplaced.push(...planned.unplaced);
  }
  const pairs = new Map<string, PlannedMove[]>();
  for (const move of plans) pairs.set(`${move.from}>${move.to}`, [...(pairs.get(`${move.from}>${move.to}`) ?? []), move]);
  io.stderr(`shards: ${from} to ${to} shards: ${plans.length} linked accounts move\n`);
  for (const group of pairs.values()) {
    io.stderr(`  ${stackName(options.template, group[0].from)} -> ${stackName(options.template, group[0].to)}: ${group.length} (${group.slice(0, 5).map((m) => m.linkedAccountId).join(", ")}${group.length > 5 ? ", …" : ""})\n`);
  }
  if (unplaced.length > 0) {
    io.stderr(`shards: ${unplaced.length} resources without a linked account stay in stacks that ${to} shards no longer use; move them with \`pulumi state move\` or destroy them:\n${unplaced.slice(0, 10).map((u) => `  ${u}\n`).join("")}`);
  }
  if (options.dryRun) return plans.length;

  // The destination stacks exist before anything moves; new ones start with their place in config.
  const stacks = new Map<number, Stack>(source.entries());
  for (let i = from; i < to; i++) {
    stacks.set(i, await shardStack(options, i, to, envVars, true));
    io.stderr(`shards: created stack ${stackName(options.template, i)}; it takes its connection from the environment, or give it the others' stack config\n`);
  }
  // `pulumi state move` has no Automation API call: run the CLI that the Automation API uses.
  const pulumi = source[0].workspace.pulumiCommand.command;
  const run = promisify(execFile);
  for (const group of pairs.values()) {
    const urns = group.flatMap((m) => m.urns);
    for (let at = 0; at < urns.length; at += URNS_PER_MOVE) {
      const args = ["state", "move", "--source", stackName(options.template, group[0].from), "--dest", stackName(options.template, group[0].to), "--yes", "--non-interactive", "--color", "never", ...urns.slice(at, at + URNS_PER_MOVE)];
      try {
        await run(pulumi, args, { cwd: path.resolve(options.dir), env: io.env ?? process.env, maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        const { stderr, stdout } = error as { stderr?: string; stdout?: string };
        const output = `${stdout ?? ""}\n${stderr ?? ""}`;
        // The default provider's inputs in state are the stack's config when it was last updated; the move needs them equal.
        const why = /provider \S+ already exists in destination stack/.test(output)
          ? `\nThe two stacks' states hold different config. Give every shard's stack the same config, run \`shards up --shards ${from}\` so that their states hold it, then move again.`
          : "";
        throw new ShardsError(`pulumi state move from ${args[3]} to ${args[5]} failed after ${at} of ${urns.length} resources moved: ${lastLines(output)}${why}\nRun the same \`shards move\` again: resources already moved are planned from their new stack.`);
      }
    }
  }
  for (let i = 0; i < to; i++) await placeStack(stacks.get(i)!, to);
  io.stderr(`shards: moved ${plans.length} linked accounts; every stack now says ${to} shards. \`shards preview --shards ${to}\` should show no changes.\n`);
  return plans.length;
}

// The stacks of a sharded program (docs/guides/scaling.md): their names, and selecting them
// through Pulumi's Automation API; what `shards` and `shards move` share.
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { MAX_SHARDS, SHARDS_SETTING } from "../../provider/sharding";

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
    throw new ShardsError(
      `--stack must end with {shard}, which becomes each shard's number (the program reads it from the end of ` +
        `the stack's name), e.g. --stack prod-{shard}; got ${JSON.stringify(template)}`,
    );
  }
}

/** Checks a number of shards given on the command line. */
export function shardCount(option: string, text: string | undefined): number {
  const value = Number(text?.trim());
  if (text === undefined || !/^\d+$/.test(text.trim()) || value < 1 || value > MAX_SHARDS) {
    throw new ShardsError(
      `${option} must be a whole number of shards from 1 to ${MAX_SHARDS}; got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/** The Automation API, loaded when a `shards` command runs: summarize and import do not need it. */
async function automation() {
  return import("@pulumi/pulumi/automation");
}

/** Selects shard i's stack (creating it when `create`); with `shards`, sets their count in its config. */
export async function shardStack(
  stacks: ShardStacks,
  shard: number,
  shards: number | undefined,
  envVars: Record<string, string>,
  create: boolean,
): Promise<Stack> {
  const { LocalWorkspace } = await automation();
  const args = { stackName: stackName(stacks.template, shard), workDir: path.resolve(stacks.dir) };
  const stack = create
    ? await LocalWorkspace.createOrSelectStack(args, { envVars })
    : await LocalWorkspace.selectStack(args, { envVars });
  if (shards !== undefined) await placeStack(stack, shards);
  return stack;
}

/**
 * Sets the shard count in a stack's config: only the count, since `pulumi state move` needs every
 * shard's config the same.
 */
export function placeStack(stack: Stack, shards: number): Promise<void> {
  return stack.setConfig(SHARDS_SETTING, { value: String(shards) });
}

/** The last lines of an error that quotes a whole command's output: the part that says why. */
export function lastLines(text: string): string {
  const kept = text
    .trim()
    .split("\n")
    .filter((line) => line.trim() !== "");
  return kept.slice(-12).join("\n  ");
}

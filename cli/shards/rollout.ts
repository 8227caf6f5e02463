// `shards up --waves`: a change given to a sharded workspace wave by wave (waves.ts says which
// linked accounts each wave holds). Each wave is an `up` of its accounts' resources alone, on every
// stack at once, then a check; a failed check stops the rollout, and `--resume` goes on from there.
// docs/design/cli.md, "Rollout in waves", has the longer story.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import { NO_CHANGE_OPS } from "../summary/changes";
import { plural } from "../text";
import { onEveryStack, type EveryStackOptions } from "./everyStack";
import { ShardsError, type ShardsIo } from "./stacks";
import { describeWaves, planWaves, type Wave } from "./waves";

/**
 * Types no wave applies by name: the stack itself, and providers, which the engine brings along for the
 * resources targeted (targeting a provider would also apply every resource that uses it).
 */
const UNTARGETED = /^pulumi:(pulumi:Stack|providers:.*)$/;

/** One stack's pending changes, by the linked account they belong to. */
export interface StackChanges {
  /** A linked account's id, and the URNs of its resources that would change. */
  byAccount: Map<string, string[]>;
  /** The URNs of changes tied to no linked account (application events, org values). */
  shared: string[];
  /** The URNs the change deletes: gone after the wave's up, so not read back. */
  deleted: Set<string>;
  /** A linked account's id, and the URNs of all its resources that stay, changed or not (a resumed wave reads them). */
  present: Map<string, string[]>;
}

/**
 * Groups one stack's preview steps by linked account: a resource's own `linkedAccountId` input, or,
 * for one without (a component such as LinkedAccountSetup), the one account of the changes beneath it.
 */
export function changesByAccount(steps: StepEventMetadata[]): StackChanges {
  const targetable = steps.filter((s) => !UNTARGETED.test(s.type));
  const changing = targetable.filter((s) => !NO_CHANGE_OPS.has(s.op));
  const { byAccount, shared } = groupByAccount(changing);
  const deleted = new Set(changing.filter((s) => s.op === "delete").map((s) => s.urn));
  const present = groupByAccount(targetable.filter((s) => s.op !== "delete")).byAccount;
  return { byAccount, shared, deleted, present };
}

/** The steps' URNs by linked account (changesByAccount says how), and those tied to none. */
function groupByAccount(steps: StepEventMetadata[]): { byAccount: Map<string, string[]>; shared: string[] } {
  const urns = [...new Set(steps.map((s) => s.urn))];
  const accountOf = new Map<string, string | undefined>();
  const parentOf = new Map<string, string | undefined>();
  for (const step of steps) {
    const state = step.new ?? step.old;
    const id = (state?.inputs as Record<string, unknown> | undefined)?.linkedAccountId;
    if (typeof id === "string" && !accountOf.get(step.urn)) accountOf.set(step.urn, id);
    parentOf.set(step.urn, state?.parent || undefined);
  }
  // A resource without an account of its own goes with the accounts of the resources beneath it, when they are one.
  const beneath = new Map<string, Set<string>>();
  for (const urn of urns) {
    const account = accountOf.get(urn);
    if (account === undefined) continue;
    for (let up = parentOf.get(urn); up !== undefined; up = parentOf.get(up)) {
      if (!beneath.has(up)) beneath.set(up, new Set());
      beneath.get(up)!.add(account);
    }
  }
  const byAccount = new Map<string, string[]>();
  const shared: string[] = [];
  for (const urn of urns) {
    const own = accountOf.get(urn);
    const below = beneath.get(urn);
    const account = own ?? (below?.size === 1 ? [...below][0] : undefined);
    if (account === undefined) shared.push(urn);
    else byAccount.set(account, [...(byAccount.get(account) ?? []), urn]);
  }
  return { byAccount, shared };
}

/** The URNs of one stack that a wave applies. */
export function waveTargets(changes: StackChanges, wave: Wave): string[] {
  if (wave.shared) return changes.shared;
  return wave.accounts.flatMap((account) => changes.byAccount.get(account) ?? []);
}

/** The record `--resume` reads: the plan, and how far the rollout got. */
const RecordSchema = z.object({
  stacks: z.string(),
  shards: z.number().int().positive(),
  waves: z.array(
    z.object({
      name: z.string(),
      accounts: z.array(z.string()),
      shared: z.literal(true).optional(),
      absent: z.array(z.string()).optional(),
    }),
  ),
  /** How many waves were applied and checked. */
  done: z.number().int().min(0),
  /** The wave whose up or check failed, if the last run stopped at one. */
  failed: z.string().optional(),
});
/** The record of a rollout, as `--record` keeps it. */
export type RolloutRecord = z.infer<typeof RecordSchema>;

/** `shards up --waves`'s options. */
export interface RolloutOptions extends Omit<EveryStackOptions, "command" | "targets" | "onStep" | "refresh"> {
  /** The shares of the linked accounts, in basis points, growing to 10000 (waves.ts, parseShares). */
  shares: number[];
  /** The canary linked accounts, applied first (after the shared wave). */
  canary: string[];
  /** A command to run after each wave (through the shell); its exit status decides whether the rollout goes on. */
  check?: string;
  /** Print the waves and apply nothing. */
  dryRun: boolean;
  /** Go on from the record's last good wave instead of planning anew. */
  resume: boolean;
  /** Where the plan and the progress are kept. */
  record: string;
}

/** Runs every stack's preview at once (no output shown) and returns each one's changes by account. */
async function previewAll(options: RolloutOptions, io: ShardsIo): Promise<{ failed: number; changes: StackChanges[] }> {
  const steps: StepEventMetadata[][] = Array.from({ length: options.shards }, () => []);
  const failed = await onEveryStack(
    { ...options, command: "preview", quiet: true, onStep: (shard, step) => steps[shard].push(step) },
    io,
  );
  return { failed, changes: steps.map(changesByAccount) };
}

/** Reads `--record` for `--resume`; a missing or foreign record is a ShardsError saying what to do. */
function readRecord(options: RolloutOptions): RolloutRecord {
  const fresh = "run without --resume to start a rollout";
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(options.record, "utf8"));
  } catch {
    throw new ShardsError(`--resume reads the record of an earlier rollout, ${options.record}: none there; ${fresh}`);
  }
  const parsed = RecordSchema.safeParse(data);
  if (!parsed.success) throw new ShardsError(`${options.record} is not the record of a rollout; ${fresh}`);
  const record = parsed.data;
  if (record.stacks !== options.template || record.shards !== options.shards)
    throw new ShardsError(
      `${options.record} records a rollout on ${record.shards} stacks ${record.stacks}, not on ` +
        `${options.shards} ${options.template}; give the same --shards and --stack`,
    );
  return record;
}

/** Writes the record whole or not at all: a rollout stopped mid-write must still resume. */
function writeRecord(file: string, record: RolloutRecord): void {
  writeFileAtomic.sync(file, JSON.stringify(record, null, 2) + "\n");
}

/** Runs the user's check through the shell, with the wave's name and its accounts; resolves to its exit code. */
async function runCheck(command: string, wave: Wave, number: number, io: ShardsIo): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-wave-"));
  const accounts = path.join(dir, "accounts.txt");
  fs.writeFileSync(accounts, wave.accounts.map((a) => `${a}\n`).join(""));
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(command, {
        shell: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...(io.env ?? process.env),
          INTEGRATION_PLATFORM_WAVE: wave.name,
          INTEGRATION_PLATFORM_WAVE_NUMBER: String(number),
          INTEGRATION_PLATFORM_WAVE_ACCOUNTS_FILE: accounts,
        },
      });
      child.stdout.on("data", (chunk: Buffer) => io.stdout(chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => io.stderr(chunk.toString()));
      child.on("error", () => resolve(127));
      child.on("close", (code) => resolve(code ?? 1));
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Which linked accounts have the change and which do not, when a rollout stops after `done` waves. */
function stopReport(waves: Wave[], done: number, failedAt: number): string {
  const applied = waves.slice(0, failedAt + 1).flatMap((w) => w.accounts);
  const waiting = waves.slice(failedAt + 1).flatMap((w) => w.accounts);
  return (
    `shards: the rollout stopped at wave ${failedAt + 1} (${waves[failedAt].name}); ${done} of ${waves.length} ` +
    `waves applied and checked. ${plural(applied.length, "linked account")} may have the change ` +
    `(waves 1 to ${failedAt + 1}), ${plural(waiting.length, "linked account")} do not. Fix the cause, then run ` +
    `the same command with --resume: it applies wave ${failedAt + 1} again and goes on.\n`
  );
}

/**
 * `shards up --waves`: plans the waves from every stack's preview (or reads them from the record on
 * `--resume`), then applies them one by one; resolves to the exit status (1 when a wave failed).
 */
export async function rollOut(options: RolloutOptions, io: ShardsIo): Promise<number> {
  const first = await previewAll(options, io);
  if (first.failed > 0) {
    io.stderr(`shards: the preview failed on ${plural(first.failed, "stack")}: no wave was applied\n`);
    return 1;
  }
  let record: RolloutRecord;
  if (options.resume) {
    record = readRecord(options);
  } else {
    const accounts = new Set(first.changes.flatMap((c) => [...c.byAccount.keys()]));
    const shared = first.changes.some((c) => c.shared.length > 0);
    const waves = planWaves({ accounts, shared, canary: options.canary, shares: options.shares });
    record = { stacks: options.template, shards: options.shards, waves, done: 0 };
  }
  io.stdout(describeWaves(record.waves));
  if (options.dryRun) return 0;
  if (!options.resume) writeRecord(options.record, record);

  // The first preview's changes serve every wave: a wave's targeted up changes its own resources only.
  const changes = first.changes;
  const from = record.done;
  for (let i = from; i < record.waves.length; i++) {
    const wave = record.waves[i];
    // On --resume, accounts of waves already applied that show changes again (a fix after a failed check) go first.
    const accounts = i === from ? record.waves.slice(0, i + 1).flatMap((w) => w.accounts) : wave.accounts;
    const targets = changes.map((c) => [
      ...(i === from && !wave.shared && record.waves.slice(0, i).some((w) => w.shared) ? c.shared : []),
      ...waveTargets(c, { ...wave, accounts }),
    ]);
    io.stderr(`shards: wave ${i + 1} of ${record.waves.length} (${wave.name}): ${describeTargets(targets)}\n`);
    const stop = (why: string) => {
      io.stderr(`shards: wave ${i + 1} (${wave.name}): ${why}\n`);
      writeRecord(options.record, { ...record, done: i, failed: wave.name });
      io.stderr(stopReport(record.waves, i, i));
      return 1;
    };
    if (targets.some((t) => t.length > 0)) {
      const failed = await onEveryStack({ ...options, command: "up", targets }, io);
      if (failed > 0) return stop(`up failed on ${plural(failed, "stack")}`);
    }
    // Converged: the platform, read back, holds what the wave's up wrote. A refresh preview reads the
    // targets alone, without running the program again (the up just did). The wave a rollout stopped at
    // is read back whole on --resume, changed or not: its up may have been done, its read-back not.
    const again = i === from && record.failed === wave.name ? wave.accounts : [];
    const readBack = targets.map((t, shard) => [
      ...new Set([
        ...t.filter((urn) => !changes[shard].deleted.has(urn)),
        ...again.flatMap((account) => changes[shard].present.get(account) ?? []),
      ]),
    ]);
    if (readBack.some((t) => t.length > 0)) {
      const converged = await onEveryStack(
        { ...options, command: "refresh", previewOnly: true, targets: readBack, expectNoChanges: true, quiet: true },
        io,
      );
      if (converged > 0)
        return stop("its resources do not read back as written (a refresh preview of them shows changes)");
    }
    if (options.check !== undefined) {
      const code = await runCheck(options.check, wave, i + 1, io);
      if (code !== 0) return stop(`the check exited ${code}`);
    }
    record = { ...record, done: i + 1, failed: undefined };
    writeRecord(options.record, record);
  }
  io.stderr(`shards: the rollout is complete: ${plural(record.waves.length, "wave")} applied and checked\n`);
  return 0;
}

/** "12 resources on 2 stacks": a wave's size. */
function describeTargets(targets: string[][]): string {
  const total = targets.reduce((n, t) => n + t.length, 0);
  const stacks = targets.filter((t) => t.length > 0).length;
  return total === 0 ? "nothing to apply" : `${plural(total, "resource")} on ${plural(stacks, "stack")}`;
}

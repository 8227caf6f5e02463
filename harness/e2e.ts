// The setup every end-to-end suite shares (an in-process emulator, an offline workspace, its
// stacks) and the steps of tests that walk a stack through its life.
import {
  startEmulator,
  type ApplicationEvent,
  type EmulatorOptions,
  type EmulatorState,
  type RunningEmulator,
} from "../emulator";
import { eventView } from "../emulator/objects/applicationEvents";
import { configView } from "../emulator/objects/configs";
import { PROCESS_CONNECTION } from "../provider/connection";
import { DEFAULT_REQUESTS_PER_SECOND } from "../provider/settings";
import { Stack, Workspace } from "./engine";
import { startS3Backend, type S3Backend } from "./s3";

/** Marks a suite about volume at the platform's limits: CI runs it on Node 24 only (docs/development.md). */
export const AT_SCALE = "[at scale]";

/**
 * Marks a suite about the engine's handling of a killed command (its lock, pending operations,
 * checkpoints), which the Node runtime does not change: CI runs it on Node 24 only (docs/development.md).
 */
export const ENGINE_RECOVERY = "[engine recovery]";

/** Stack config on top of the emulator's address and API key: `secrets` are set with --secret. */
export interface StackSettings {
  config?: Record<string, string>;
  secrets?: Record<string, string>;
}

/** What a suite's tests use: filled in by the `before` hook. */
export interface E2EContext {
  emulator: RunningEmulator;
  workspace: Workspace;
  /** The suite's stack, made by `makeStack`. */
  stack: Stack;
  /**
   * Creates another stack (not yet initialized) against the same emulator, as the suite's own
   * is, but with `settings` on top instead of the suite's; returns it. The workspace removes it
   * with the suite's.
   */
  addStack(stack: Stack, settings?: StackSettings): Promise<Stack>;
  /** The S3-compatible server holding the stacks' state, when the suite asked for one. */
  s3?: S3Backend;
}

/**
 * One describe block's emulator (always at the documented rate limit), workspace and stack.
 * `makeStack` writes the program and returns its stack; `init` replaces the default creation
 * (address, API key, `config`, `secrets`) for a stack that brings its own settings.
 */
export function useEmulatorStack(
  makeStack: (workspace: Workspace, emulator: RunningEmulator) => Stack,
  options: StackSettings & {
    emulator?: Omit<EmulatorOptions, "rateLimit" | "retryAfter">;
    init?: (stack: Stack) => Promise<void>;
    /** Keep the state in a bucket of a real S3-compatible server (harness/s3.ts), not a folder. */
    s3Backend?: boolean;
    /** Type-check the TypeScript program at each command, as the engine does for users (Workspace.typeCheck). */
    typeCheck?: boolean;
  } = {},
): E2EContext {
  const ctx: E2EContext = {
    async addStack(stack, settings = {}) {
      await stack.init(
        { "integration-platform:baseUrl": ctx.emulator.url, ...settings.config },
        { "integration-platform:apiKey": ctx.emulator.apiKey, ...settings.secrets },
      );
      return stack;
    },
  } as E2EContext;
  before(async () => {
    ctx.emulator = await startEmulator({ quiet: true, ...options.emulator });
    if (options.s3Backend) ctx.s3 = await startS3Backend();
    ctx.workspace = new Workspace(ctx.s3);
    ctx.workspace.typeCheck = options.typeCheck ?? ctx.workspace.typeCheck;
    ctx.stack = makeStack(ctx.workspace, ctx.emulator);
    await (options.init ? options.init(ctx.stack) : ctx.addStack(ctx.stack, options));
  });
  after(async () => {
    ctx.workspace?.dispose();
    await ctx.s3?.stop();
    await ctx.emulator?.close();
  });
  return ctx;
}

/**
 * Runs one step of a test that walks named steps in order, each building on the ones before.
 * A failure names the step, and ends the walk: the steps after it are not run, and the test
 * fails.
 */
export async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof Error)) throw new Error(`step "${name}" failed: ${String(error)}`, { cause: error });
    // The stack is read first: V8 formats it on first access, from the message at that time.
    const { message, stack } = error;
    error.message = `step "${name}" failed: ${message}`;
    if (stack) error.stack = stack.replace(message, error.message);
    throw error;
  }
}

/**
 * What users observe through the API, of a running emulator or a saved state. Timestamps and the
 * audit log are left out: a "left as found" check must allow that something happened.
 */
export function observableState(source: RunningEmulator | EmulatorState) {
  const state = "store" in source ? source.store.snapshot() : source;
  const app = (slug: string) => state.apps.find((a) => a.slug === slug)!;
  return {
    linkedAccounts: state.linkedAccounts.map((a) => a.account_id),
    configs: state.configs.map((c) => ({ linkedAccountId: c.linked_account_id, ...configView(app(c.slug), c) })),
    envValues: state.envValues.map((v) => ({
      definition: v.variable_definition_id,
      linkedAccountId: v.linked_account_id,
      workflowId: v.workflow_id,
      value: v.value,
    })),
    events: state.events.map(eventDocument),
  };
}

/**
 * An event as the API shows it, its sample parsed and its keys sorted: the engine sorts object
 * keys on the way to the provider (docs/resources/application-event.md).
 */
export function eventDocument(event: ApplicationEvent) {
  const view = eventView(event);
  const response = view.response.map((entry) => ({ ...entry })).sort((a, b) => a.key.localeCompare(b.key));
  return { ...view, response, raw_response: JSON.parse(view.raw_response) as unknown };
}

/**
 * Calls the public API as a user's script would. The calls share the rate limit with the stack's
 * provider, so they wait their turn at the process connection's pacer like any well-behaved client.
 */
export async function publicCall(
  emulator: Pick<RunningEmulator, "url" | "apiKey">,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<any> {
  const pacer = PROCESS_CONNECTION.pacer;
  pacer.configure(DEFAULT_REQUESTS_PER_SECOND);
  await pacer.turn();
  const response = await fetch(`${emulator.url}/api/v2/public${path}`, {
    method,
    headers: {
      "x-api-key": emulator.apiKey,
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** GETs a path of the public API with the emulator's API key (see publicCall). */
export function publicGet(
  emulator: Pick<RunningEmulator, "url" | "apiKey">,
  path: string,
  headers: Record<string, string> = {},
): Promise<any> {
  return publicCall(emulator, "GET", path, { headers });
}

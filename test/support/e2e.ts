// The setup every end-to-end suite shares: an in-process emulator, an offline Pulumi workspace
// and one stack, made before the suite's tests and removed after them.
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { Stack, Workspace } from "../../scripts/lib/engine";

/** What a suite's tests use: filled in by the `before` hook. */
export interface E2EContext {
  emulator: RunningEmulator;
  workspace: Workspace;
  stack: Stack;
}

/**
 * Registers the hooks for one describe block. `makeStack` writes or copies the program into the
 * workspace and returns its stack, not yet initialized; the stack is then created with the
 * emulator's address, its API key as a secret, and `config` / `secrets` on top.
 */
export function useEmulatorStack(
  makeStack: (workspace: Workspace) => Stack,
  options: { emulator?: EmulatorOptions; config?: Record<string, string>; secrets?: Record<string, string> } = {},
): E2EContext {
  const ctx = {} as E2EContext;
  before(async () => {
    ctx.emulator = await startEmulator({ quiet: true, ...options.emulator });
    ctx.workspace = new Workspace();
    ctx.stack = makeStack(ctx.workspace);
    await ctx.stack.init(
      { "integration-platform:baseUrl": ctx.emulator.url, ...options.config },
      { "integration-platform:apiKey": ctx.emulator.apiKey, ...options.secrets },
    );
  });
  after(async () => {
    ctx.workspace?.dispose();
    await ctx.emulator?.close();
  });
  return ctx;
}

// The one way tests below the e2e level get an emulator: started once per describe block and
// reset before each test, so that no test sees what another one did. useEmulatorClients
// (emulatorClients.ts) and useProviderAgainstEmulator (provider.ts) build on it.
import { after, before, beforeEach } from "mocha";
import { DEFAULT_RATE_LIMIT, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

/**
 * Registers the hooks of an emulator for one describe block and returns what they fill in:
 * `emulator`, plus whatever `extend.started` makes of it once it runs. Before each test the
 * state, the fault rules and the request log are reset, and the rate limit is set back to
 * `options`' (by default the platform's documented limit) with full buckets, so that a test that
 * changed the limit changes no other test; then `extend.beforeEach` runs.
 */
export function useResetEmulator<Extra extends object = object>(
  options: EmulatorOptions = {},
  extend: { started?: (emulator: RunningEmulator) => Extra; beforeEach?: (emulator: RunningEmulator) => void } = {},
): Readonly<{ emulator: RunningEmulator } & Extra> {
  const ctx = {} as { emulator: RunningEmulator } & Extra;
  before(async () => {
    const emulator = await startEmulator({ quiet: true, ...options });
    Object.assign(ctx, { emulator }, extend.started?.(emulator));
  });
  beforeEach(async () => {
    await ctx.emulator.store.reset();
    ctx.emulator.faults.clear();
    ctx.emulator.requests.clear();
    ctx.emulator.rateLimit.set({ rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT, retryAfter: options.retryAfter ?? false });
    ctx.emulator.rateLimit.reset();
    extend.beforeEach?.(ctx.emulator);
  });
  after(async () => ctx.emulator?.close());
  return ctx;
}

// The one way tests below the e2e level get an emulator: started once per describe block and
// reset before each test, so that no test sees what another one did. useEmulatorClients
// (emulatorClients.ts) and useProviderAgainstEmulator (provider.ts) build on it.
import { after, before, beforeEach } from "mocha";
import { DEFAULT_RATE_LIMIT, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

/**
 * An emulator per describe block, plus what `extend.started` makes of it. Before each test, state,
 * fault rules, request log, workflow runs, webhook deliveries and receivers, and rate limit (`options`' or the documented one, full buckets) are
 * reset, so a test that changed any of them changes no other test; then `extend.beforeEach` runs.
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
    ctx.emulator.rateLimit.set({
      rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
      retryAfter: options.retryAfter ?? false,
      status: options.rateLimitStatus ?? 429,
    });
    ctx.emulator.rateLimit.reset();
    ctx.emulator.runs.reset();
    ctx.emulator.webhooks.reset();
    extend.beforeEach?.(ctx.emulator);
  });
  after(async () => ctx.emulator?.close());
  return ctx;
}

// The benchmarks' shared workload: the resource mix, the emulator's seed for it, and how one
// CLI command is measured (calls from the emulator's request log, the provider hosts' memory).
import type { RunningEmulator } from "../../emulator";
import type { Stack, StackExport } from "../../harness/engine";
import { watchProviderHosts } from "./hosts";

/** One resource of the mix: its class, name and arguments. */
export interface Spec {
  kind: "ConfigField" | "WorkflowToggle" | "EnvVariableValue" | "ApplicationEvent";
  name: string;
  args: Record<string, unknown>;
}

/** What one command cost. */
export interface Measured {
  ms: number;
  /** Every API call in the request log, 429s included. */
  calls: number;
  /** Calls the rate limit answered (429, or 403 "Rate Limit Hit"), and fault-injected 429s. */
  rateLimited: number;
  reads: number;
  writes: number;
  peakRssMb: number;
  /**
   * When the first and the last call came, in ms from the command's start (raw results only):
   * shows how much of the wall time the calls overlapped with the engine's own work.
   */
  callWindowMs?: [number, number];
  /** Why the command failed; only the rate-limited table lets a command fail without stopping the run. */
  failed?: string;
}

/** The resource mix: per linked account a field, a toggle and an env value, plus one event. */
export function specs(n: number, changed: boolean): Spec[] {
  const all: Spec[] = [];
  for (let i = 0; all.length < n; i += 1) {
    const account = `bench-${i}`;
    const bump = changed && i % 10 === 0; // every tenth unit changes: 10% of the resources
    const config = { slug: "hubspot", linkedAccountId: account, configId: account };
    all.push({
      kind: "ConfigField",
      name: `field-${i}`,
      args: { ...config, fieldId: "hs_pipeline", name: `Pipeline ${i}${bump ? " v2" : ""}` },
    });
    all.push({
      kind: "WorkflowToggle",
      name: `toggle-${i}`,
      args: { ...config, workflowId: "wf_hs_deal_alerts", enabled: !bump },
    });
    all.push({
      kind: "EnvVariableValue",
      name: `env-${i}`,
      args: {
        definitionId: "64f0000000000000000000d6",
        linkedAccountId: account,
        value: String(100 + i + (bump ? 1 : 0)),
      },
    });
    all.push({
      kind: "ApplicationEvent",
      name: `event-${i}`,
      args: { eventId: eventId(i), name: `bench.event.${i}${bump ? ".v2" : ""}`, response: { id: "e_1", n: i } },
    });
  }
  return all.slice(0, n);
}

function eventId(i: number): string {
  return `bench${String(i).padStart(19, "0")}`;
}

/** Gives the emulator the linked accounts, configs and events the mix addresses. */
export async function seed(emulator: RunningEmulator, n: number): Promise<void> {
  const units = Math.ceil(n / 4);
  for (let i = 0; i < units; i += 1) {
    emulator.store.linkedAccounts.add({ account_id: `bench-${i}`, name: `Bench ${i}` });
    emulator.store.configs.upsert(
      { linkedAccountId: `bench-${i}`, slug: "hubspot", configId: `bench-${i}` },
      undefined,
    );
  }
  await emulator.store.update((state) => {
    for (let i = 0; i < units; i += 1) {
      state.events.push({ _id: eventId(i), name: `bench.event.${i}`, raw_response: "{}", response: [] });
    }
  });
}

/**
 * Runs one CLI command and counts its API calls. With `mustSucceed` a failure stops the run;
 * without, it is recorded, since under the rate limit a failed operation is a result to report.
 */
export async function measure(
  stack: Stack,
  emulator: RunningEmulator,
  args: string[],
  mustSucceed = true,
): Promise<Measured> {
  emulator.requests.clear();
  const stop = watchProviderHosts();
  const started = Date.now();
  const result = await (mustSucceed ? stack.ok(args) : stack.run(args));
  const peakRssMb = stop();
  const calls = emulator.requests.list();
  const measured: Measured = {
    ms: result.ms,
    calls: calls.length,
    rateLimited: calls.filter((c) => c.rateLimited === true || c.status === 429).length,
    reads: calls.filter((c) => c.method === "GET").length,
    writes: calls.filter((c) => c.method !== "GET").length,
    peakRssMb,
  };
  if (calls.length > 0)
    measured.callWindowMs = [Date.parse(calls[0].time) - started, Date.parse(calls[calls.length - 1].time) - started];
  if (result.code !== 0) {
    const output = `${result.stdout}\n${result.stderr}`;
    measured.failed = (output.match(/^.*error:.*$/m)?.[0] ?? output.trim().split("\n").pop() ?? "")
      .trim()
      .slice(0, 500);
    process.stderr.write(`bench: pulumi ${args.join(" ")} exited ${result.code}: ${measured.failed}\n`);
  }
  return measured;
}

/** State bytes per resource, and `__provider` bytes per resource (inputs and outputs). */
export function stateSizes(state: StackExport, n: number) {
  const text = JSON.stringify(state);
  const providers = (state.deployment.resources ?? []).reduce((sum, r) => {
    const inputs = r.inputs?.__provider;
    const outputs = r.outputs?.__provider;
    return (
      sum +
      (typeof inputs === "string" ? Buffer.byteLength(inputs) : 0) +
      (typeof outputs === "string" ? Buffer.byteLength(outputs) : 0)
    );
  }, 0);
  return {
    stateBytesPerResource: Math.round(Buffer.byteLength(text) / n),
    providerBytesPerResource: Math.round(providers / n),
  };
}

// Pulumi's mocks, for tests that declare resources without an engine: each run in a store of its
// own, so that the mocks and config set for it never reach the other suites of the mocha process.
import * as pulumi from "@pulumi/pulumi";

/**
 * The SDK's own isolation of a program's run (internal, so not in its types): settings, mocks
 * and config set inside it stay inside it.
 */
const { withLocalStorage } = require("@pulumi/pulumi/runtime/state") as {
  withLocalStorage<T>(run: () => Promise<T>): Promise<T>;
};

/** One registration, as the mocks saw it: type, name and inputs (the serialized provider left out). */
export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/**
 * Runs `declare` (a program, or part of one) under Pulumi's mocks, with `config` as the stack's
 * config (keys `project:key`), and returns every registration once all of them have landed.
 */
export async function registrations(declare: () => void, config: Record<string, string> = {}): Promise<Registered[]> {
  const registered: Registered[] = [];
  await withLocalStorage(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: ({ type, name, inputs }) => {
          const { __provider, ...rest } = inputs;
          registered.push({ type, name, inputs: rest });
          return { id: `${name}-id`, state: inputs };
        },
        call: ({ inputs }) => inputs,
      },
      "project",
      "stack",
    );
    for (const [key, value] of Object.entries(config)) pulumi.runtime.setConfig(key, value);
    declare();
    // Waits for every outstanding registration (and closes the mock monitor, which holds nothing).
    await pulumi.runtime.disconnect();
  });
  return registered;
}

// The runtime entry point serves the providers wrapped so that no check failure names a
// property: the engine would print that property's value beside it, secrets included
// (see withoutEchoedValues in provider/resources/served.ts; proven through the CLI in
// test/e2e/reliability/badInput.test.ts and secrets.test.ts).
import * as assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { PROCESS_CONNECTION } from "../../provider/connection";
import { configure, providers, resourceProviders } from "../../provider/dynamic/host";
import { RESOURCES } from "../../provider/resources";
import { useProviderAgainstEmulator } from "../support/provider";
import { FIXTURE } from "../../harness/fixture";

describe("runtime entry point", () => {
  useProviderAgainstEmulator();

  it("serves check failures without a property, naming it in the reason", async () => {
    const news = { definitionId: FIXTURE.definitions.accountQuota, linkedAccountId: "globex", value: "twelve-s3cr3t" };
    const own = await resourceProviders.EnvVariableValue.check!({}, news);
    assert.deepEqual(own.failures, [
      { property: "value", reason: "must be a number, because the definition's var_format is number" },
    ]);
    const served = await providers.EnvVariableValue.check!({}, news);
    assert.deepEqual(served.failures, [
      { property: "", reason: "value: must be a number, because the definition's var_format is number" },
    ]);
    assert.deepEqual(served.inputs, own.inputs);
  });

  it("leaves a passing check as it is, and every other method untouched", async () => {
    const news = {
      slug: "hubspot",
      linkedAccountId: "acme",
      configId: "acme",
      workflowId: "wf_hs_contact_sync",
      enabled: true,
    };
    const served = await providers.WorkflowToggle.check!({}, news);
    assert.deepEqual(served, await resourceProviders.WorkflowToggle.check!({}, news));
    for (const type of ["ConfigField", "ApplicationEvent", "WorkflowToggle", "EnvVariableValue"] as const) {
      for (const method of ["diff", "create", "read", "update", "delete"] as const) {
        assert.equal(providers[type][method], resourceProviders[type][method], `${type}.${method}`);
      }
    }
  });
});

describe("configure()", () => {
  const ctx = useProviderAgainstEmulator();
  const configOf = (values: Record<string, string>) =>
    ({ config: { get: (key: string) => values[key] } }) as unknown as ConfigureRequest;

  it("keeps the run when the engine configures each resource type with the same stack config", async () => {
    const stack = {
      "integration-platform:baseUrl": ctx.emulator.url,
      "integration-platform:apiKey": ctx.emulator.apiKey,
    };
    await configure(configOf(stack));
    const first = PROCESS_CONNECTION.session();
    // The engine calls configure() once per resource type's provider, often after operations began.
    await configure(configOf({ ...stack }));
    assert.equal(PROCESS_CONNECTION.session(), first, "the same run, so its shared reads and claims are kept");
    await configure(configOf({ ...stack, "integration-platform:timeoutMs": "5000" }));
    assert.notEqual(PROCESS_CONNECTION.session(), first, "other settings make a new run");
  });
});

describe("resource types: one definition each", () => {
  const forwarders = readdirSync(join(__dirname, "../../provider/dynamic/forwarders"))
    .map((file) => file.replace(/\.ts$/, ""))
    .sort();

  it("every definition has its frozen forwarder module, every forwarder module a definition, and the host serves each", () => {
    assert.deepEqual(RESOURCES.map((d) => d.type).sort(), forwarders);
    assert.deepEqual(Object.keys(providers).sort(), forwarders);
  });
});

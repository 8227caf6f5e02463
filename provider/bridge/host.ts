// Runs in the provider host (process 2), published as the frozen subpath
// `pulumi-integration-platform/runtime`: every forwarding provider in every stack's state calls its
// `configure` and `providers[type]`, so those two names must never change (see bridge/program.ts).
import * as pulumi from "@pulumi/pulumi";
import { useStackConfig } from "../connection";
import { applicationEventProvider } from "../resources/applicationEvent";
import { configFieldProvider } from "../resources/configField";
import { envVariableValueProvider } from "../resources/envVariableValue";
import { workflowToggleProvider } from "../resources/workflowToggle";
import type { ResourceType } from "./program";

/** The routing table: each resource type's own provider, whose check reports failures per property (unit tests use these). */
export const resourceProviders: Record<ResourceType, pulumi.dynamic.ResourceProvider> = {
  ConfigField: configFieldProvider,
  ApplicationEvent: applicationEventProvider,
  WorkflowToggle: workflowToggleProvider,
  EnvVariableValue: envVariableValueProvider,
};

/**
 * Hands check failures to the engine without a `property`, naming the property in the reason
 * instead. Why: for a failure that names a property, the engine (v3.259,
 * pkg/resource/deploy/step_generator.go, issueCheckFailures) prints "property P value V has a
 * problem", with V the input's value even when it is a secret: a bad env value would appear in
 * plaintext in `pulumi preview`'s output. A dynamic provider is never told which inputs are
 * secrets, so no failure names its property; the engine then prints "has a problem: P: reason".
 */
export function withoutEchoedValues(provider: pulumi.dynamic.ResourceProvider): pulumi.dynamic.ResourceProvider {
  const check = provider.check!.bind(provider);
  return {
    ...provider,
    async check(olds, news) {
      const result = await check(olds, news);
      const failures = result.failures?.map((f) => ({ property: "", reason: f.property ? `${f.property}: ${f.reason}` : f.reason }));
      return failures ? { ...result, failures } : result;
    },
  };
}

/** Each resource type's provider as the engine is served it: the routing table's, through withoutEchoedValues. */
export const servedProviders = Object.fromEntries(
  Object.entries(resourceProviders).map(([type, provider]) => [type, withoutEchoedValues(provider)]),
) as Record<ResourceType, pulumi.dynamic.ResourceProvider>;

/** The served providers under their frozen name, which every forwarding provider calls. */
export const providers = servedProviders;

/** Receives the stack config once per resource type's provider; settings are resolved on first use. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  useStackConfig(req.config);
}

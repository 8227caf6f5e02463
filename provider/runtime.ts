// The runtime entry point (`pulumi-integration-platform/runtime`). Every serialized `__provider`
// requires this module by name and forwards to it, so it is part of the package's stable surface:
// its exports' names must not change between releases.
import * as pulumi from "@pulumi/pulumi";
import { useStackConfig } from "./connection";
import { applicationEventProvider } from "./resources/applicationEvent";
import { configFieldProvider } from "./resources/configField";
import { envVariableValueProvider } from "./resources/envVariableValue";
import { ResourceType } from "./resources/shim";
import { workflowToggleProvider } from "./resources/workflowToggle";

/** Each resource type's own provider, whose check reports failures per property (unit tests use these). */
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

/** The provider of each resource type, as the engine reaches it through `__provider`. */
export const providers: Record<ResourceType, pulumi.dynamic.ResourceProvider> = {
  ConfigField: withoutEchoedValues(configFieldProvider),
  ApplicationEvent: withoutEchoedValues(applicationEventProvider),
  WorkflowToggle: withoutEchoedValues(workflowToggleProvider),
  EnvVariableValue: withoutEchoedValues(envVariableValueProvider),
};

/** Receives the stack config once per provider process; settings are resolved on first use. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  useStackConfig(req.config);
}

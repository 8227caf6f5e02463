// Runs in the provider host, published as the frozen subpath `pulumi-integration-platform/runtime`:
// every forwarding provider in every stack's state calls its `configure` and `providers[type]`.
import * as pulumi from "@pulumi/pulumi";
import { currentSession, stopValidation, useStackConfig, validatesChanges } from "../connection";
import { RESOURCES, ResourceType } from "../resources";
import type { ServedProvider } from "../resources/definition";

/** What each definition's provider is handed: this process's session, and its validation switch. */
const HOST = { session: currentSession, validates: validatesChanges, stopValidation };

/**
 * Each resource type's provider, handed this process's session; its check reports failures per
 * property (unit tests use these).
 */
export const resourceProviders = Object.fromEntries(
  RESOURCES.map((definition) => [definition.type, definition.provider(HOST)]),
) as Record<ResourceType, ServedProvider>;

/**
 * Hands check failures to the engine without a `property`, naming it in the reason instead: for a
 * failure with a property, the engine prints the input's value, even a secret's (docs/design/dynamic.md).
 */
export function withoutEchoedValues<P extends pulumi.dynamic.ResourceProvider>(provider: P): P {
  const check = provider.check!.bind(provider);
  return {
    ...provider,
    async check(olds, news) {
      const result = await check(olds, news);
      const failures = result.failures?.map((f) => ({
        property: "",
        reason: f.property ? `${f.property}: ${f.reason}` : f.reason,
      }));
      return failures ? { ...result, failures } : result;
    },
  };
}

/** Each resource type's provider as the engine is served it, under the frozen name every forwarding provider calls. */
export const providers = Object.fromEntries(
  Object.entries(resourceProviders).map(([type, provider]) => [type, withoutEchoedValues(provider)]),
) as Record<ResourceType, ServedProvider>;

/** Receives the stack config once per resource type's provider; settings are resolved on first use. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  useStackConfig(req.config);
}

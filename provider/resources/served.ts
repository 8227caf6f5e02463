// Every resource type's provider over one connection, as both hosts serve them: the dynamic host
// (dynamic/host.ts) over the process's connection, the native plugin (native/server.ts) over the
// connection of the provider the engine configured.
import type * as pulumi from "@pulumi/pulumi";
import type { Host, ServedProvider } from "./definition";
import { RESOURCES, type ResourceType } from "./index";

/** One provider per resource type. */
export type Providers = Record<ResourceType, ServedProvider>;

/** Each resource type's provider, handed `host`; its check reports failures per property (unit tests use these). */
export function providersOf(host: Host): Providers {
  return Object.fromEntries(RESOURCES.map((definition) => [definition.type, definition.provider(host)])) as Providers;
}

/** Each provider as the engine is served it: check failures without a property (see withoutEchoedValues). */
export function servedToTheEngine(providers: Providers): Providers {
  return Object.fromEntries(
    Object.entries(providers).map(([type, provider]) => [type, withoutEchoedValues(provider)]),
  ) as Providers;
}

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

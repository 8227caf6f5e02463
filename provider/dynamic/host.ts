// Runs in the provider host, published as the frozen subpath `pulumi-integration-platform/runtime`:
// every forwarding provider in every stack's state calls its `configure` and `providers[type]`.
// Those calls carry no handle, so the host serves the process's connection (PROCESS_CONNECTION).
import * as pulumi from "@pulumi/pulumi";
import { PROCESS_CONNECTION } from "../connection";
import { providersOf, servedToTheEngine } from "../resources/served";

/**
 * Each resource type's provider, handed this process's connection; its check reports failures per
 * property (unit tests use these).
 */
export const resourceProviders = providersOf(PROCESS_CONNECTION);

/** Each resource type's provider as the engine is served it, under the frozen name every forwarding provider calls. */
export const providers = servedToTheEngine(resourceProviders);

/** Receives the stack config once per resource type's provider; settings are resolved on first use. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  PROCESS_CONNECTION.useStackConfig(req.config);
}

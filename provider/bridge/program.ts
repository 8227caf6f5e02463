// Runs in the program (process 1): the provider object that each resource class hands to
// `dynamic.Resource`. The serializer stores it in every resource's state as `__provider`, and the
// provider host (process 2) loads it from there and calls its methods, which forward to host.ts.
// It is kept to a few forwarding functions that `require` the installed package by name, so that
// `__provider`
//   - stays a few hundred bytes, because no code of ours is captured by value;
//   - does not change when the package's internals change (pulumi/pulumi#12401, #16826);
//   - holds nothing secret, because settings are read in the host, in `configure`.
//
// Frozen names: state written by every release requires `pulumi-integration-platform/providers/<Type>`
// (bridge/providers/), and the forwarding functions, 0.1.0's included, call
// `require("pulumi-integration-platform/runtime").configure` and `.providers[type]` (host.ts).
// package.json "exports" maps both subpaths; neither they nor those two names may ever change.
// test/e2e/upgrade.test.ts guards them with a stack that 0.1.0 deployed.
import * as pulumi from "@pulumi/pulumi";

/** The resource types that cross the bridge: one module each in bridge/providers/, one route each in host.ts. */
export type ResourceType = "ConfigField" | "ApplicationEvent" | "WorkflowToggle" | "EnvVariableValue";

/** The module token, so that types read `pulumi-nodejs:dynamic/integration-platform:<Type>`. */
export const MODULE = "integration-platform";

/** The start of every type token of this package's resources, as state and `pulumi preview --json` show it. */
export const TYPE_PREFIX = `pulumi-nodejs:dynamic/${MODULE}:`;

/** A new provider object for a type, whose every method forwards to the host's provider of that type. */
export function forwardingProvider(type: ResourceType): pulumi.dynamic.ResourceProvider {
  // Each body must name the package literally: the serializer keeps function text, and a helper
  // function or an imported binding would be captured by value instead.
  return {
    configure: (req) => require("pulumi-integration-platform/runtime").configure(req),
    check: (olds, news) => require("pulumi-integration-platform/runtime").providers[type].check(olds, news),
    diff: (id, olds, news) => require("pulumi-integration-platform/runtime").providers[type].diff(id, olds, news),
    create: (inputs) => require("pulumi-integration-platform/runtime").providers[type].create(inputs),
    read: (id, props) => require("pulumi-integration-platform/runtime").providers[type].read(id, props),
    update: (id, olds, news) => require("pulumi-integration-platform/runtime").providers[type].update(id, olds, news),
    delete: (id, props) => require("pulumi-integration-platform/runtime").providers[type].delete(id, props),
  };
}

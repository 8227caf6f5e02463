// Runs in the program: the provider object each resource class hands to `dynamic.Resource`, which
// state keeps as `__provider`. It only forwards, by package name, to the host (host.ts), so that
// `__provider` stays small, secret-free and unchanged across releases. Its names are frozen:
// docs/design/dynamic.md says which, and test/e2e/upgrade.test.ts guards them.
// Only the forwarder modules import it (the rule forwarders-are-leaves): the type tokens live in typeTokens.ts.
import * as pulumi from "@pulumi/pulumi";

/** A new provider object for a type, whose every method forwards to the host's provider of that type. */
export function forwardingProvider(type: string): pulumi.dynamic.ResourceProvider {
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

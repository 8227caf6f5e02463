// Runs in the program: the provider object each resource class hands to `dynamic.Resource`, which
// state keeps as `__provider`. It only forwards, by package name, to the host (host.ts), so that
// `__provider` stays small, secret-free and unchanged across releases. Its names are frozen:
// docs/design/dynamic.md says which, and test/e2e/upgrade.test.ts guards them.
import * as pulumi from "@pulumi/pulumi";

/** The module token, so that types read `pulumi-nodejs:dynamic/integration-platform:<Type>`. */
export const MODULE = "integration-platform";

/** The start of every type token of this package's resources, as state and `pulumi preview --json` show it. */
export const TYPE_PREFIX = `pulumi-nodejs:dynamic/${MODULE}:`;

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

// The object handed to `dynamic.Resource` is serialized into every resource's state as
// `__provider`. It is kept to a few forwarding functions that `require` the installed package's
// runtime entry point by name, so that `__provider`
//   - stays a few hundred bytes, because no code of ours is captured by value;
//   - does not change when the package's internals change (pulumi/pulumi#12401, #16826);
//   - holds nothing secret, because settings are read at run time in `configure`.
import * as pulumi from "@pulumi/pulumi";

/** The resource types whose providers the runtime entry point serves. */
export type ResourceType = "ConfigField" | "ApplicationEvent" | "WorkflowToggle" | "EnvVariableValue";

/** The module token, so that types read `pulumi-nodejs:dynamic/integration-platform:<Type>`. */
export const MODULE = "integration-platform";

const shims = new Map<ResourceType, pulumi.dynamic.ResourceProvider>();

/** One shim per type, reused: the SDK caches serialization per provider object. */
export function runtimeProvider(type: ResourceType): pulumi.dynamic.ResourceProvider {
  let shim = shims.get(type);
  if (!shim) {
    // Each body must name the package literally: the serializer keeps function text, and a
    // helper function or an imported binding would be captured by value instead.
    shim = {
      configure: (req) => require("pulumi-integration-platform/runtime").configure(req),
      check: (olds, news) => require("pulumi-integration-platform/runtime").providers[type].check(olds, news),
      diff: (id, olds, news) => require("pulumi-integration-platform/runtime").providers[type].diff(id, olds, news),
      create: (inputs) => require("pulumi-integration-platform/runtime").providers[type].create(inputs),
      read: (id, props) => require("pulumi-integration-platform/runtime").providers[type].read(id, props),
      update: (id, olds, news) => require("pulumi-integration-platform/runtime").providers[type].update(id, olds, news),
      delete: (id, props) => require("pulumi-integration-platform/runtime").providers[type].delete(id, props),
    };
    shims.set(type, shim);
  }
  return shim;
}

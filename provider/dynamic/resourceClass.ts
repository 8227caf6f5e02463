// The class users construct for a resource type: it registers the type with its frozen forwarder
// (forwarders/<Type>.ts), so that `__provider` is a bare `require` of that module (program.ts).
// The registry (registry.ts, generated) makes one per definition; nothing else needs to.
import * as pulumi from "@pulumi/pulumi";
import type { ResourceDefinition } from "../resources/definition";
import type { AnyProperties, ArgsOf, OutputsOf } from "../resources/properties";
import { DYNAMIC_MODULE } from "../typeTokens";

/** The constructor of a resource class: the user's name, args and options. */
export type ResourceClass<P extends AnyProperties> = new (
  name: string,
  args: ArgsOf<P>,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource & OutputsOf<P>;

/** The base of the class users construct for `definition`, served through `forwarder` (a forwarder module's export). */
export function resourceClass<T extends string, P extends AnyProperties>(
  definition: ResourceDefinition<T, P>,
  forwarder: pulumi.dynamic.ResourceProvider,
): ResourceClass<P> {
  const { type, properties } = definition;
  class Resource extends pulumi.dynamic.Resource {
    constructor(name: string, args: ArgsOf<P>, opts?: pulumi.CustomResourceOptions) {
      const props = properties.resourceProps(args);
      const options = properties.resourceOptions(opts);
      // The SDK formats a stack trace, through source maps, for each of the 4 promises it makes per
      // property, and only its promise-leak report prints them: without them, 750 resources
      // construct in 1 s of CPU instead of 5.5 (docs/design/resources.md, "Registering many").
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        super(forwarder, name, props, options, DYNAMIC_MODULE, type);
      } catch (error) {
        // What the SDK refuses at once keeps a stack that points at the program's line.
        Error.stackTraceLimit = limit;
        if (error instanceof Error) Error.captureStackTrace(error, Resource);
        throw error;
      } finally {
        Error.stackTraceLimit = limit;
      }
    }
  }
  return Resource as unknown as ResourceClass<P>;
}

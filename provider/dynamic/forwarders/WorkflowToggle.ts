// What `__provider` requires, at the frozen subpath `pulumi-integration-platform/providers/WorkflowToggle`
// (see dynamic/program.ts). Node loads a module once, so all WorkflowToggles share this one object: the
// SDK caches serialization per provider object.
import { forwardingProvider } from "../program";

/**
 * WorkflowToggle's forwarding provider; the installed package's serializer writes it as a bare
 * `require` of this module.
 */
export = forwardingProvider("WorkflowToggle");

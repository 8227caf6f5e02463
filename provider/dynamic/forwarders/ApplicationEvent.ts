// What `__provider` requires, at the frozen subpath `pulumi-integration-platform/providers/ApplicationEvent`
// (see dynamic/program.ts). Node loads a module once, so all ApplicationEvents share this one object: the
// SDK caches serialization per provider object.
import { forwardingProvider } from "../program";

/**
 * ApplicationEvent's forwarding provider; the installed package's serializer writes it as a bare
 * `require` of this module.
 */
export = forwardingProvider("ApplicationEvent");

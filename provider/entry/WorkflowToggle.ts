// The WorkflowToggle provider object, as its own module. When the package is installed, the engine's
// serializer recognizes this module's exports and writes `__provider` as a bare
// `require("pulumi-integration-platform/providers/WorkflowToggle")`: a few hundred bytes that stay the
// same across releases. Anywhere else (a source checkout) it captures the small shim by value.
import { runtimeProvider } from "../resources/shim";

export = runtimeProvider("WorkflowToggle");

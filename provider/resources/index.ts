// Every resource type of the package, in the order the change summary lists them. Adding a type
// is its resource file, its line here, and its frozen forwarder in bridge/providers/.
import { ApplicationEventDefinition } from "./applicationEvent";
import { ConfigFieldDefinition } from "./configField";
import { EnvVariableValueDefinition } from "./envVariableValue";
import { WorkflowToggleDefinition } from "./workflowToggle";

/** Each resource type's one definition. */
export const RESOURCES = [ConfigFieldDefinition, WorkflowToggleDefinition, EnvVariableValueDefinition, ApplicationEventDefinition] as const;

/** A resource type's name, as its token ends: `pulumi-nodejs:dynamic/integration-platform:<ResourceType>`. */
export type ResourceType = (typeof RESOURCES)[number]["type"];

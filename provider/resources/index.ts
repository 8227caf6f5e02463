// Every resource type of the package, in the order the change summary lists them. Adding a type
// is its resource file, its line here, and its frozen forwarder in dynamic/forwarders/.
import { ApplicationEventDefinition } from "./applicationEvent";
import { ConfigFieldDefinition } from "./configField";
import { EnvVariableValueDefinition } from "./envVariableValue";
import { WorkflowToggleDefinition } from "./workflowToggle";
import { typeNameOf } from "../typeTokens";

/** Each resource type's one definition. */
export const RESOURCES = [
  ConfigFieldDefinition,
  WorkflowToggleDefinition,
  EnvVariableValueDefinition,
  ApplicationEventDefinition,
] as const;

/**
 * A resource type's name, as its tokens end:
 * `pulumi-nodejs:dynamic/integration-platform:<ResourceType>` and
 * `integration-platform:index:<ResourceType>`.
 */
export type ResourceType = (typeof RESOURCES)[number]["type"];

/** The resource type a token names, in either family (typeTokens.ts); undefined for any other token. */
export function resourceTypeOf(token: string): ResourceType | undefined {
  const name = typeNameOf(token);
  return RESOURCES.find((definition) => definition.type === name)?.type;
}

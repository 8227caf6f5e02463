// Every resource type of the package, in the order the change summary lists them. Adding a type
// is its resource file and its line here; `npm run build` derives the rest (dynamic/registry.ts,
// its forwarder module) and docs/design/resources.md lists what else is written by hand.
import { ApplicationEventDefinition } from "./applicationEvent";
import { ConfigFieldDefinition } from "./configField";
import { EnvVariableValueDefinition } from "./envVariableValue";
import { WorkflowToggleDefinition } from "./workflowToggle";
import { typeNameOf } from "../typeTokens";
import type { ArgsOf } from "./properties";

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

/** The definition of one resource type, by its name. */
export type DefinitionOf<T extends ResourceType> = Extract<(typeof RESOURCES)[number], { type: T }>;

/** The user's inputs of a resource type (`ConfigFieldArgs`). */
export type ArgsOfType<T extends ResourceType> = ArgsOf<DefinitionOf<T>["properties"]>;

/** The definition of a resource type, by its name; an error naming the known ones otherwise. */
export function definitionOf<T extends ResourceType>(type: T): DefinitionOf<T> {
  const definition = RESOURCES.find((d) => d.type === type);
  if (!definition)
    throw new Error(`no resource type ${type}: RESOURCES has ${RESOURCES.map((d) => d.type).join(", ")}`);
  return definition as DefinitionOf<T>;
}

// The runtime entry point (`pulumi-integration-platform/runtime`). Every serialized `__provider`
// requires this module by name and forwards to it, so it is part of the package's stable surface:
// its exports' names must not change between releases.
import * as pulumi from "@pulumi/pulumi";
import { useStackConfig } from "./connection";
import { applicationEventProvider } from "./resources/applicationEvent";
import { configFieldProvider } from "./resources/configField";
import { envVariableValueProvider } from "./resources/envVariableValue";
import { ResourceType } from "./resources/shim";
import { workflowToggleProvider } from "./resources/workflowToggle";

/** The provider of each resource type. */
export const providers: Record<ResourceType, pulumi.dynamic.ResourceProvider> = {
  ConfigField: configFieldProvider,
  ApplicationEvent: applicationEventProvider,
  WorkflowToggle: workflowToggleProvider,
  EnvVariableValue: envVariableValueProvider,
};

/** Receives the stack config once per provider process; settings are resolved on first use. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  useStackConfig(req.config);
}

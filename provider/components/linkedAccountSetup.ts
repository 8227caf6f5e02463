// LinkedAccountSetup: one end user's setup of one app, as one component. Children are named
// from the component's name and each entry's own ids, never from positions in a list, so that
// adding an account, a field or a value never renames (and so replaces) anything else.
import * as pulumi from "@pulumi/pulumi";
import { nativeToken } from "../typeTokens";
import {
  ConfigField,
  ConfigFieldArgs,
  EnvVariableValue,
  EnvVariableValueArgs,
  WorkflowToggle,
  WorkflowToggleArgs,
} from "../dynamic/registry";
import { ConfigFieldProperties } from "../resources/configField";
import { WorkflowToggleProperties } from "../resources/workflowToggle";
import { childName, envKey, fieldKey, LinkedAccountSetupDefinition } from "./setupDefinition";

/**
 * One field of the config, as LinkedAccountSetup takes it: ConfigField's settings as declared
 * there (a new ConfigField setting reaches the component without an edit here), and the ids as
 * plain strings, because they are part of the child's name.
 */
export type SetupField = Omit<ConfigFieldArgs, keyof typeof ConfigFieldProperties.groups.identity> & {
  /** The field's id. Part of the child's name, so a plain string. */
  fieldId: string;
  /** The workflow the field belongs to, for a workflow field. Part of the child's name. */
  workflowId?: string;
};

/**
 * One workflow toggle, when more than `enabled` is declared (e.g. `restoreOnDelete`):
 * WorkflowToggle's settings as declared there, as SetupField takes ConfigField's.
 */
export type SetupWorkflow = Omit<WorkflowToggleArgs, keyof typeof WorkflowToggleProperties.groups.identity>;

/**
 * One env variable value of the linked account (a linked_account or workflow definition):
 * EnvVariableValue's inputs as declared there, but the linked account, which is the setup's.
 */
export type SetupEnvValue = Omit<EnvVariableValueArgs, "definitionId" | "workflowId" | "linkedAccountId"> & {
  /** The definition's id. Part of the child's name, so a plain string. */
  definitionId: string;
  /** For a workflow definition: the workflow. Part of the child's name. */
  workflowId?: string;
  /** Leave the value on the platform when this resource is deleted (Pulumi's `retainOnDelete` option on the child). */
  retainOnDelete?: boolean;
};

/** Inputs of a LinkedAccountSetup. */
export interface LinkedAccountSetupArgs {
  /** The linked account (end user). */
  linkedAccountId: pulumi.Input<string>;
  /** The app's slug. */
  slug: pulumi.Input<string>;
  /** The config; defaults to the linked account's id, as the platform's does. */
  configId?: pulumi.Input<string>;
  /** Fields to set in the config. */
  fields?: SetupField[];
  /**
   * Workflows to enable (true) or disable (false), by workflow id; or WorkflowToggle's settings,
   * `{enabled, restoreOnDelete?}`.
   */
  workflows?: Record<string, pulumi.Input<boolean> | SetupWorkflow>;
  /** Env variable values of this linked account. */
  envValues?: SetupEnvValue[];
}

/** Groups one linked account's fields, workflow toggles and env values for one app. */
export class LinkedAccountSetup extends pulumi.ComponentResource {
  /** The ConfigFields, keyed `[workflowId/]fieldId`. */
  readonly fields: Record<string, ConfigField> = {};
  /** The WorkflowToggles, keyed by workflow id. */
  readonly workflows: Record<string, WorkflowToggle> = {};
  /** The EnvVariableValues, keyed `definitionId[/workflowId]`. */
  readonly envValues: Record<string, EnvVariableValue> = {};

  /** Declares the setup; `name` should be stable per account and app, e.g. `acme-hubspot`. */
  constructor(name: string, args: LinkedAccountSetupArgs, opts?: pulumi.ComponentResourceOptions) {
    super(nativeToken(LinkedAccountSetupDefinition.type), name, {}, opts);
    const parent = { parent: this };
    const config = {
      slug: args.slug,
      linkedAccountId: args.linkedAccountId,
      configId: args.configId ?? args.linkedAccountId,
    };

    for (const field of args.fields ?? []) {
      const key = fieldKey(field.fieldId, field.workflowId);
      if (this.fields[key]) throw new Error(`LinkedAccountSetup ${name}: field ${key} is listed twice`);
      this.fields[key] = new ConfigField(childName(name, "field", key), { ...config, ...field }, parent);
    }
    for (const [workflowId, toggle] of Object.entries(args.workflows ?? {})) {
      const settings = isSetupWorkflow(toggle) ? toggle : { enabled: toggle };
      this.workflows[workflowId] = new WorkflowToggle(
        childName(name, "workflow", workflowId),
        { ...config, ...settings, workflowId },
        parent,
      );
    }
    for (const { retainOnDelete, ...env } of args.envValues ?? []) {
      const key = envKey(env.definitionId, env.workflowId);
      if (this.envValues[key]) throw new Error(`LinkedAccountSetup ${name}: env value ${key} is listed twice`);
      // retainOnDelete is a resource option, not an input: it must not reach the provider.
      this.envValues[key] = new EnvVariableValue(
        childName(name, "env", key),
        { ...env, linkedAccountId: args.linkedAccountId },
        { ...parent, retainOnDelete },
      );
    }
    this.registerOutputs({});
  }
}

/** True for a SetupWorkflow; false for `enabled` alone, which may be an Output or a Promise too. */
function isSetupWorkflow(toggle: pulumi.Input<boolean> | SetupWorkflow): toggle is SetupWorkflow {
  // An Output lifts its value's properties when they are read: ruled out by its kind, not its properties.
  return typeof toggle === "object" && toggle !== null && !pulumi.Output.isInstance(toggle) && "enabled" in toggle;
}

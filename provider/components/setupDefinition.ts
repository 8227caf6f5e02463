// LinkedAccountSetup, defined once for both of its forms: the TypeScript component of the dynamic
// package (linkedAccountSetup.ts) and the native provider's component, which the plugin serves to
// every language (native/construct.ts). Its entries' types come from the children's own property
// groups, and both forms name their children with childName, so a stack moves between them with
// no write (docs/guides/moving-to-native.md).
import { z } from "zod";
import { documented } from "../documented";
import { ConfigFieldProperties } from "../resources/configField";
import { EnvVariableValueProperties } from "../resources/envVariableValue";
import { Id } from "../resources/inputs";
import { objectType } from "../resources/schemaTypes";
import { WorkflowToggleProperties } from "../resources/workflowToggle";

const field = ConfigFieldProperties.groups;
const toggle = WorkflowToggleProperties.groups;
const env = EnvVariableValueProperties.groups;

/** One field of the config: ConfigField's settings, and its ids, which are part of the child's name. */
export const SetupFieldSchema = objectType(
  "SetupField",
  z.object({ fieldId: field.identity.fieldId, workflowId: field.identity.workflowId, ...field.settings }),
);

/** One workflow toggle: WorkflowToggle's settings. */
export const SetupWorkflowSchema = objectType("SetupWorkflow", z.object({ ...toggle.settings }));

/** One env variable value of the linked account: EnvVariableValue's settings, its definition and workflow. */
export const SetupEnvValueSchema = objectType(
  "SetupEnvValue",
  z.object({
    definitionId: env.identity.definitionId,
    workflowId: env.identity.workflowId,
    ...env.settings,
    ...documented("SetupEnvValue", {
      /** Leave the value on the platform when this resource is deleted (Pulumi's `retainOnDelete` option). */
      retainOnDelete: z.boolean().optional(),
    }),
  }),
);

/** The component, as the native schema and the plugin's Construct read it. */
export const LinkedAccountSetupDefinition = {
  /** Its type's name: `integration-platform:index:LinkedAccountSetup` in both forms. */
  type: "LinkedAccountSetup",
  /** What it is, for the schema and every SDK's docs. */
  description:
    "One linked account's setup of one app, as one component: its config fields, workflow toggles and env " +
    "values, each a child resource named from the component's name and the entry's own ids (never a position " +
    "in a list), so that adding an entry never renames another.",
  /** Its inputs: the children's shared identity, then the entries. */
  inputs: documented("LinkedAccountSetup", {
    /** The linked account (end user). */
    linkedAccountId: Id,
    /** The app's slug. */
    slug: Id,
    /** The config; defaults to the linked account's id, as the platform's does. */
    configId: Id.optional(),
    /** Fields to set in the config. */
    fields: z.array(SetupFieldSchema).optional(),
    /** Workflow toggles, by workflow id: `enabled`, and `restoreOnDelete` if wanted. */
    workflows: z.record(z.string(), SetupWorkflowSchema).optional(),
    /** Env variable values of this linked account. */
    envValues: z.array(SetupEnvValueSchema).optional(),
  }),
  /** The properties of its entry types that are secrets, as the children's own are. */
  secret: { SetupEnvValue: EnvVariableValueProperties.secret as readonly string[] },
} as const;

/** The key of a field among its setup's: `[workflowId/]fieldId`. */
export const fieldKey = (fieldId: string, workflowId?: string) => (workflowId ? `${workflowId}/${fieldId}` : fieldId);

/** The key of an env value among its setup's: `definitionId[/workflowId]`. */
export const envKey = (definitionId: string, workflowId?: string) =>
  workflowId ? `${definitionId}/${workflowId}` : definitionId;

/** A child's name: `<setup>/field/<key>`, `<setup>/workflow/<id>` or `<setup>/env/<key>`. */
export function childName(setup: string, kind: "field" | "workflow" | "env", key: string): string {
  return `${setup}/${kind}/${key}`;
}

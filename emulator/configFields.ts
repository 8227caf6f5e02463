// Which field a field update names, and which entry of its body applies (docs/design/contract.md#config-fields):
// the rules objects/configs.ts follows before it changes a config's field.
import { badRequest, notFound } from "./errors";
import type { App, FieldDefinition, WorkflowDefinition } from "./objects/applications";
import type { NameValue } from "./platformObject";

/** One field's entry in the body of a field update: the overrides to keep. */
export interface FieldEntry {
  id: string;
  name?: string;
  options?: NameValue[];
  labels?: NameValue[];
}

/** The field update's body: the spec's form with `fields` and `workflows`, or the platform reference's `{value}`. */
export type FieldUpdate =
  | { form: "spec"; fields: FieldEntry[]; workflows: { id: string; fields: FieldEntry[] }[] }
  | { form: "value"; value: unknown };

/** A field's definition and the workflow holding it (null for an application's global field). */
export interface ResolvedField {
  definition: FieldDefinition;
  workflow: WorkflowDefinition | null;
}

/**
 * Finds the field's definition. An explicit `workflow_id` query is looked at first, then the
 * application's global fields, then the workflow whose body entry lists the field, and last the
 * one workflow of the application that has a field with this id.
 */
export function resolveField(
  app: App,
  fieldId: string,
  queryWorkflowId: string | undefined,
  bodyWorkflowId: string | undefined,
): ResolvedField {
  const inWorkflow = (workflowId: string) => {
    const workflow = app.workflows.find((w) => w.id === workflowId);
    if (!workflow) throw notFound(`Workflow ${workflowId} not found`);
    const definition = workflow.fields.find((f) => f.id === fieldId);
    return definition && { definition, workflow };
  };
  if (queryWorkflowId !== undefined) {
    const found = inWorkflow(queryWorkflowId);
    if (found) return found;
  }
  const global = app.fields.find((f) => f.id === fieldId);
  if (global) return { definition: global, workflow: null };
  if (queryWorkflowId === undefined) {
    if (bodyWorkflowId !== undefined) {
      const found = inWorkflow(bodyWorkflowId);
      if (found) return found;
    } else {
      const owners = app.workflows.filter((w) => w.fields.some((f) => f.id === fieldId));
      if (owners.length === 1) return inWorkflow(owners[0].id)!;
    }
  }
  throw badRequest(`Field with id ${fieldId} not found`);
}

/** The workflow whose entry in the spec's body lists the field, if any. */
export function bodyWorkflowIdOf(update: FieldUpdate, fieldId: string): string | undefined {
  return update.form === "spec" ? update.workflows.find((w) => w.fields.some((f) => f.id === fieldId))?.id : undefined;
}

/** The body's entry for the field: in `fields` for a global field, in its workflow's `fields` otherwise. */
export function bodyEntryFor(
  update: Extract<FieldUpdate, { form: "spec" }>,
  fieldId: string,
  workflowId: string | null,
): FieldEntry {
  const entries =
    workflowId === null ? update.fields : (update.workflows.find((w) => w.id === workflowId)?.fields ?? []);
  const entry = entries.find((f) => f.id === fieldId);
  if (!entry) {
    const where = workflowId === null ? "fields" : `the fields of workflows entry ${workflowId}`;
    throw badRequest(`The body has no entry for field ${fieldId} in ${where}`);
  }
  return entry;
}

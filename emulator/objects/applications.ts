// Applications, with their field and workflow definitions: what the fixture seeds and the public
// API only reads (through configs, env values and the workflow toggle); no route of their own.
import { z } from "zod";
import { badRequest, notFound, workflowNotPublished } from "../errors";
import { checkUnique, defineObject, idSchema, nameValueSchema, type Issue, type StoreCore } from "../platformObject";

/** Field input types the platform knows. */
export const FIELD_TYPES = ["text", "number", "select", "map"] as const;

/** A field as the application defines it (global or inside a workflow). */
export const fieldDefinitionSchema = z.object({
  id: idSchema,
  name: z.string(),
  field_type: z.enum(FIELD_TYPES),
  required: z.boolean().default(false),
  hidden: z.boolean().default(false),
  has_dynamic_map_fields: z.boolean().default(false),
  dynamic_slot_identifier: z.string().default(""),
  options: z.array(nameValueSchema).default([]),
});

/** A workflow of an application; drafts (`published: false`) are blocked from public routes. */
export const workflowDefinitionSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string().default(""),
  published: z.boolean().default(true),
  fields: z.array(fieldDefinitionSchema).default([]),
});

/** An application, identified by its slug. */
export const appSchema = z.object({
  slug: idSchema,
  name: z.string(),
  fields: z.array(fieldDefinitionSchema).default([]),
  workflows: z.array(workflowDefinitionSchema).default([]),
});

/** Input type of a field definition. */
export type FieldType = (typeof FIELD_TYPES)[number];
/** A field as the application defines it. */
export type FieldDefinition = z.output<typeof fieldDefinitionSchema>;
/** A workflow of an application. */
export type WorkflowDefinition = z.output<typeof workflowDefinitionSchema>;
/** An application. */
export type App = z.output<typeof appSchema>;

/** The applications' part of the state. */
export interface ApplicationsState {
  apps: App[];
}

/** The applications' finders: `store.applications`. */
export class Applications {
  constructor(private readonly store: StoreCore<ApplicationsState>) {}

  /** The application with this slug. */
  find(slug: string): App | undefined {
    return this.store.state.apps.find((a) => a.slug === slug);
  }

  /** The workflow with this id, in whichever application holds it. */
  workflow(workflowId: string): { app: App; workflow: WorkflowDefinition } | undefined {
    for (const app of this.store.state.apps) {
      const workflow = app.workflows.find((w) => w.id === workflowId);
      if (workflow) return { app, workflow };
    }
    return undefined;
  }
}

/** Published workflows only: drafts are blocked from public routes. */
export function publishedWorkflows(app: App): WorkflowDefinition[] {
  return app.workflows.filter((w) => w.published);
}

/** The workflow found for `workflowId`, or 404 when none was; a draft gives 400 WORKFLOW_NOT_PUBLISHED. */
export function requirePublishedWorkflow(
  workflow: WorkflowDefinition | undefined,
  workflowId: string,
): WorkflowDefinition {
  if (!workflow) throw notFound(`Workflow ${workflowId} not found`);
  if (!workflow.published) throw workflowNotPublished(workflowId);
  return workflow;
}

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

function checkApplications(state: ApplicationsState, issue: Issue): void {
  checkUnique(issue, state.apps, (a) => a.slug, "apps", "app slug");
  // Workflow ids are referenced without a slug (env values, audit), so they must be unique org-wide.
  const seenWorkflows = new Set<string>();
  state.apps.forEach((app, i) => {
    app.workflows.forEach((w, j) => {
      if (seenWorkflows.has(w.id)) issue(["apps", i, "workflows", j, "id"], `duplicate workflow id ${w.id}`);
      seenWorkflows.add(w.id);
    });
    checkUnique(issue, app.fields, (f) => f.id, `apps[${i}].fields`, "field id");
    app.workflows.forEach((w, j) =>
      checkUnique(issue, w.fields, (f) => f.id, `apps[${i}].workflows[${j}].fields`, "field id"),
    );
  });
}

/** Applications: seeded by the fixture, read by the other objects. */
export const applications = defineObject({
  name: "applications",
  state: { apps: z.array(appSchema).default([]) },
  checkReferences: checkApplications,
  operations: (store: StoreCore<ApplicationsState>) => new Applications(store),
});

// The workflow toggle (docs/design/contract.md#workflows, #conflicts): enables or disables an
// application's published workflow for one config. Nothing of its own is stored: the workflows are
// the applications', their states the configs'.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest } from "../errors";
import type { OperationDoc, OperationDocs } from "../operationDoc";
import { defineObject, now, type Actor, type StoreCore } from "../platformObject";
import { accepts, actorOf, linkedAccountIdHeader, optionalHeader, pathParameter } from "../requests";
import { parseInput } from "../validation";
import { requirePublishedWorkflow, type App } from "./applications";
import type { Audit } from "./audit";
import { configNotFound, workflowSummaries, workflowSummaryViewSchema, type Config, type Configs } from "./configs";

/** What the toggle takes of the store: the configs and the audit log. */
export type WorkflowsStore = StoreCore<unknown> & { configs: Configs; audit: Audit };

/** The workflow toggle's operations: `store.workflows`. */
export class Workflows {
  constructor(private readonly store: WorkflowsStore) {}

  /**
   * Enables or disables a published workflow for a config. Without a linked account the config id
   * alone must say whose config it is.
   */
  async toggle(
    where: { linkedAccountId?: string; slug: string; configId: string },
    workflowId: string,
    enabled: boolean,
    actor: Actor,
  ): Promise<{ app: App; config: Config }> {
    const { slug, configId } = where;
    const linkedAccountId = where.linkedAccountId ?? this.soleLinkedAccountOf(slug, configId);
    const { app, config } = this.store.configs.require({ linkedAccountId, slug, configId });
    requirePublishedWorkflow(
      app.workflows.find((w) => w.id === workflowId),
      workflowId,
    );
    this.store.configs.workflowState(config, workflowId).enabled = enabled;
    config.updatedAt = now();
    await this.store.audit.recordChange(
      enabled ? "WORKFLOW_ENABLED" : "WORKFLOW_DISABLED",
      {
        linked_account_id: linkedAccountId,
        slug,
        config_id: configId,
        workflow_id: workflowId,
        resource_id: workflowId,
      },
      actor,
    );
    return { app, config };
  }

  /** The one linked account with a config of this id; 404 for none, 400 when several have one. */
  private soleLinkedAccountOf(slug: string, configId: string): string {
    const candidates = this.store.configs.withId(slug, configId);
    if (candidates.length === 0) throw configNotFound(configId);
    if (candidates.length > 1) {
      throw badRequest(
        `Config id ${configId} of ${slug} exists for ${candidates.length} linked accounts; ` +
          "send the linked_account_id header",
      );
    }
    return candidates[0].linked_account_id;
  }
}

/** The toggle's path: the application, the config and the workflow. */
export const toggleParamsSchema = z.object({
  slug: pathParameter("The application's slug", "hubspot"),
  configId: pathParameter("The config's id (the linked account's id by default)", "acme"),
  workflowId: pathParameter("The workflow's id", "wf_hs_deal_alerts"),
});
/** The toggle's body. */
export const toggleBodySchema = z.object({ enabled: z.boolean() });

const TOGGLE_URL = `${API_PREFIX}/slug/:slug/config/:configId/workflows/:workflowId`;

/** The toggle, under either method. */
function toggleDoc(operationId: string, method: string): OperationDoc {
  return {
    operationId,
    summary: `Enables or disables a published workflow for a config (${method})`,
    description: "Without the linked_account_id header, the config id alone must say whose config it is.",
    caller: "api_key",
    params: {
      path: toggleParamsSchema,
      header: z.object({ linked_account_id: linkedAccountIdHeader.optional() }),
    },
    body: toggleBodySchema,
    answer: {
      schema: z.object({ workflows: z.array(workflowSummaryViewSchema) }),
      description: "The config's published workflows with their toggles",
    },
    errors: {
      400: "No enabled, a draft workflow, or a config id several linked accounts have and no linked_account_id",
      404: "No such application, config or workflow",
    },
  };
}

/** The toggle, as the OpenAPI document describes it: PUT is the spec's method, PATCH today's platform reference's. */
const workflowDocs: OperationDocs = {
  [TOGGLE_URL]: { put: toggleDoc("toggleWorkflow", "PUT"), patch: toggleDoc("toggleWorkflowPatch", "PATCH") },
};

/** Workflow toggle: PUT (the spec's method) and PATCH (today's platform reference) do the same. */
function registerWorkflowRoutes(app: FastifyInstance, { workflows }: { workflows: Workflows }): void {
  app.route({
    method: ["PUT", "PATCH"],
    url: TOGGLE_URL,
    ...accepts("api_key"),
    handler: async (request) => {
      const { slug, configId, workflowId } = parseInput(toggleParamsSchema, request.params, "params");
      const { enabled } = parseInput(toggleBodySchema, request.body);
      // Without the header the config id alone must say whose config it is.
      const linkedAccountId = optionalHeader(request, "linked_account_id");
      const where = { linkedAccountId, slug, configId };
      const { app: application, config } = await workflows.toggle(where, workflowId, enabled, actorOf(request));
      return { workflows: workflowSummaries(application, config) };
    },
  });
}

/** The workflow toggle: an operation and its routes, over the applications' workflows and the configs' states. */
export const workflows = defineObject({
  name: "workflows",
  state: {},
  operations: (store: WorkflowsStore) => new Workflows(store),
  routes: registerWorkflowRoutes,
  docs: workflowDocs,
});

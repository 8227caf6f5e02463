// The workflow toggle (docs/design/contract.md#workflows, #conflicts): enables or disables an
// application's published workflow for one config. Nothing of its own is stored: the workflows are
// the applications', their states the configs'.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest } from "../errors";
import { defineObject, now, type Actor, type StoreCore } from "../platformObject";
import { accepts, actorOf, optionalHeader } from "../requests";
import { parseInput } from "../validation";
import { requirePublishedWorkflow, type App } from "./applications";
import type { Audit } from "./audit";
import { configNotFound, workflowSummaries, type Config, type Configs } from "./configs";

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

type ToggleParams = { slug: string; configId: string; workflowId: string };
const toggleBodySchema = z.object({ enabled: z.boolean() });

/** Workflow toggle: PUT (the spec's method) and PATCH (today's platform reference) do the same. */
function registerWorkflowRoutes(app: FastifyInstance, { workflows }: { workflows: Workflows }): void {
  app.route<{ Params: ToggleParams }>({
    method: ["PUT", "PATCH"],
    url: `${API_PREFIX}/slug/:slug/config/:configId/workflows/:workflowId`,
    ...accepts("api_key"),
    handler: async (request) => {
      const { slug, configId, workflowId } = request.params;
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
});

import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest } from "../errors";
import type { EmulatorContext } from "../context";
import { now } from "../store";
import { parseInput } from "../validation";
import { workflowSummaries } from "../views";
import {
  accepts,
  commitChange,
  configNotFound,
  optionalHeader,
  requireConfig,
  requirePublishedWorkflow,
} from "./shared";

type ToggleParams = { slug: string; configId: string; workflowId: string };
const toggleBodySchema = z.object({ enabled: z.boolean() });

/** Workflow toggle: PUT (the spec's method) and PATCH (today's platform reference) do the same. */
export function registerWorkflowRoutes(app: FastifyInstance, { store }: EmulatorContext): void {
  app.route<{ Params: ToggleParams }>({
    method: ["PUT", "PATCH"],
    url: `${API_PREFIX}/slug/:slug/config/:configId/workflows/:workflowId`,
    ...accepts("api_key"),
    handler: async (request) => {
      const { slug, configId, workflowId } = request.params;
      const { enabled } = parseInput(toggleBodySchema, request.body);
      const linkedAccountId = optionalHeader(request, "linked_account_id") ?? soleLinkedAccountOf(slug, configId);
      const { app: application, config } = requireConfig(store, { linkedAccountId, slug, configId });
      requirePublishedWorkflow(
        application.workflows.find((w) => w.id === workflowId),
        workflowId,
      );

      store.configWorkflowState(config, workflowId).enabled = enabled;
      config.updatedAt = now();
      await commitChange(store, request, enabled ? "WORKFLOW_ENABLED" : "WORKFLOW_DISABLED", {
        linked_account_id: linkedAccountId,
        slug,
        config_id: configId,
        workflow_id: workflowId,
        resource_id: workflowId,
      });
      return { workflows: workflowSummaries(application, config) };
    },
  });

  // Without the header the config id alone must say whose config it is.
  function soleLinkedAccountOf(slug: string, configId: string): string {
    const candidates = store.configsWithId(slug, configId);
    if (candidates.length === 0) throw configNotFound(configId);
    if (candidates.length > 1) {
      throw badRequest(
        `Config id ${configId} of ${slug} exists for ${candidates.length} linked accounts; send the linked_account_id header`,
      );
    }
    return candidates[0].linked_account_id;
  }
}

// The workflow toggle (docs/design/contract.md#workflows, #conflicts): PUT, the spec's method, and
// PATCH, today's platform reference's, do the same; the store enables or disables the workflow.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { parseInput } from "../validation";
import { workflowSummaries } from "../views";
import { accepts, actorOf, optionalHeader } from "./shared";

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
      // Without the header the config id alone must say whose config it is.
      const linkedAccountId = optionalHeader(request, "linked_account_id");
      const where = { linkedAccountId, slug, configId };
      const { app: application, config } = await store.toggleWorkflow(where, workflowId, enabled, actorOf(request));
      return { workflows: workflowSummaries(application, config) };
    },
  });
}

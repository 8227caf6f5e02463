// Workflows (docs/design/contract.md#workflows): a published workflow of an app, enabled or not in
// each config. Their shape, as a config lists them, and the toggle.
import { z } from "zod";
import type { PlatformClient } from "./http";
import { segment } from "./ids";

/** A workflow as listed in a config or a toggle response. */
export const WorkflowState = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  enabled: z.boolean(),
});
/** A workflow's state in one config. */
export type WorkflowState = z.infer<typeof WorkflowState>;

/** Workflow toggle response (docs/design/contract.md#workflows). */
export const WorkflowToggleResult = z.looseObject({ workflows: z.array(WorkflowState) });
/** The config's workflows, as the toggle answers. */
export type WorkflowToggleResult = z.infer<typeof WorkflowToggleResult>;

/**
 * `PUT /slug/:slug/config/:configId/workflows/:workflowId` with `{enabled}` (docs/design/contract.md#workflows;
 * PUT per docs/design/contract.md#conflicts).
 */
export async function setWorkflowEnabled(
  client: PlatformClient,
  args: { slug: string; configId: string; workflowId: string; linkedAccountId: string; enabled: boolean },
): Promise<WorkflowToggleResult> {
  return client.write({
    method: "PUT",
    path:
      `/slug/${segment("slug", args.slug)}/config/${segment("configId", args.configId)}` +
      `/workflows/${segment("workflowId", args.workflowId)}`,
    auth: "apiKey",
    headers: { linked_account_id: args.linkedAccountId },
    body: { enabled: args.enabled },
    response: WorkflowToggleResult,
  });
}

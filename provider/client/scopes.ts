// Which ids an env variable scope takes (docs/design/contract.md#env-variables): the scope of a
// value follows from the ids present when it is set, and the list of a scope needs the same ids.
// Resources and lookups both check them before any request, from this one table.
import type { EnvScope } from "./schemas";

/** Whether a scope needs an id, allows it, or refuses it. */
export type ScopeRule = "required" | "allowed" | "refused";

/** The ids each scope takes. */
export const SCOPE_RULES: Record<EnvScope, { linkedAccountId: ScopeRule; workflowId: ScopeRule }> = {
  org: { linkedAccountId: "refused", workflowId: "refused" },
  workspace: { linkedAccountId: "refused", workflowId: "refused" },
  linked_account: { linkedAccountId: "required", workflowId: "refused" },
  workflow: { linkedAccountId: "allowed", workflowId: "required" },
};

/** One id that breaks its scope's rule. */
export interface ScopeViolation {
  property: "linkedAccountId" | "workflowId";
  broken: "required" | "refused";
}

/** The ids that break the scope's rules: a required one missing, or a refused one present. */
export function scopeViolations(
  scope: EnvScope,
  ids: { linkedAccountId?: string; workflowId?: string },
): ScopeViolation[] {
  return (["linkedAccountId", "workflowId"] as const).flatMap((property): ScopeViolation[] => {
    const rule = SCOPE_RULES[scope][property];
    if (rule === "required" && ids[property] === undefined) return [{ property, broken: "required" }];
    if (rule === "refused" && ids[property] !== undefined) return [{ property, broken: "refused" }];
    return [];
  });
}

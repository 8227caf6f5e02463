// Multi-tenant stacks for the e2e tests and the benchmark: many linked accounts in the emulator,
// and a program that sets each of them up, written the way a customer with many end users would.
import type { RunningEmulator } from "../../emulator";

/** The fixture's ACCOUNT_QUOTA definition: a linked_account-scoped number. */
export const ACCOUNT_QUOTA = "64f0000000000000000000d6";

/** Adds linked accounts `${prefix}-0` … `${prefix}-${count - 1}`, each with an empty hubspot config; returns their ids. */
export async function seedTenants(emulator: RunningEmulator, prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  for (const id of ids) {
    emulator.store.addLinkedAccount({ account_id: id, name: `Tenant ${id}` });
    emulator.store.upsertConfig({ linkedAccountId: id, slug: "hubspot", configId: id }, undefined);
  }
  await emulator.store.commit();
  return ids;
}

/**
 * A program that gives every linked account in `tenants.json` three resources: its pipeline
 * field's name, the deal-alerts workflow enabled, and its ACCOUNT_QUOTA env value.
 */
export const TENANT_PROGRAM = `
import * as platform from "pulumi-integration-platform";
const tenants: string[] = require("./tenants.json");
for (const id of tenants) {
  const config = { slug: "hubspot", linkedAccountId: id, configId: id };
  new platform.ConfigField(\`\${id}-pipeline\`, { ...config, fieldId: "hs_pipeline", name: \`\${id} pipeline\` });
  new platform.WorkflowToggle(\`\${id}-deal-alerts\`, { ...config, workflowId: "wf_hs_deal_alerts", enabled: true });
  new platform.EnvVariableValue(\`\${id}-quota\`, { definitionId: "${ACCOUNT_QUOTA}", linkedAccountId: id, value: "500" });
}
`;

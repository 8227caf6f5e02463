// Multi-tenant stacks for the e2e tests and the benchmarks: many linked accounts in the emulator,
// and a program that sets each of them up, as a customer with many end users writes it.
import type { RunningEmulator } from "../emulator";

/** The fixture's ACCOUNT_TIER definition: a linked_account-scoped string, which seeded tenants do not hold. */
export const ACCOUNT_TIER = "64f0000000000000000000d5";
/** The fixture's ACCOUNT_QUOTA definition: a linked_account-scoped number. */
export const ACCOUNT_QUOTA = "64f0000000000000000000d6";
/** The fixture's BATCH_SIZE definition: a workflow-scoped number, which a linked account can hold per workflow. */
export const BATCH_SIZE = "64f0000000000000000000d8";
/** The published workflow whose BATCH_SIZE the tenants of TENANT_WORKFLOW_PROGRAM set. */
export const CONTACT_SYNC = "wf_hs_contact_sync";
/** The fixture's CRM_API_TOKEN definition: linked_account-scoped and encrypted. */
export const CRM_API_TOKEN = "64f0000000000000000000d4";
/** With `existingSetup`, every this-many-th tenant also has an encrypted CRM_API_TOKEN. */
export const ENCRYPTED_EVERY = 10;

/**
 * Adds linked accounts `${prefix}-0` … `${prefix}-${count - 1}`, each with a hubspot config;
 * returns their ids. The configs are empty, unless `existingSetup` gives each tenant a setup made
 * outside Pulumi, as a workspace to bring under management has one: its pipeline field renamed
 * (`Tenant <id> pipeline`), deal alerts enabled, an ACCOUNT_QUOTA of its own, and for every
 * ENCRYPTED_EVERY-th tenant an encrypted CRM_API_TOKEN (`crm-secret-<id>`).
 */
export async function seedTenants(
  emulator: RunningEmulator,
  prefix: string,
  count: number,
  options: { existingSetup?: boolean } = {},
): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const { store } = emulator;
  for (const [i, id] of ids.entries()) {
    store.linkedAccounts.add({ account_id: id, name: `Tenant ${id}` });
    const { config } = store.configs.upsert({ linkedAccountId: id, slug: "hubspot", configId: id }, undefined);
    if (!options.existingSetup) continue;
    store.configs.fieldState(config, null, "hs_pipeline").name = `Tenant ${id} pipeline`;
    store.configs.workflowState(config, "wf_hs_deal_alerts").enabled = true;
    const value = (definitionId: string, text: string) =>
      store.envVariables.setValue({
        definition: store.envVariables.definition(definitionId)!,
        value: text,
        linkedAccountId: id,
        workflowId: null,
        actor: "api_key",
      });
    value(ACCOUNT_QUOTA, String(100 + i));
    if (i % ENCRYPTED_EVERY === 0) value(CRM_API_TOKEN, `crm-secret-${id}`);
  }
  await store.commit();
  return ids;
}

/**
 * A program that gives every linked account in `tenants.json` its pipeline field's name, the deal-alerts workflow
 * enabled, and `envValue`.
 */
function tenantProgram(envValue: string): string {
  return `
import * as platform from "pulumi-integration-platform";
const tenants: string[] = require("./tenants.json");
for (const id of tenants) {
  const config = { slug: "hubspot", linkedAccountId: id, configId: id };
  new platform.ConfigField(\`\${id}-pipeline\`, { ...config, fieldId: "hs_pipeline", name: \`\${id} pipeline\` });
  new platform.WorkflowToggle(\`\${id}-deal-alerts\`, { ...config, workflowId: "wf_hs_deal_alerts", enabled: true });
  ${envValue}
}
`;
}

/** Three resources per linked account in `tenants.json` (see tenantProgram), the env value its ACCOUNT_QUOTA. */
export const TENANT_PROGRAM = tenantProgram(
  `new platform.EnvVariableValue(\`\${id}-quota\`, { definitionId: "${ACCOUNT_QUOTA}", linkedAccountId: id, value: "500" });`,
);

/**
 * TENANT_PROGRAM with each tenant's env value at a workflow instead: its BATCH_SIZE for the
 * contact sync. A refresh lists such values once per workflow for all tenants, where
 * `linked_account` values take one listing per tenant (the platform requires the account's id).
 */
export const TENANT_WORKFLOW_PROGRAM = tenantProgram(
  `new platform.EnvVariableValue(\`\${id}-batch-size\`, { definitionId: "${BATCH_SIZE}", workflowId: "${CONTACT_SYNC}", linkedAccountId: id, value: "50" });`,
);

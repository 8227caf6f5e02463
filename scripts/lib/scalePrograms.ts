// The programs `npm run bench:scale` and `npm run bench:shard-preview` run: per linked account a
// ConfigField, a WorkflowToggle and an EnvVariableValue, on the dynamic resources, on the native
// provider, or as no-op dynamic resources (the engine's own time). Each takes its shard's accounts.
import type { RunningEmulator } from "../../emulator";
import { nodeSdkInstall } from "../../harness/languages";
import { nativePath } from "../../harness/native";
import { installedPackage } from "../../harness/program";
import { ACCOUNT_TIER } from "../../harness/tenants";
import { NOOP_RESOURCE } from "./floor";

/**
 * Every tenant's setup, each resource declaring what destroy puts back (so create needs no read),
 * with the resources of `resources`: the package (the dynamic resources) or the native SDK.
 */
const setup = (resources: string) => `
import * as platform from "${resources}";
import { inThisShard } from "pulumi-integration-platform";
const tenants: string[] = inThisShard(require("./tenants.json"), (id: string) => id);
for (const id of tenants) {
  const config = { slug: "hubspot", linkedAccountId: id, configId: id };
  new platform.ConfigField(\`\${id}-pipeline\`, { ...config, fieldId: "hs_pipeline", name: \`\${id} pipeline\`, restoreOnDelete: { name: "Pipeline" } });
  new platform.WorkflowToggle(\`\${id}-deal-alerts\`, { ...config, workflowId: "wf_hs_deal_alerts", enabled: true, restoreOnDelete: false });
  // As the peer program does: a tier the new account did not have, so destroy deletes it.
  new platform.EnvVariableValue(\`\${id}-tier\`, { definitionId: "${ACCOUNT_TIER}", linkedAccountId: id, value: "tier-bench", noValueBefore: true });
}
`;

/** The programs: their text, and the install their node_modules come from. */
export const PROGRAMS = {
  ours: { text: () => setup("pulumi-integration-platform"), install: () => installedPackage() },
  native: { text: () => setup("pulumi-integration-platform-sdk"), install: () => nodeSdkInstall() },
  floor: { text: () => FLOOR, install: () => installedPackage() },
};
/** One of the programs. */
export type Program = keyof typeof PROGRAMS;

/** The same resources as no-op dynamic resources: the engine's floor. */
const FLOOR = `${NOOP_RESOURCE}
import * as platform from "pulumi-integration-platform";
const tenants: string[] = platform.inThisShard(require("./tenants.json"), (id: string) => id);
for (const id of tenants) {
  const config = { slug: "hubspot", linkedAccountId: id, configId: id };
  new Noop(\`\${id}-pipeline\`, { ...config, fieldId: "hs_pipeline", name: \`\${id} pipeline\` });
  new Noop(\`\${id}-deal-alerts\`, { ...config, workflowId: "wf_hs_deal_alerts", enabled: true });
  new Noop(\`\${id}-tier\`, { definitionId: "${ACCOUNT_TIER}", linkedAccountId: id, value: "tier-bench" });
}
`;

/**
 * A program's connection from the environment, as in CI, with `createWithoutRead` on; the native provider's plugin is
 * found on PATH, as npm's bin link puts it there for users.
 */
export function connection(program: Program, emulator: RunningEmulator): Record<string, string> {
  return {
    INTEGRATION_PLATFORM_BASE_URL: emulator.url,
    INTEGRATION_PLATFORM_API_KEY: emulator.apiKey,
    INTEGRATION_PLATFORM_CREATE_WITHOUT_READ: "true",
    ...(program === "native" ? { PATH: nativePath() } : {}),
  };
}

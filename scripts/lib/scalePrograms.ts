// The programs `npm run bench:scale` and `npm run bench:shard-preview` run: per linked account a
// ConfigField, a WorkflowToggle and an EnvVariableValue, on the dynamic resources, on the native
// provider (from TypeScript or from Python), or as no-op dynamic resources (the engine's own time).
// Each takes its shard's accounts.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { Workspace } from "../../harness/engine";
import { languageHostsDir, nodeSdkInstall, pythonBin } from "../../harness/languages";
import { nativePath } from "../../harness/native";
import { installedPackage, writeProgram } from "../../harness/program";
import { startS3Backend } from "../../harness/s3";
import { ACCOUNT_TIER, seedTenants } from "../../harness/tenants";
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

/**
 * The same setup in Python on the generated SDK, its shard's accounts picked by the SDK's own
 * `in_this_shard` (the same shard as TypeScript's inThisShard, by the shared vectors).
 */
const PYTHON = `
import json
import pulumi_integration_platform as platform
from pulumi_integration_platform.sharding import in_this_shard

with open("tenants.json") as f:
    tenants = in_this_shard(json.load(f), lambda id: id)
for id in tenants:
    config = dict(slug="hubspot", linked_account_id=id, config_id=id)
    platform.ConfigField(f"{id}-pipeline", field_id="hs_pipeline", name=f"{id} pipeline",
                         restore_on_delete=platform.ConfigFieldValuesArgs(name="Pipeline"), **config)
    platform.WorkflowToggle(f"{id}-deal-alerts", workflow_id="wf_hs_deal_alerts", enabled=True,
                            restore_on_delete=False, **config)
    # As the peer program does: a tier the new account did not have, so destroy deletes it.
    platform.EnvVariableValue(f"{id}-tier", definition_id="${ACCOUNT_TIER}", linked_account_id=id,
                              value="tier-bench", no_value_before=True)
`;

/** The programs: their main file's text, the install their node_modules come from, and their runtime. */
export const PROGRAMS = {
  ours: { text: () => setup("pulumi-integration-platform"), install: () => installedPackage(), python: false },
  native: { text: () => setup("pulumi-integration-platform-sdk"), install: () => nodeSdkInstall(), python: false },
  floor: { text: () => FLOOR, install: () => installedPackage(), python: false },
  // The plugin comes from the package's bin link (nativePath); the program runs in the venv of sdk/python.
  python: { text: () => PYTHON, install: () => installedPackage(), python: true },
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

/** Writes `program` for `tenants` into `parent`/`name`; returns its directory. */
export function writeScaleProgram(program: Program, parent: string, name: string, tenants: string[]): string {
  const { text, install, python } = PROGRAMS[program];
  const main = python ? "__main__.py" : "index.ts";
  const dir = writeProgram(parent, name, { [main]: text(), "tenants.json": JSON.stringify(tenants) }, install());
  if (python) {
    const venv = path.dirname(pythonBin());
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${name}\nruntime:\n  name: python\n  options:\n    virtualenv: ${JSON.stringify(venv)}\n`,
    );
  }
  return dir;
}

/**
 * A program's connection from the environment, as in CI, with `createWithoutRead` on; the native provider's plugin is
 * found on PATH, as npm's bin link puts it there for users (and the Python host beside it).
 */
export function connection(program: Program, emulator: RunningEmulator): Record<string, string> {
  return {
    INTEGRATION_PLATFORM_BASE_URL: emulator.url,
    INTEGRATION_PLATFORM_API_KEY: emulator.apiKey,
    INTEGRATION_PLATFORM_CREATE_WITHOUT_READ: "true",
    ...(program === "native" ? { PATH: nativePath() } : {}),
    ...(program === "python" ? { PATH: nativePath(languageHostsDir()) } : {}),
  };
}

/** What `withScaleProgram` hands its body. */
export interface ScaleSetup {
  emulator: RunningEmulator;
  workspace: Workspace;
  /** The program's directory. */
  dir: string;
  tenants: string[];
}

/**
 * Runs `body` on `program` written for `k` seeded accounts (named `<name>-<program>`), with an emulator of
 * its own (`emulator` its options) and its stacks' state in a versitygw bucket; removes all of it after.
 */
export async function withScaleProgram<T>(
  program: Program,
  k: number,
  name: string,
  emulator: EmulatorOptions,
  body: (setup: ScaleSetup) => Promise<T>,
): Promise<T> {
  const running = await startEmulator(emulator);
  const s3 = await startS3Backend();
  const workspace = new Workspace(s3);
  try {
    const tenants = await seedTenants(running, "tenant", k);
    const dir = writeScaleProgram(program, workspace.root, `${name}-${program}`, tenants);
    return await body({ emulator: running, workspace, dir, tenants });
  } finally {
    workspace.dispose();
    await s3.stop();
    await running.close();
  }
}

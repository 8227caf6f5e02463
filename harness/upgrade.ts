// What the record-upgrade script writes and test/e2e/upgrade.test.ts reads (test/e2e/upgrade/v*/).
// Fixed values: the committed recordings were encrypted and written with them.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, Stack, type Workspace } from "./engine";

/** Where the recordings live, one `v<version>/` directory per earlier release. */
export const UPGRADE_DIR = path.join(REPO, "test/e2e/upgrade");

/** The program each recording ran, inside the recorded release's checkout. */
export const RECORDED_PROGRAM = "examples/quickstart";

/** The recorded stack's name: its config file is `Pulumi.<name>.yaml`. */
export const UPGRADE_STACK = "dev";

/** The passphrase of the recorded stacks' secrets: test-only, published on purpose, not a secret. */
export const UPGRADE_PASSPHRASE = "pip-upgrade-test-passphrase-not-a-secret";

/** The emulator's API key while recording and testing: test-only, stored in the recording only as ciphertext. */
export const UPGRADE_API_KEY = "tk_upgrade_test_only_not_a_secret";

/** The program's secret config values, distinctive so that finding them in plaintext means a leak. */
export const UPGRADE_SECRETS = { crmToken: "crm-upgrade-test-only-7f3c", accountQuota: "31415926535" };

/** The files of a recording besides the program's own. */
export const RECORDING = {
  /** `pulumi stack export` right after `up`. */
  state: "state.json",
  /** The stack's config file, with its `encryptionsalt` and secure values. */
  config: `Pulumi.${UPGRADE_STACK}.yaml`,
  /** `emulator.store.snapshot()` right before `up`. */
  before: "emulator-before.json",
  /** `emulator.store.snapshot()` right after `up`. */
  after: "emulator-after.json",
} as const;

/** The recorded releases' directory names (e.g. `v0.1.0`), oldest first. */
export function recordedReleases(): string[] {
  if (!fs.existsSync(UPGRADE_DIR)) return [];
  return fs
    .readdirSync(UPGRADE_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/**
 * The stack of a recorded program, connected to the emulator at `baseUrl` through the environment,
 * not stack config, so the emulator can listen on any port (docs/development.md, "Upgrades").
 */
export function upgradeStack(workspace: Workspace, dir: string, baseUrl: string): Stack {
  return new Stack(workspace, dir, UPGRADE_STACK, {
    PULUMI_CONFIG_PASSPHRASE: UPGRADE_PASSPHRASE,
    INTEGRATION_PLATFORM_BASE_URL: baseUrl,
  });
}

// What the record-upgrade script writes and test/e2e/upgrade.test.ts reads: one directory per
// earlier release under test/e2e/upgrade/, holding a stack that release deployed. Everything
// here is fixed because the recording is committed: its secrets were encrypted with this
// passphrase, and its state was written by a provider holding this API key.
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
 * The stack of a recorded program, connected to the emulator at `baseUrl`. The address goes in
 * the environment, not in stack config: the engine copies stack config into the state (the
 * default provider's inputs), and `refresh` and `destroy`, which do not run the program,
 * configure the provider from those recorded inputs, not from the config file. A recorded
 * address would be dialled again at test time, so the emulator would have to listen on the
 * recording's port forever (`preview` alone would not mind: the engine does not report the
 * default provider as changed). A fixed port can be taken, and two runs on one machine would
 * collide; the environment variable is a documented way to connect, and the API key stays in
 * stack config, so the provider still reads settings from the recorded state.
 */
export function upgradeStack(workspace: Workspace, dir: string, baseUrl: string): Stack {
  return new Stack(workspace, dir, UPGRADE_STACK, {
    PULUMI_CONFIG_PASSPHRASE: UPGRADE_PASSPHRASE,
    INTEGRATION_PLATFORM_BASE_URL: baseUrl,
  });
}

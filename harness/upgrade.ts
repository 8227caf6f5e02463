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
export function recordedReleases(dir: string = UPGRADE_DIR): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^v\d/.test(entry.name))
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** Where the native provider's recordings live: `v<version>/<language>/`, and the programs they ran in `programs/`. */
export const NATIVE_UPGRADE_DIR = path.join(REPO, "test/e2e/upgrade-native");

/** The languages whose stacks of the native provider are recorded. */
export const NATIVE_LANGUAGES = ["python", "yaml"] as const;

/** A language whose native stacks are recorded. */
export type NativeLanguage = (typeof NATIVE_LANGUAGES)[number];

/** The native programs' secret config, beside UPGRADE_SECRETS: the env value LinkedAccountSetup sets. */
export const NATIVE_UPGRADE_SECRETS = { ...UPGRADE_SECRETS, tier: "tier-upgrade-test-only-2b8e" };

/** The recorded native stacks, oldest release first: each release's directory and language. */
export function recordedNativeStacks(): { release: string; language: NativeLanguage; dir: string }[] {
  return recordedReleases(NATIVE_UPGRADE_DIR).flatMap((release) =>
    NATIVE_LANGUAGES.filter((language) => fs.existsSync(path.join(NATIVE_UPGRADE_DIR, release, language))).map(
      (language) => ({ release, language, dir: path.join(NATIVE_UPGRADE_DIR, release, language) }),
    ),
  );
}

/**
 * The stack of a recorded program, connected to the emulator at `baseUrl` through the environment,
 * not stack config, so the emulator can listen on any port (docs/development.md, "Upgrades").
 */
export function upgradeStack(
  workspace: Workspace,
  dir: string,
  baseUrl: string,
  env: Record<string, string> = {},
): Stack {
  return new Stack(workspace, dir, UPGRADE_STACK, {
    PULUMI_CONFIG_PASSPHRASE: UPGRADE_PASSPHRASE,
    INTEGRATION_PLATFORM_BASE_URL: baseUrl,
    ...env,
  });
}

/** The counts of the CLI's last "Resources:" summary (an update's, not its preview's), e.g. `{ deleted: 8 }`. */
export function resourceSummary(stdout: string): Record<string, number> {
  const blocks = stdout.split(/^Resources:\n/m);
  const block = blocks.length > 1 ? blocks[blocks.length - 1].split(/\n\s*\n/)[0] : "";
  const counts: Record<string, number> = {};
  for (const line of block.split("\n")) {
    const match = /^\s*[-+~]*\s*(\d+) (.+?)\s*$/.exec(line);
    if (match) counts[match[2]] = Number(match[1]);
  }
  return counts;
}

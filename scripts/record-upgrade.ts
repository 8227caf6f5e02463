// Records a stack deployed by an earlier release, for test/e2e/upgrade.test.ts, which checks that
// the current release can preview, refresh and destroy it (pulumi/providertest's
// PreviewProviderUpgrade, through the real CLI). Dynamic providers break on upgrade in one way:
// the state's `__provider` requires the package by subpath, and a moved path breaks every
// existing stack (pulumi/pulumi#16826, #9085, #18976). Only a state written by the old release
// holds the old paths, so the old release is built from git, packed and installed as users do.
//
//   npx ts-node --transpile-only scripts/record-upgrade.ts --from v0.1.0
//   npx ts-node --transpile-only scripts/record-upgrade.ts --from v0.6.0 --language python
//
// Writes test/e2e/upgrade/v<version>/ (replacing it), where <version> is the ref's package.json's;
// with --language python|yaml, a stack of the native provider in test/e2e/upgrade-native/v<version>/<language>/.
import { execFileSync } from "node:child_process";
import { parseArgs as parseArgsOf } from "node:util";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { DYNAMIC_TYPE_PREFIX } from "../provider/typeTokens";
import { RESOURCES } from "../provider/resources";
import { REPO, Workspace } from "../harness/engine";
import { copyProgram, installTarball, packTarball } from "../harness/program";
import {
  RECORDED_PROGRAM,
  RECORDING,
  UPGRADE_API_KEY,
  UPGRADE_DIR,
  UPGRADE_PASSPHRASE,
  UPGRADE_SECRETS,
  UPGRADE_STACK,
  upgradeStack,
  NATIVE_LANGUAGES,
  type NativeLanguage,
} from "../harness/upgrade";
import { recordNative } from "./lib/recordNative";

/** Every resource type crosses from the program to the provider host, so the recording must hold one of each. */
const TYPES = RESOURCES.map((definition) => definition.type);

function log(message: string): void {
  process.stderr.write(`record-upgrade: ${message}\n`);
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

const USAGE = `usage: record-upgrade.ts --from <git ref of the earlier release, e.g. v0.1.0> [--language ${NATIVE_LANGUAGES.join("|")}]`;

/** The flags: the ref to record, and the native stack's language, if one. */
function parseArgs(argv: string[]): { ref: string; language?: NativeLanguage } {
  const { values } = parseArgsOf({ args: argv, options: { from: { type: "string" }, language: { type: "string" } } });
  if (!values.from || values.from.startsWith("-")) throw new Error(USAGE);
  const language = values.language as NativeLanguage | undefined;
  if (language !== undefined && !NATIVE_LANGUAGES.includes(language)) throw new Error(USAGE);
  return { ref: values.from, language };
}

/**
 * Refuses a recording the upgrade test could not learn from: one whose `__provider` is not a
 * require of the package (nothing would depend on its paths), one that misses a resource type,
 * or one that holds a secret in plaintext: the API key and the program's secret config, and every
 * env value the `up` wrote, which the provider keeps secret even when the program has it as a literal.
 */
function checkRecording(stateText: string, configText: string, envValues: string[]): void {
  const state = JSON.parse(stateText) as {
    deployment: { resources?: { type: string; urn: string; inputs?: { __provider?: string } }[] };
  };
  const ours = (state.deployment.resources ?? []).filter((r) => r.type.startsWith(DYNAMIC_TYPE_PREFIX));
  const missing = TYPES.filter((type) => !ours.some((r) => r.type === DYNAMIC_TYPE_PREFIX + type));
  if (missing.length)
    throw new Error(
      `the recorded program declares no ${missing.join(", ")}: record a program that declares every type`,
    );
  for (const r of ours) {
    const type = r.type.slice(DYNAMIC_TYPE_PREFIX.length);
    if (!r.inputs?.__provider?.includes(`require("pulumi-integration-platform/providers/${type}")`)) {
      throw new Error(
        `${r.urn}: __provider is not a require of pulumi-integration-platform/providers/${type}; was the package installed?\n${r.inputs?.__provider?.slice(0, 500)}`,
      );
    }
  }
  const configSecrets = [UPGRADE_API_KEY, ...Object.values(UPGRADE_SECRETS)];
  for (const [file, text, values] of [
    [RECORDING.state, stateText, [...configSecrets, ...envValues]],
    [RECORDING.config, configText, configSecrets],
  ] as const) {
    for (const value of values) {
      if (text.includes(value))
        throw new Error(`${file} holds ${JSON.stringify(value)} in plaintext; it must hold it only as ciphertext`);
    }
  }
}

function readme(ref: string, commit: string, version: string): string {
  return `# A stack deployed by pulumi-integration-platform ${version}

Recorded by \`scripts/record-upgrade.ts\` from git ref \`${ref}\` (commit ${commit.slice(0, 12)}).
That release, built, packed and installed from its tarball, ran its own \`${RECORDED_PROGRAM}\`
(the program files here) through \`pulumi up\` against the in-process emulator.
\`test/e2e/upgrade.test.ts\` checks that the current release can \`preview --expect-no-changes\`,
\`refresh\` and \`destroy\` this stack, and that the platform ends as it was before the \`up\`.

| File | What |
|---|---|
| \`${RECORDING.config}\` | The stack's config: \`encryptionsalt\` and the secure values (API key, \`crmToken\`, \`accountQuota\`). |
| \`${RECORDING.state}\` | \`pulumi stack export\` after \`up\`; each \`__provider\` requires \`pulumi-integration-platform/providers/<Type>\`. |
| \`${RECORDING.before}\` | The emulator's state (\`store.snapshot()\`) right before \`up\`: the default fixture. |
| \`${RECORDING.after}\` | The emulator's state right after \`up\`; the test starts its emulator from it. |

- The secrets are encrypted with this passphrase, fixed, test-only and published on purpose:

  \`${UPGRADE_PASSPHRASE}\`

  The emulator's API key, \`${UPGRADE_API_KEY}\`, is test-only too, and the state holds it only
  as ciphertext. The emulator snapshots hold the env values in plaintext, as the platform does;
  they are test-only strings.
- The emulator's address is not in the stack's config but in \`INTEGRATION_PLATFORM_BASE_URL\`,
  so that the test's emulator can listen on any free port (\`upgradeStack\` in
  \`harness/upgrade.ts\` says why).
- These files stand for what users of ${version} have in their state: do not edit them, and
  record them again only if the recording itself is broken:

  \`\`\`bash
  npx ts-node --transpile-only scripts/record-upgrade.ts --from ${ref}
  \`\`\`
`;
}

async function main(): Promise<void> {
  const { ref, language } = parseArgs(process.argv.slice(2));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-record-"));
  const source = path.join(tmp, "source");
  let emulator: RunningEmulator | undefined;
  let workspace: Workspace | undefined;
  run("git", ["worktree", "add", "--detach", source, ref], REPO);
  try {
    const commit = run("git", ["rev-parse", "HEAD"], source);
    const { version } = JSON.parse(fs.readFileSync(path.join(source, "package.json"), "utf8")) as { version: string };
    // Install scripts are skipped: the build needs none, and `prepare` would build a second time.
    log(`building ${ref} (${commit.slice(0, 7)}, version ${version})`);
    run(
      "npm",
      ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel", "error"],
      source,
    );
    run("npm", ["run", "build", "--silent"], source);
    log("packing and installing it");
    const install = installTarball(packTarball(source, tmp));
    if (language) {
      log(`pulumi up of the ${language} program`);
      const out = await recordNative({ ref, commit, version, source, install }, language, tmp);
      log(`wrote ${path.relative(REPO, out)}/: ${fs.readdirSync(out).join(", ")}`);
      return;
    }

    emulator = await startEmulator({ quiet: true, apiKey: UPGRADE_API_KEY });
    workspace = new Workspace();
    const stack = upgradeStack(
      workspace,
      copyProgram(path.join(source, RECORDED_PROGRAM), workspace.root, install),
      emulator.url,
    );
    await stack.init({}, { "integration-platform:apiKey": UPGRADE_API_KEY, ...UPGRADE_SECRETS });
    const before = emulator.store.snapshot();
    log("pulumi up");
    await stack.ok(["up", "--yes"]);
    const after = emulator.store.snapshot();
    const stateText = await stack.exportText();
    const configText = fs.readFileSync(path.join(stack.dir, RECORDING.config), "utf8");
    const written = after.envValues
      .map((v) => v.value)
      .filter((value) => !before.envValues.some((v) => v.value === value));
    checkRecording(stateText, configText, written);

    const out = path.join(UPGRADE_DIR, `v${version}`);
    fs.rmSync(out, { recursive: true, force: true });
    // The program as it ran, with the config file `stack init` wrote beside it, without the linked packages.
    fs.cpSync(stack.dir, out, { recursive: true, filter: (src) => path.basename(src) !== "node_modules" });
    fs.writeFileSync(path.join(out, RECORDING.state), stateText.endsWith("\n") ? stateText : `${stateText}\n`);
    fs.writeFileSync(path.join(out, RECORDING.before), `${JSON.stringify(before, null, 2)}\n`);
    fs.writeFileSync(path.join(out, RECORDING.after), `${JSON.stringify(after, null, 2)}\n`);
    fs.writeFileSync(path.join(out, "README.md"), readme(ref, commit, version));
    log(`wrote ${path.relative(REPO, out)}/: stack ${UPGRADE_STACK}, ${fs.readdirSync(out).join(", ")}`);
  } finally {
    workspace?.dispose();
    await emulator?.close();
    run("git", ["worktree", "remove", "--force", source], REPO);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`record-upgrade: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

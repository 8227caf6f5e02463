// The native provider's half of scripts/record-upgrade.ts: a Python or YAML stack deployed by an
// earlier release's plugin (from its installed tarball) and, for Python, its SDK, for
// test/e2e/native/upgrade.test.ts. The programs are this checkout's test/e2e/upgrade-native/programs/.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { engineBinDir, Workspace } from "../../harness/engine";
import { languageHostsDir } from "../../harness/languages";
import {
  NATIVE_UPGRADE_DIR,
  NATIVE_UPGRADE_SECRETS,
  RECORDING,
  UPGRADE_API_KEY,
  UPGRADE_PASSPHRASE,
  upgradeStack,
  type NativeLanguage,
} from "../../harness/upgrade";
import { NATIVE_TYPE_PREFIX } from "../../provider/typeTokens";

/** The types a native recording must hold: every resource and the component. */
const NATIVE_TYPES = ["ConfigField", "WorkflowToggle", "ApplicationEvent", "EnvVariableValue", "LinkedAccountSetup"];

/** What the recorder knows of the release it built. */
export interface BuiltRelease {
  /** The git ref given, the commit and the release's version. */
  ref: string;
  commit: string;
  version: string;
  /** The release's checkout (its sdk/python) and where its tarball is installed (its plugin). */
  source: string;
  install: string;
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
}

/** A venv with the release's Python SDK and the `pulumi` SDK it was generated against; returns its bin/. */
function releaseVenv(source: string, parent: string): string {
  const { version } = JSON.parse(
    fs.readFileSync(path.join(source, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
  ) as { version: string };
  const venv = path.join(parent, "venv");
  run("python3", ["-m", "venv", venv], parent);
  const pip = path.join(venv, "bin", "pip");
  run(pip, ["install", "--quiet", "--disable-pip-version-check", `pulumi==${version}`], parent);
  run(pip, ["install", "--quiet", "--disable-pip-version-check", path.join(source, "sdk", "python")], parent);
  return path.join(venv, "bin");
}

/** Refuses a recording that misses a type or holds a secret in plaintext. */
function checkNativeRecording(stateText: string, configText: string): void {
  const state = JSON.parse(stateText) as { deployment: { resources?: { type: string }[] } };
  const types = new Set((state.deployment.resources ?? []).map((r) => r.type));
  const missing = NATIVE_TYPES.filter((type) => !types.has(NATIVE_TYPE_PREFIX + type));
  if (missing.length) throw new Error(`the recorded stack holds no ${missing.join(", ")}: record a program with each`);
  for (const value of [UPGRADE_API_KEY, ...Object.values(NATIVE_UPGRADE_SECRETS)]) {
    if (stateText.includes(value) || configText.includes(value))
      throw new Error(`the recording holds ${JSON.stringify(value)} in plaintext; it must hold it only as ciphertext`);
  }
}

function readme(release: BuiltRelease, language: NativeLanguage): string {
  return `# A ${language} stack of the native provider, deployed by pulumi-integration-platform ${release.version}

Recorded by \`scripts/record-upgrade.ts --language ${language}\` from git ref \`${release.ref}\` (commit
${release.commit.slice(0, 12)}). That release's plugin, from its packed and installed tarball${
    language === "python" ? ", and its Python SDK (sdk/python) in a fresh venv," : ""
  } ran \`test/e2e/upgrade-native/programs/${language}\` (the program files here) through \`pulumi up\`
against the in-process emulator. \`test/e2e/native/upgrade.test.ts\` checks that the current plugin
${language === "python" ? "and SDK preview" : "previews"} this stack with no change, that \`up\` writes nothing, and that
\`destroy\` leaves the platform as it was before the recorded \`up\`.

| File | What |
|---|---|
| \`${RECORDING.config}\` | The stack's config: \`encryptionsalt\` and the secure values. |
| \`${RECORDING.state}\` | \`pulumi stack export\` after \`up\`. |
| \`${RECORDING.before}\` | The emulator's state right before \`up\`: the default fixture. |
| \`${RECORDING.after}\` | The emulator's state right after \`up\`; the test starts its emulator from it. |

The secrets are encrypted with the test-only passphrase \`${UPGRADE_PASSPHRASE}\`; the API key
and the config's secrets are test-only strings (harness/upgrade.ts). Do not edit these files;
record them again only if the recording itself is broken:

\`\`\`bash
npx ts-node --transpile-only scripts/record-upgrade.ts --from ${release.ref} --language ${language}
\`\`\`
`;
}

/** Deploys the language's program with the built release and writes test/e2e/upgrade-native/v<version>/<language>/. */
export async function recordNative(release: BuiltRelease, language: NativeLanguage, tmp: string): Promise<string> {
  const plugin = path.join(release.install, "node_modules", ".bin");
  if (!fs.existsSync(path.join(plugin, "pulumi-resource-integration-platform")))
    throw new Error(`${release.ref} installs no pulumi-resource-integration-platform: it predates the native provider`);
  const toolchain = language === "python" ? [releaseVenv(release.source, tmp)] : [];
  const emulator = await startEmulator({ quiet: true, apiKey: UPGRADE_API_KEY });
  const workspace = new Workspace();
  try {
    const dir = path.join(workspace.root, language);
    fs.cpSync(path.join(NATIVE_UPGRADE_DIR, "programs", language), dir, { recursive: true });
    const PATH = [plugin, ...toolchain, languageHostsDir(), engineBinDir(), process.env.PATH ?? ""].join(
      path.delimiter,
    );
    const stack = upgradeStack(workspace, dir, emulator.url, { PATH });
    await stack.init({}, { "integration-platform:apiKey": UPGRADE_API_KEY, ...NATIVE_UPGRADE_SECRETS });
    const before = emulator.store.snapshot();
    await stack.ok(["up", "--yes"]);
    const after = emulator.store.snapshot();
    const stateText = await stack.exportText();
    const configText = fs.readFileSync(path.join(dir, RECORDING.config), "utf8");
    checkNativeRecording(stateText, configText);

    const out = path.join(NATIVE_UPGRADE_DIR, `v${release.version}`, language);
    fs.rmSync(out, { recursive: true, force: true });
    fs.cpSync(dir, out, { recursive: true, filter: (src) => !/__pycache__|\.pyc$/.test(src) });
    fs.writeFileSync(path.join(out, RECORDING.state), stateText.endsWith("\n") ? stateText : `${stateText}\n`);
    fs.writeFileSync(path.join(out, RECORDING.before), `${JSON.stringify(before, null, 2)}\n`);
    fs.writeFileSync(path.join(out, RECORDING.after), `${JSON.stringify(after, null, 2)}\n`);
    fs.writeFileSync(path.join(out, "README.md"), readme(release, language));
    return out;
  } finally {
    workspace.dispose();
    await emulator.close();
    fs.rmSync(path.join(tmp, "venv"), { recursive: true, force: true });
  }
}

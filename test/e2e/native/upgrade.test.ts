// Upgrades of the native provider: a Python or YAML stack that an earlier plugin (and Python SDK)
// deployed, previewed, updated and destroyed by this checkout's plugin and SDK (pulumi/providertest's
// PreviewProviderUpgrade). Each test/e2e/upgrade-native/v<version>/<language>/ holds one, written by
// `scripts/record-upgrade.ts --language`. The plugins come from the plugin cache, as a user's do,
// with an older release's beside this one: the version each program asks for is the one that runs.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readStateFile } from "../../../emulator/store";
import { engineBinDir, REPO, type StackExport } from "../../../harness/engine";
import { observableState, step, useEmulatorStack } from "../../../harness/e2e";
import { LANGUAGES, languageHostsDir, pythonBin } from "../../../harness/languages";
import {
  NATIVE_UPGRADE_DIR,
  recordedNativeStacks,
  RECORDING,
  resourceSummary,
  UPGRADE_API_KEY,
  upgradeStack,
} from "../../../harness/upgrade";

const stacks = recordedNativeStacks();

/** This checkout's version, which the plugin it installs reports. */
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** An older release's version, under which a decoy plugin sits in the cache. */
const DECOY_VERSION = "0.4.0";

/** A plugin that fails loudly if the engine ever runs it. */
const DECOY = `#!/bin/sh
echo "DECOY PLUGIN RAN: the engine picked the cached plugin of version ${DECOY_VERSION}" >&2
exit 1
`;

describe(`e2e: native upgrade recordings ${LANGUAGES}`, () => {
  it("a Python and a YAML stack are recorded", () => {
    assert.deepEqual(
      [...new Set(stacks.map((s) => s.language))].sort(),
      ["python", "yaml"],
      `record them with record-upgrade.ts --from <ref> --language python|yaml (${NATIVE_UPGRADE_DIR})`,
    );
  });
});

for (const recorded of stacks) {
  describe(`e2e: a ${recorded.language} stack deployed by the ${recorded.release} plugin, with this checkout's ${LANGUAGES}`, function () {
    this.timeout(20 * 60_000);
    const file = (name: string) => path.join(recorded.dir, name);
    let resources: number;
    const writes = () => e2e.emulator.requests.list().filter((r) => r.method !== "GET");

    before(() => {
      const state = JSON.parse(fs.readFileSync(file(RECORDING.state), "utf8")) as StackExport;
      resources = (state.deployment.resources ?? []).filter((r) => !r.type.startsWith("pulumi:providers:")).length;
    });
    const e2e = useEmulatorStack(
      (workspace, emulator) => {
        const dir = path.join(workspace.root, recorded.language);
        fs.cpSync(recorded.dir, dir, { recursive: true });
        // The plugin cache as a user's after an upgrade: this checkout's plugin under its version,
        // beside a decoy of an older release, which must never run. Nothing of ours on PATH.
        const plugins = path.join(workspace.root, "home", "plugins");
        const install = (version: string, script: string) => {
          const dir = path.join(plugins, `resource-integration-platform-v${version}`);
          fs.mkdirSync(dir, { recursive: true });
          fs.writeFileSync(path.join(dir, "pulumi-resource-integration-platform"), script, { mode: 0o755 });
        };
        install(
          VERSION,
          `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO, "bin", "pulumi-resource-integration-platform")}" "$@"\n`,
        );
        install(DECOY_VERSION, DECOY);
        const toolchain = recorded.language === "python" ? [pythonBin()] : [];
        const PATH = [...toolchain, languageHostsDir(), engineBinDir(), process.env.PATH].join(path.delimiter);
        return upgradeStack(workspace, dir, emulator.url, { PATH });
      },
      {
        emulator: { apiKey: UPGRADE_API_KEY, fixtures: file(RECORDING.after) },
        init: async (stack) => {
          await stack.init();
          await stack.ok(["stack", "import", "--file", file(RECORDING.state)]);
        },
      },
    );

    it("previews no change, updates with no write, and destroys back to the platform before the recorded up", async () => {
      const shown: string[] = [];
      await step("1. preview --expect-no-changes passes", async () => {
        const preview = await e2e.stack.ok(["preview", "--expect-no-changes"]);
        shown.push(preview.stdout, preview.stderr);
        assert.deepEqual(resourceSummary(preview.stdout), { unchanged: resources }, preview.stdout);
      });

      await step("2. up changes nothing and writes nothing to the platform", async () => {
        e2e.emulator.requests.clear();
        const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
        shown.push(up.stdout, up.stderr);
        assert.deepEqual(resourceSummary(up.stdout), { unchanged: resources }, up.stdout);
        assert.deepEqual(writes(), [], "the up of a recorded stack wrote to the platform");
        const after = await readStateFile(file(RECORDING.after), "fixture");
        assert.deepEqual(observableState(e2e.emulator), observableState(after));
      });

      await step("3. destroy leaves the platform as it was before the recorded up", async () => {
        const destroy = await e2e.stack.ok(["destroy", "--yes", "--skip-preview"]);
        shown.push(destroy.stdout, destroy.stderr);
        assert.deepEqual(resourceSummary(destroy.stdout), { deleted: resources }, destroy.stdout);
        const before = await readStateFile(file(RECORDING.before), "fixture");
        assert.deepEqual(observableState(e2e.emulator), observableState(before));
      });

      assert.doesNotMatch(shown.join("\n"), /DECOY PLUGIN RAN/, "a cached plugin of another version ran");
    });
  });
}

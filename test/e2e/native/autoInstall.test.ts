// The plugin installed by the CLI itself: a Python program whose SDK (the release's wheel) names
// where its plugin comes from (`server` in pulumi-plugin.json, from the schema's pluginDownloadURL),
// and a mirror of the release folder on a local HTTP server that PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES
// points at, as air-gapped CI does (docs/installation-configuration.md). `pulumi up` downloads and
// installs the plugin, with no Node.js on its PATH and nothing installed by hand.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { archiveName } from "../../../scripts/release/executables";
import { engineBinDir, Stack } from "../../../harness/engine";
import { step, useEmulatorStack } from "../../../harness/e2e";
import { copyNativeExample, LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { nativeSecrets, observeQuickstart } from "../../../harness/native";
import {
  freshVirtualenv,
  pathWithoutNode,
  releaseFolder,
  startMirror,
  releaseVersions,
  type ReleaseMirror,
} from "../../support/release";

describe(`e2e: pulumi up installs the plugin from the SDK's download URL, through a mirror ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  const secrets = nativeSecrets();
  let mirror: ReleaseMirror;
  before(async () => {
    releaseFolder();
    mirror = await startMirror();
  });
  after(async () => mirror?.close());
  const e2e = useEmulatorStack(
    (workspace) => {
      const dir = copyNativeExample("python", workspace.root);
      freshVirtualenv(dir);
      return new Stack(workspace, dir, "dev", {
        PATH: pathWithoutNode(engineBinDir(), languageHostsDir()),
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: undefined,
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: mirror.override,
      });
    },
    { emulator: { apiKey: secrets.apiKey }, secrets: { crmToken: secrets.crmToken, accountQuota: secrets.quota } },
  );

  it("downloads the linux-amd64 archive once, installs it, creates the quickstart with it, and destroys back to the fixture", async () => {
    const { stack, emulator, workspace } = e2e;
    const fixture = await observeQuickstart(emulator);
    const plugins = path.join(workspace.root, "home", "plugins");
    await step("1. no plugin is installed, and none is on PATH", async () => {
      assert.ok(
        !fs.existsSync(plugins) ||
          !fs.readdirSync(plugins).some((name) => name.startsWith("resource-integration-platform")),
      );
    });
    await step("2. up fetches the plugin from the mirror, then creates", async () => {
      const up = await stack.ok(["up", "--yes", "--skip-preview"]);
      assert.match(up.stdout, /\+ 8 created/);
      const { version } = releaseVersions();
      assert.deepEqual(mirror.asked, [`/v${version}/${archiveName(version, "linux-amd64")}`]);
      const installed = path.join(plugins, `resource-integration-platform-v${version}`);
      assert.ok(
        fs.existsSync(path.join(installed, "pulumi-resource-integration-platform")),
        `the CLI installed the plugin in ${installed}`,
      );
      assert.notDeepEqual(await observeQuickstart(emulator), fixture);
    });
    await step("3. destroy, with the installed plugin and no second download, puts the fixture back", async () => {
      await stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.equal(mirror.asked.length, 1);
      assert.deepEqual(await observeQuickstart(emulator), fixture);
    });
  });
});

// The native provider from Python, installed as a new Python user does it: the release's wheel in a
// fresh virtualenv (`virtualenv: venv`, the layout `pulumi new python` writes), the plugin from its
// release archive with `pulumi plugin install --file`, and no Node.js on the CLI's PATH. The
// quickstart's resources walk their whole life through the real CLI, against the emulator at its
// default rate limit (the walk is harness/native.ts; the emulator runs in the test runner,
// which nothing on that PATH can reach but by HTTP).
import { engineBinDir, Stack } from "../../../harness/engine";
import { useEmulatorStack } from "../../../harness/e2e";
import { copyNativeExample, LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { nativeSecrets, walkNativeStack } from "../../../harness/native";
import { freshVirtualenv, installPluginFromArchive, pathWithoutNode, releaseFolder } from "../../support/release";

describe(`e2e: the native provider from Python (the release's wheel and plugin archive, no Node.js) ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  const secrets = nativeSecrets();
  // Made (or found) before the emulator starts: the first run on a machine takes minutes.
  before(() => releaseFolder());
  const e2e = useEmulatorStack(
    (workspace) => {
      const dir = copyNativeExample("python", workspace.root);
      freshVirtualenv(dir);
      installPluginFromArchive(workspace);
      return new Stack(workspace, dir, "dev", { PATH: pathWithoutNode(engineBinDir(), languageHostsDir()) });
    },
    { emulator: { apiKey: secrets.apiKey }, secrets: { crmToken: secrets.crmToken, accountQuota: secrets.quota } },
  );

  it("validates at preview, creates, previews no change with no call, finds drift, imports with no write, and destroys back to the fixture", async () => {
    await walkNativeStack(e2e, secrets);
  });
});

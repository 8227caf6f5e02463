// The native provider from Java: the generated SDK built with Maven and installed in a local
// repository (as `mvn install` of the release's jar gives a user), the program laid out as
// `pulumi new java` does (Maven; the Java host runs `mvn compile exec:java`), the plugin from its
// release archive. The quickstart's resources walk their whole life through the real CLI, against
// the emulator at its default rate limit (the walk is harness/native.ts).
import { engineBinDir, Stack } from "../../../harness/engine";
import { useEmulatorStack } from "../../../harness/e2e";
import { copyNativeExample, javaEnv, LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { nativeSecrets, walkNativeStack } from "../../../harness/native";
import { installPluginFromArchive, releaseFolder } from "../../support/release";

describe(`e2e: the native provider from Java (the generated SDK with Maven, the release's plugin archive) ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  const secrets = nativeSecrets();
  // Made (or found) before the emulator starts: the first run on a machine takes minutes.
  before(() => {
    releaseFolder();
    javaEnv();
  });
  const e2e = useEmulatorStack(
    (workspace) => {
      installPluginFromArchive(workspace);
      return new Stack(workspace, copyNativeExample("java", workspace.root), "dev", {
        // mvn and java from the system; the hosts and the engine first.
        PATH: [engineBinDir(), languageHostsDir(), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
        ...javaEnv(),
      });
    },
    { emulator: { apiKey: secrets.apiKey }, secrets: { crmToken: secrets.crmToken, accountQuota: secrets.quota } },
  );

  it("validates at preview, creates, previews no change with no call, finds drift, imports with no write, and destroys back to the fixture", async () => {
    await walkNativeStack(e2e, secrets);
  });
});

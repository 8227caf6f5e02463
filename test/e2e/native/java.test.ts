// The native provider from Java: the release's jar and pom installed in a local repository with
// `mvn install:install-file` (as a user does until the SDK is on Maven Central), the program laid out as
// `pulumi new java` does (Maven), then built once into a jar that the Java host runs (the runtime's `binary`
// option), as docs/guides/scaling.md recommends for CI; the plugin from its release archive. The quickstart's
// resources walk their whole life through the real CLI, against the emulator at its default rate limit (the walk
// is harness/native.ts). The layout as `pulumi new` leaves it (`mvn compile exec:java` at every command) is the
// getting-started page's, run as written by gettingStarted.test.ts.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { engineBinDir, Stack } from "../../../harness/engine";
import { useEmulatorStack } from "../../../harness/e2e";
import { copyNativeExample, javaEnv, LANGUAGES, languageHostsDir, MAVEN_REPOSITORY } from "../../../harness/languages";
import { nativeSecrets, walkNativeStack } from "../../../harness/native";
import { prebuildJava } from "../../../harness/prebuilt";
import { installPluginFromArchive, releaseFolder, releaseVersions } from "../../support/release";

/**
 * Installs the release's Java SDK (jar and pom, of the release's Maven version) in the tests' local repository:
 * the SDK must ask the engine for the plugin of the release's own version, which a snapshot's sdk/java does not.
 */
function installReleaseJar(): void {
  const base = path.join(releaseFolder(), `integration-platform-${releaseVersions().maven}`);
  execFileSync(
    "mvn",
    [
      ...["--batch-mode", "--quiet", "--no-transfer-progress", `-Dmaven.repo.local=${MAVEN_REPOSITORY}`],
      ...["install:install-file", `-Dfile=${base}.jar`, `-DpomFile=${base}.pom`],
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
}

describe(`e2e: the native provider from Java (the release's jar with Maven, the release's plugin archive) ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  const secrets = nativeSecrets();
  // Made (or found) before the emulator starts: the first run on a machine takes minutes.
  before(() => {
    releaseFolder();
    javaEnv();
    installReleaseJar();
  });
  const e2e = useEmulatorStack(
    (workspace) => {
      installPluginFromArchive(workspace);
      const dir = copyNativeExample("java", workspace.root);
      // The program depends on the release's SDK version, as a user's pom names the version they install.
      const pom = path.join(dir, "pom.xml");
      fs.writeFileSync(
        pom,
        fs
          .readFileSync(pom, "utf8")
          .replace(
            /(<artifactId>integration-platform<\/artifactId>\s*<version>)[^<]+(<\/version>)/,
            `$1${releaseVersions().maven}$2`,
          ),
      );
      prebuildJava(dir, "quickstart.App", javaEnv());
      return new Stack(workspace, dir, "dev", {
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

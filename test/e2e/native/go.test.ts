// The native provider from Go (the generated SDK as a Go module): the quickstart's resources through the real CLI, against
// the emulator at its default rate limit (the walk is harness/native.ts).
import { Stack } from "../../../harness/engine";
import { useEmulatorStack } from "../../../harness/e2e";
import { copyNativeExample, LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { nativePath, nativeSecrets, walkNativeStack } from "../../../harness/native";

describe(`e2e: the native provider from Go (the generated SDK as a Go module) ${LANGUAGES}`, function () {
  this.timeout(20 * 60_000);
  const secrets = nativeSecrets();
  const e2e = useEmulatorStack(
    (workspace) =>
      new Stack(workspace, copyNativeExample("go", workspace.root), "dev", { PATH: nativePath(languageHostsDir()) }),
    { emulator: { apiKey: secrets.apiKey }, secrets: { crmToken: secrets.crmToken, accountQuota: secrets.quota } },
  );

  it("validates at preview, creates, previews no change with no call, finds drift, imports with no write, and destroys back to the fixture", async () => {
    await walkNativeStack(e2e, secrets);
  });
});

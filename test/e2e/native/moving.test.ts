// Moving a TypeScript stack from the dynamic resources to the native provider: the quickstart
// deployed with the dynamic package, then the same program on the generated SDK. The schema's
// aliases map the dynamic type tokens, so nothing is replaced, nothing is written to the
// platform, and what destroy restores is kept (docs/guides/moving-to-native.md).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { NATIVE_TYPE_PREFIX, DYNAMIC_TYPE_PREFIX } from "../../../provider/typeTokens";
import { REPO, Stack, type StackExport } from "../../../harness/engine";
import { step, useEmulatorStack } from "../../../harness/e2e";
import { LANGUAGES, nodeSdkInstall } from "../../../harness/languages";
import { nativePath, nativeSecrets, observeQuickstart } from "../../../harness/native";
import { copyProgram } from "../../../harness/program";

/** What destroy restores, per resource name: the outputs create recorded. */
function restoreRecords(state: StackExport) {
  const ours = (state.deployment.resources ?? []).filter(
    (r) => r.type.startsWith(DYNAMIC_TYPE_PREFIX) || r.type.startsWith(NATIVE_TYPE_PREFIX),
  );
  return Object.fromEntries(
    ours.map((r) => {
      const outputs = r.outputs as Record<string, unknown>;
      return [
        r.urn.split("::").pop(),
        {
          previous: outputs.previous,
          previousEnabled: outputs.previousEnabled,
          previousValue: outputs.previousValue,
          foundExisting: outputs.foundExisting,
        },
      ];
    }),
  );
}

describe(`e2e: moving a TypeScript stack from the dynamic resources to the native provider ${LANGUAGES}`, function () {
  this.timeout(20 * 60_000);
  const secrets = nativeSecrets();
  const e2e = useEmulatorStack(
    // The dynamic quickstart, with both packages installed: the dynamic one it imports, and the generated SDK it moves to.
    (workspace) =>
      new Stack(
        workspace,
        copyProgram(path.join(REPO, "examples/quickstart"), workspace.root, nodeSdkInstall()),
        "dev",
        { PATH: nativePath() },
      ),
    { emulator: { apiKey: secrets.apiKey }, secrets: { crmToken: secrets.crmToken, accountQuota: secrets.quota } },
  );

  it("moves with no replacement and no write, keeps what destroy restores, and destroys back to the fixture", async () => {
    const fixture = await observeQuickstart(e2e.emulator);
    let before: ReturnType<typeof restoreRecords>;

    await step("1. the dynamic quickstart is deployed", async () => {
      const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      assert.match(up.stdout, /\+ 8 created/);
      before = restoreRecords(await e2e.stack.exportState());
      assert.equal(Object.keys(before).length, 7);
    });

    await step("2. the same program on the generated SDK previews every resource unchanged", async () => {
      // Only the import changes: the classes, names and arguments are the same (examples/native/typescript).
      fs.copyFileSync(path.join(REPO, "examples/native/typescript/index.ts"), path.join(e2e.stack.dir, "index.ts"));
      e2e.emulator.requests.clear();
      const preview = await e2e.stack.ok(["preview", "--diff"]);
      assert.match(preview.stdout, /8 unchanged/);
      assert.doesNotMatch(preview.stdout, /to create|to replace|to delete|to update/);
      assert.deepEqual(
        e2e.emulator.requests.list().filter((r) => r.method !== "GET"),
        [],
      );
    });

    await step(
      "3. up writes nothing to the platform; the state names the native types and keeps what destroy restores",
      async () => {
        e2e.emulator.requests.clear();
        const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
        assert.match(up.stdout, /8 unchanged/);
        assert.deepEqual(
          e2e.emulator.requests.list().filter((r) => r.method !== "GET"),
          [],
        );
        const state = await e2e.stack.exportState();
        const types = (state.deployment.resources ?? []).map((r) => r.type);
        assert.equal(types.filter((t) => t.startsWith(NATIVE_TYPE_PREFIX)).length, 7);
        assert.equal(types.filter((t) => t.startsWith(DYNAMIC_TYPE_PREFIX)).length, 0);
        assert.deepEqual(restoreRecords(state), before);
        const text = JSON.stringify(state);
        for (const secret of Object.values(secrets)) assert.ok(!text.includes(secret), "no secret in the state");
      },
    );

    await step("4. a refresh drops the old __provider, and the stack previews no change", async () => {
      await e2e.stack.ok(["refresh", "--yes", "--skip-preview"]);
      assert.ok(!(await e2e.stack.exportText()).includes("__provider"));
      const noop = await e2e.stack.run(["preview", "--expect-no-changes"]);
      assert.equal(noop.code, 0, noop.stdout + noop.stderr);
    });

    await step("5. destroy puts back what the dynamic resources took over", async () => {
      await e2e.stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.deepEqual(await observeQuickstart(e2e.emulator), fixture);
    });
  });
});

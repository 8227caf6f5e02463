// Upgrades: a stack deployed by an earlier release keeps working with this one, modeled on
// pulumi/providertest's PreviewProviderUpgrade. Each test/e2e/upgrade/v<version>/ holds a stack
// that release deployed (recorded by the record-upgrade script). Its state's `__provider`s require that
// release's package paths, which refresh and destroy load from this release's package: a path
// that moved fails here, as it would for every user's stack (pulumi/pulumi#16826, #9085, #18976).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readStateFile } from "../../emulator/store";
import type { StackExport } from "../../harness/engine";
import { copyProgram } from "../../harness/program";
import {
  recordedReleases,
  RECORDING,
  resourceSummary,
  UPGRADE_API_KEY,
  UPGRADE_DIR,
  upgradeStack,
} from "../../harness/upgrade";
import { observableState, step, useEmulatorStack } from "../../harness/e2e";

const releases = recordedReleases();

describe("e2e: upgrade recordings", () => {
  it("at least one earlier release is recorded", () => {
    assert.ok(
      releases.length > 0,
      `no recording in ${UPGRADE_DIR}: record one with record-upgrade.ts --from <ref of the previous release> (docs/development.md)`,
    );
  });
});

for (const release of releases) {
  describe(`e2e: a stack deployed by ${release}, with this release installed from its tarball`, function () {
    this.timeout(10 * 60_000);
    const recording = path.join(UPGRADE_DIR, release);
    const file = (name: string) => path.join(recording, name);
    let resources: number;

    before(() => {
      for (const name of ["index.ts", "Pulumi.yaml", ...Object.values(RECORDING)]) {
        assert.ok(fs.existsSync(file(name)), `the recording of ${release} has ${name}`);
      }
      const state = JSON.parse(fs.readFileSync(file(RECORDING.state), "utf8")) as StackExport;
      // What the CLI's summary counts: every resource but the providers.
      resources = (state.deployment.resources ?? []).filter((r) => !r.type.startsWith("pulumi:providers:")).length;
    });
    const e2e = useEmulatorStack(
      // The copy brings the recorded config file, whose salt the stack keeps.
      (workspace, emulator) => upgradeStack(workspace, copyProgram(recording, workspace.root), emulator.url),
      {
        // Seeded from the recording, not backed by it: `fixtures` is only read, never written.
        emulator: { apiKey: UPGRADE_API_KEY, fixtures: file(RECORDING.after) },
        // The stack as the release left it: its recorded config and state, nothing set on top.
        init: async (stack) => {
          await stack.init();
          await stack.ok(["stack", "import", "--file", file(RECORDING.state)]);
        },
      },
    );

    // One walk through the rest of the stack's life: each step starts from what the steps before it left.
    it("preview, up, refresh and destroy pass, and leave the platform as recorded, then as before the recorded up", async () => {
      await step("1. preview --expect-no-changes passes", async () => {
        const preview = await e2e.stack.ok(["preview", "--expect-no-changes"]);
        assert.deepEqual(
          resourceSummary(preview.stdout),
          { unchanged: resources },
          `every resource unchanged\n${preview.stdout}`,
        );
      });

      await step("2. up passes, changes nothing and writes nothing to the platform", async () => {
        e2e.emulator.requests.clear();
        const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
        assert.deepEqual(
          resourceSummary(up.stdout),
          { unchanged: resources },
          `every resource unchanged\n${up.stdout}`,
        );
        assert.deepEqual(
          e2e.emulator.requests.list().filter((r) => r.method !== "GET"),
          [],
          "the up of a recorded stack wrote to the platform",
        );
      });

      await step("3. refresh passes and changes nothing, in the state or on the platform", async () => {
        const refresh = await e2e.stack.ok(["refresh", "--yes"]);
        assert.deepEqual(
          resourceSummary(refresh.stdout),
          { unchanged: resources },
          `every resource unchanged\n${refresh.stdout}`,
        );
        const recorded = await readStateFile(file(RECORDING.after), "fixture");
        assert.deepEqual(
          observableState(e2e.emulator),
          observableState(recorded),
          "preview and refresh left the platform as recorded after up",
        );
      });

      await step("4. destroy passes and leaves the platform as it was before the recorded up", async () => {
        const destroy = await e2e.stack.ok(["destroy", "--yes"]);
        assert.deepEqual(
          resourceSummary(destroy.stdout),
          { deleted: resources },
          `every resource deleted\n${destroy.stdout}`,
        );
        const before = await readStateFile(file(RECORDING.before), "fixture");
        assert.deepEqual(
          observableState(e2e.emulator),
          observableState(before),
          "the platform ends as it was before the recorded up",
        );
      });
    });
  });
}

// The test above can fail: a recording whose state names a property this release does not (as a
// release that renamed one would have written) does not preview without changes.
describe(`e2e: a recording of ${releases[releases.length - 1]} made wrong on purpose`, function () {
  this.timeout(10 * 60_000);
  const recording = path.join(UPGRADE_DIR, releases[releases.length - 1]);
  const e2e = useEmulatorStack(
    (workspace, emulator) => upgradeStack(workspace, copyProgram(recording, workspace.root), emulator.url),
    {
      emulator: { apiKey: UPGRADE_API_KEY, fixtures: path.join(recording, RECORDING.after) },
      init: async (stack) => {
        await stack.init();
        const state = fs.readFileSync(path.join(recording, RECORDING.state), "utf8");
        const renamed = state.replaceAll('"fieldId":', '"fieldID":');
        assert.notEqual(renamed, state, "the recording holds a fieldId to rename");
        const file = path.join(stack.dir, "renamed-state.json");
        fs.writeFileSync(file, renamed);
        await stack.ok(["stack", "import", "--file", file]);
      },
    },
  );

  it("fieldId renamed in its state: preview --expect-no-changes fails", async () => {
    const preview = await e2e.stack.run(["preview", "--expect-no-changes"]);
    assert.notEqual(preview.code, 0, `a renamed property went unnoticed\n${preview.stdout}`);
    assert.match(preview.stdout + preview.stderr, /fieldId/);
  });
});

// A refactor must not change what state holds: the newest recording's program, deployed by this
// release from the same platform state, must write what that release wrote.
const newest = releases[releases.length - 1];
describe(`e2e: this release writes the state ${newest} wrote`, function () {
  this.timeout(10 * 60_000);
  const recording = path.join(UPGRADE_DIR, newest);
  const e2e = useEmulatorStack(
    (workspace, emulator) => upgradeStack(workspace, copyProgram(recording, workspace.root), emulator.url),
    {
      emulator: { apiKey: UPGRADE_API_KEY, fixtures: path.join(recording, RECORDING.before) },
      init: (stack) => stack.init(),
    },
  );

  it("an up of its program from the same platform: every resource's inputs (`__provider` included) and outputs are equal", async () => {
    await e2e.stack.ok(["up", "--yes"]);
    const ours = comparable(
      withoutIntendedChanges(
        JSON.parse((await e2e.stack.ok(["stack", "export", "--show-secrets"])).stdout) as StackExport,
      ),
    );
    // The recording decrypts with the same passphrase and the recorded config's salt.
    await e2e.stack.ok(["stack", "import", "--file", path.join(recording, RECORDING.state)]);
    const recorded = comparable(
      JSON.parse((await e2e.stack.ok(["stack", "export", "--show-secrets"])).stdout) as StackExport,
    );
    assert.equal(ours.length, recorded.length, "as many resources");
    for (let i = 0; i < recorded.length; i++)
      assert.deepEqual(ours[i], recorded[i], `resource ${i} (${String(recorded[i].urn)})`);
  });
});

/**
 * A state's resources without what differs between two equal runs: timestamps, where the program
 * was installed, the default provider's generated id, and the ids the platform generates for new objects.
 */
function comparable(state: StackExport): Record<string, unknown>[] {
  const text = JSON.stringify(state.deployment.resources ?? [], (key, value) =>
    UNCOMPARED.has(key) ? undefined : value,
  )
    .replace(/(pulumi:providers:[^"]*::)[0-9a-f-]{36}/g, "$1<provider id>")
    .replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<provider id>"')
    .replace(/\b[0-9a-f]{24}\b/g, (id) => (FIXTURE_IDS.has(id) ? id : "<new id>"));
  // Resources are written as their operations finish, in no fixed order.
  return (JSON.parse(text) as Record<string, unknown>[]).sort((a, b) => String(a.urn).localeCompare(String(b.urn)));
}

/**
 * What this release writes differently on purpose since the newest recording, by resource type;
 * empty again once the next release is recorded. Each entry says why.
 */
const INTENDED_SINCE_NEWEST: Record<string, { additionalSecretOutputs?: string[] }> = {
  // Issue 64: ConfigField's previousValue output holds the value a field had, which may be a secret.
  ConfigField: { additionalSecretOutputs: ["previousValue"] },
};

/** The state without INTENDED_SINCE_NEWEST's changes, so that the rest is compared. */
function withoutIntendedChanges(state: StackExport): StackExport {
  for (const resource of (state.deployment.resources ?? []) as { type: string; additionalSecretOutputs?: string[] }[]) {
    const intended = INTENDED_SINCE_NEWEST[resource.type.split(/[/:]/).pop() ?? ""];
    if (!intended?.additionalSecretOutputs || !resource.additionalSecretOutputs) continue;
    resource.additionalSecretOutputs = resource.additionalSecretOutputs.filter(
      (name) => !intended.additionalSecretOutputs!.includes(name),
    );
    if (resource.additionalSecretOutputs.length === 0) delete resource.additionalSecretOutputs;
  }
  return state;
}

/** Keys whose values differ between two equal runs. */
const UNCOMPARED = new Set(["created", "modified", "sourcePosition", "stackTrace"]);

/** Ids the fixtures hold, which a new object never gets. */
const FIXTURE_IDS = new Set(
  recordedReleases().flatMap(
    (release) =>
      fs.readFileSync(path.join(UPGRADE_DIR, release, RECORDING.before), "utf8").match(/\b[0-9a-f]{24}\b/g) ?? [],
  ),
);

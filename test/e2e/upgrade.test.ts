// Upgrades: a stack deployed by an earlier release keeps working with this one, modeled on
// pulumi/providertest's PreviewProviderUpgrade. Each test/e2e/upgrade/v<version>/ holds a stack
// that release deployed (scripts/record-upgrade.ts). Its state's `__provider`s require that
// release's package paths, which refresh and destroy load from this release's package: a path
// that moved fails here, as it would for every user's stack (pulumi/pulumi#16826, #9085, #18976).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { readStateFile } from "../../emulator/store";
import { Workspace, type CommandResult, type Stack, type StackExport } from "../../scripts/lib/engine";
import { copyProgram } from "../../scripts/lib/program";
import { recordedReleases, RECORDING, UPGRADE_API_KEY, UPGRADE_DIR, upgradeStack } from "../../scripts/lib/upgrade";
import { observableState } from "../support/e2e";

/** The counts of the CLI's last "Resources:" summary (an update's, not its preview's), e.g. `{ deleted: 8 }`. */
function resourceSummary(stdout: string): Record<string, number> {
  const blocks = stdout.split(/^Resources:\n/m);
  const block = blocks.length > 1 ? blocks[blocks.length - 1].split(/\n\s*\n/)[0] : "";
  const counts: Record<string, number> = {};
  for (const line of block.split("\n")) {
    const match = /^\s*[-+~]*\s*(\d+) (.+?)\s*$/.exec(line);
    if (match) counts[match[2]] = Number(match[1]);
  }
  return counts;
}

/** Runs one step's command; unless it succeeds, fails naming the step, its distinct errors first, then everything the CLI printed. */
async function step(stack: Stack, name: string, args: string[]): Promise<CommandResult> {
  const result = await stack.run(args);
  if (result.code !== 0) {
    const errors = new Set(`${result.stdout}\n${result.stderr}`.split("\n").filter((line) => /^\s*error: /.test(line)).map((line) => line.trim()));
    assert.fail(`${name}: pulumi ${args.join(" ")} exited ${result.code}\n${[...errors].join("\n")}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}

const releases = recordedReleases();

describe("e2e: upgrade recordings", () => {
  it("at least one earlier release is recorded", () => {
    assert.ok(releases.length > 0, `no recording in ${UPGRADE_DIR}: run scripts/record-upgrade.ts --from <ref of the previous release>`);
  });
});

for (const release of releases) {
  describe(`e2e: a stack deployed by ${release}, with this release installed from its tarball`, function () {
    this.timeout(10 * 60_000);
    const recording = path.join(UPGRADE_DIR, release);
    const file = (name: string) => path.join(recording, name);
    let emulator: RunningEmulator;
    let workspace: Workspace;
    let stack: Stack;
    let resources: number;

    before(async () => {
      for (const name of ["index.ts", "Pulumi.yaml", ...Object.values(RECORDING)]) {
        assert.ok(fs.existsSync(file(name)), `the recording of ${release} has ${name}`);
      }
      const state = JSON.parse(fs.readFileSync(file(RECORDING.state), "utf8")) as StackExport;
      // What the CLI's summary counts: every resource but the providers.
      resources = (state.deployment.resources ?? []).filter((r) => !r.type.startsWith("pulumi:providers:")).length;
      // Seeded from the recording, not backed by it: `fixtures` is only read, never written.
      emulator = await startEmulator({ quiet: true, apiKey: UPGRADE_API_KEY, fixtures: file(RECORDING.after) });
      workspace = new Workspace();
      // The copy brings the recorded config file, whose salt the stack keeps.
      stack = upgradeStack(workspace, copyProgram(recording, workspace.root), emulator.url);
      await stack.init();
      await stack.ok(["stack", "import", "--file", file(RECORDING.state)]);
    });
    after(async () => {
      workspace?.dispose();
      await emulator?.close();
    });

    it("1. preview --expect-no-changes passes", async () => {
      const preview = await step(stack, "step 1 (preview)", ["preview", "--expect-no-changes"]);
      assert.deepEqual(resourceSummary(preview.stdout), { unchanged: resources }, `step 1 (preview): every resource unchanged\n${preview.stdout}`);
    });

    it("2. refresh passes and changes nothing, in the state or on the platform", async () => {
      const refresh = await step(stack, "step 2 (refresh)", ["refresh", "--yes"]);
      assert.deepEqual(resourceSummary(refresh.stdout), { unchanged: resources }, `step 2 (refresh): every resource unchanged\n${refresh.stdout}`);
      const recorded = await readStateFile(file(RECORDING.after), "fixture");
      assert.deepEqual(observableState(emulator), observableState(recorded), "step 2 (refresh): preview and refresh left the platform as recorded after up");
    });

    it("3. destroy passes and leaves the platform as it was before the recorded up", async () => {
      const destroy = await step(stack, "step 3 (destroy)", ["destroy", "--yes"]);
      assert.deepEqual(resourceSummary(destroy.stdout), { deleted: resources }, `step 3 (destroy): every resource deleted\n${destroy.stdout}`);
      const before = await readStateFile(file(RECORDING.before), "fixture");
      assert.deepEqual(observableState(emulator), observableState(before), "step 3 (destroy): the platform ends as it was before the recorded up");
    });
  });
}

// `import --language python|go|yaml` of a running workspace (the default fixture, with an encrypted
// env value and a field renamed outside Pulumi), each project then run through the real CLI
// against the emulator at its default rate limit, on the native provider (the plugin of this
// checkout, bin/, which constructs LinkedAccountSetup): `pulumi up` adopts everything with only
// GETs at the platform, `pulumi preview --expect-no-changes` holds, and `pulumi destroy` leaves the
// platform as the import found it. One emulator and one workspace for the three: every stack
// adopts the same objects, one after another, each destroyed before the next.
import * as assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { engineBinDir, REPO, resourcesOfType, Stack } from "../../harness/engine";
import { observableState, step, useEmulatorStack } from "../../harness/e2e";
import { LANGUAGES, languageHostsDir, pythonBin } from "../../harness/languages";

/** Runs the command line as built (dist/), with the emulator's address and API key in the environment. */
function runImport(
  emulator: RunningEmulator,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO, "dist/cli/main.js"), "import", ...args],
      {
        env: {
          ...process.env,
          INTEGRATION_PLATFORM_BASE_URL: emulator.url,
          INTEGRATION_PLATFORM_API_KEY: emulator.apiKey,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The `pulumi config set --secret` lines the import printed, each with the value its user would look up. */
function printedSecrets(emulator: RunningEmulator, stdout: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [, key, definition, account] of stdout.matchAll(
    /^ {2}pulumi config set --secret (\S+) +# (\w+)(?:, linked account ([^,\s]+))?$/gm,
  )) {
    const value = emulator.store.envVariables.valueFor(
      emulator.store.envVariables.definitionByName(definition)!._id,
      account ?? null,
      null,
    );
    assert.ok(value, `the platform holds the value that ${key} stands for`);
    secrets[key] = value.value;
  }
  return secrets;
}

/** What each language's project needs here that its README has users do: the SDK installed, the Go module resolved. */
const PREPARE: Record<"python" | "go" | "yaml", (dir: string) => void> = {
  // The venv the README makes, with this checkout's SDK (harness/languages.ts builds it once per SDK).
  python: (dir) => fs.symlinkSync(path.dirname(pythonBin()), path.join(dir, "venv"), "dir"),
  // The README's `go mod tidy`, without the network: this checkout's SDK, the sums examples/native/go
  // keeps, the module cache only; -e passes over dependencies' test-only imports that the cache lacks.
  go: (dir) => {
    fs.appendFileSync(
      path.join(dir, "go.mod"),
      `\nreplace github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go => ${path.join(REPO, "sdk/go")}\n`,
    );
    fs.copyFileSync(path.join(REPO, "examples/native/go/go.sum"), path.join(dir, "go.sum"));
    execFileSync("go", ["mod", "tidy", "-e"], {
      cwd: dir,
      env: { ...process.env, GOPROXY: "off", GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" },
      stdio: ["ignore", "pipe", "pipe"],
    });
  },
  // Nothing: the YAML host reads the schema from the plugin.
  yaml: () => {},
};

describe(`e2e: import --language python, go and yaml, then adopt with pulumi up ${LANGUAGES}`, function () {
  this.timeout(15 * 60_000);
  const e2e = useEmulatorStack((workspace) => new Stack(workspace, path.join(workspace.root, "unused")), {
    init: async () => {},
  });
  const writes = () => e2e.emulator.requests.list().filter((r) => r.method !== "GET");
  const PATH = [path.join(REPO, "bin"), languageHostsDir(), engineBinDir(), process.env.PATH].join(path.delimiter);

  before(async () => {
    // Made before the first stack needs them: the first run on a machine takes minutes.
    pythonBin();
    // A field renamed outside Pulumi: the programs declare it, and destroy has a name to put back.
    await e2e.emulator.store.update(() => {
      const config = e2e.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
      e2e.emulator.store.configs.fieldState(config, null, "hs_pipeline").name = "Deals pipeline";
    });
  });

  for (const language of ["python", "go", "yaml"] as const) {
    it(`${language}: import, up with only GETs, no change at preview, destroy back to what the import found`, async () => {
      const dir = path.join(e2e.workspace.root, `platform-${language}`);
      const found = observableState(e2e.emulator);
      const run = await step(`import --language ${language}`, async () => {
        e2e.emulator.requests.clear();
        const run = await runImport(e2e.emulator, ["--slug", "hubspot", "--language", language, "--out", dir]);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(writes(), []);
        return run;
      });
      PREPARE[language](dir);
      const stack = new Stack(e2e.workspace, dir, "dev", { PATH });
      await step("the stack, with the connection and the secrets the import printed", async () => {
        const secrets = printedSecrets(e2e.emulator, run.stdout);
        assert.deepEqual(Object.keys(secrets), ["CRM_API_TOKEN-acme"]);
        await e2e.addStack(stack, { secrets });
      });
      await step("pulumi up adopts everything with only GETs, and leaves the emulator's state as it was", async () => {
        const before = e2e.emulator.store.snapshot();
        e2e.emulator.requests.clear();
        await stack.ok(["up", "--yes", "--skip-preview"]);
        assert.deepEqual(
          writes().map((r) => `${r.method} ${r.path}`),
          [],
          "no write at the platform",
        );
        assert.deepEqual(e2e.emulator.store.snapshot(), before, "the emulator's state is unchanged");
        const state = await stack.exportState();
        assert.equal(resourcesOfType(state, "integration-platform:index:LinkedAccountSetup").length, 3);
        const fields = resourcesOfType(state, "integration-platform:index:ConfigField");
        assert.deepEqual(
          fields
            .map((f) => f.inputs?.restoreOnDelete)
            .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
          [{ name: "Deals pipeline" }, { value: "api.hubapi.com" }],
          "the field declares what the import found as restoreOnDelete",
        );
      });
      await step("pulumi preview --expect-no-changes, with only GETs", async () => {
        e2e.emulator.requests.clear();
        await stack.ok(["preview", "--expect-no-changes"]);
        assert.deepEqual(writes(), []);
      });
      await step("destroy leaves the platform as the import found it", async () => {
        await stack.ok(["destroy", "--yes", "--skip-preview"]);
        assert.deepEqual(observableState(e2e.emulator), found);
        assert.deepEqual(
          e2e.emulator.requests.list().filter((r) => r.method === "DELETE"),
          [],
          "no env value deleted",
        );
      });
    });
  }
});

// `import --fixture`: a copy of a workspace's shape for the emulator. The round trip: emulator A →
// import --fixture → emulator B started from that file → import of B writes the same project and the
// same fixture as import of A; encrypted values never reach the file.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { main } from "../../cli/main";
import { PLACEHOLDERS } from "../../cli/import/fixture";

/** Runs the command line in-process against `emulator`; resolves to its exit status and output. */
async function cli(emulator: RunningEmulator, args: string[]) {
  const run = { stdout: "", stderr: "" };
  const code = await main(args, {
    stdout: (text) => (run.stdout += text),
    stderr: (text) => (run.stderr += text),
    readStdin: async () => "",
    env: { INTEGRATION_PLATFORM_BASE_URL: emulator.url, INTEGRATION_PLATFORM_API_KEY: emulator.apiKey },
    stderrIsTTY: false,
  });
  return { code, ...run };
}

/** A project directory's files by name, with `dir` itself written as <out>. */
function projectIn(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name), "utf8").replaceAll(dir, "<out>")]),
  );
}

describe("pulumi-integration-platform import --fixture", function () {
  this.timeout(60_000);
  let tmp: string;
  const running: RunningEmulator[] = [];

  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-import-fixture-"))));
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const start = async (fixtures?: string) => {
    const emulator = await startEmulator({ quiet: true, ...(fixtures ? { fixtures } : {}) });
    running.push(emulator);
    return emulator;
  };

  it("A → fixture → B: importing B writes the same project and fixture as A, with placeholders for encrypted values", async () => {
    const a = await start();
    // A value and a field name of one config's own, so that the copy must keep a config's overrides.
    await a.store.configs.updateField(
      {
        key: { linkedAccountId: "acme", slug: "hubspot", configId: "acme" },
        fieldId: "hs_sync_limit",
        workflowId: undefined,
        update: { form: "value", value: 250 },
      },
      "api_key",
    );
    const secrets = (() => {
      const state = a.store.snapshot();
      const encrypted = new Set(state.envDefinitions.filter((d) => d.encrypted).map((d) => d._id));
      return state.envValues.filter((v) => encrypted.has(v.variable_definition_id)).map((v) => v.value);
    })();
    assert.ok(secrets.length > 0);

    const args = (out: string, fixture: string) => [
      "import",
      "--slug",
      "hubspot",
      "--slug",
      "slack",
      "--out",
      out,
      "--fixture",
      fixture,
    ];
    const fromA = await cli(a, args(path.join(tmp, "a", "platform"), path.join(tmp, "a.json")));
    assert.equal(fromA.code, 0, fromA.stderr);
    assert.match(
      fromA.stdout,
      /Wrote the fixture .*a\.json: 3 linked accounts, 6 configs, \d+ env values \(\d+ encrypted ones as placeholders\)/,
    );
    assert.match(fromA.stdout, /pulumi-integration-platform-emulator --fixtures /);
    const fixtureText = fs.readFileSync(path.join(tmp, "a.json"), "utf8");
    for (const secret of secrets) assert.ok(!fixtureText.includes(secret), "an encrypted value reached the fixture");
    assert.ok(fixtureText.includes(PLACEHOLDERS.string));

    const b = await start(path.join(tmp, "a.json"));
    const fromB = await cli(b, args(path.join(tmp, "b", "platform"), path.join(tmp, "b.json")));
    assert.equal(fromB.code, 0, fromB.stderr);
    assert.deepEqual(projectIn(path.join(tmp, "b", "platform")), projectIn(path.join(tmp, "a", "platform")));
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(tmp, "b.json"), "utf8")), JSON.parse(fixtureText));
    assert.equal(
      (
        b.store.configs
          .find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })
          ?.fields.find((f) => f.id === "hs_sync_limit") as { value?: unknown }
      )?.value,
      250,
    );
  });

  it("--fixture alone writes only the fixture; an existing file needs --force; nothing is written to the platform", async () => {
    const a = await start();
    const file = path.join(tmp, "ci", "workspace.json");
    const first = await cli(a, ["import", "--slug", "hubspot", "--fixture", file]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(fs.readdirSync(tmp), ["ci"]);
    assert.deepEqual(fs.readdirSync(path.join(tmp, "ci")), ["workspace.json"]);
    const again = await cli(a, ["import", "--slug", "hubspot", "--fixture", file]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /--fixture .*workspace\.json exists: give --force to replace it/);
    assert.equal((await cli(a, ["import", "--slug", "hubspot", "--fixture", file, "--force"])).code, 0);
    assert.deepEqual(
      a.requests.list().filter((r) => r.method !== "GET"),
      [],
    );
  });
});

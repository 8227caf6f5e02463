// The native provider's walk, shared by every language's e2e test: the same quickstart resources,
// written in TypeScript (the generated SDK), Python, Go or YAML, through the real CLI, against the
// emulator at its default rate limit. Each language's test only says how its program is made.
import * as assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import type { RunningEmulator } from "../emulator";
import { NATIVE_TYPE_PREFIX } from "../provider/typeTokens";
import { eventDocument, publicGet, step, type E2EContext } from "./e2e";
import { engineBinDir, resourcesOfType, type CommandResult } from "./engine";
import { FIXTURE } from "./fixture";
import { installedPackage } from "./program";

/** Distinctive secrets, so that finding one in a state or an output means a leak and nothing else. */
export function nativeSecrets() {
  return {
    apiKey: `tk_native_${randomBytes(6).toString("hex")}`,
    crmToken: `crm-${randomBytes(6).toString("hex")}`,
    quota: String(100_000_000_000 + randomBytes(4).readUInt32BE()),
  };
}

/**
 * PATH for a stack of the native provider: the plugin as `npm install pulumi-integration-platform`
 * puts it (node_modules/.bin of the installed tarball), then the engine, then `extra` (a language host's toolchain).
 */
export function nativePath(...extra: string[]): string {
  return [path.join(installedPackage(), "node_modules", ".bin"), engineBinDir(), ...extra, process.env.PATH ?? ""].join(
    path.delimiter,
  );
}

/** What users observe of the objects the quickstart touches, through the public API. */
export async function observeQuickstart(emulator: RunningEmulator) {
  const get = (url: string, headers: Record<string, string> = {}) => publicGet(emulator, url, headers);
  const values = await Promise.all([
    get("/env/values/linked_account?linked_account_id=globex&limit=100"),
    get("/env/values/workflow?workflow_id=wf_slack_notify&limit=100"),
  ]);
  return {
    config: await get("/slug/hubspot/config/globex", { linked_account_id: "globex" }),
    event: eventDocument(emulator.store.applicationEvents.find(FIXTURE.events[1])!),
    envValues: values
      .flatMap((page) => page.docs)
      .map((v: { _id: string; value: string }) => ({ id: v._id, value: v.value })),
  };
}

/** The requests that could have changed something: every call but GET. */
function writes(emulator: RunningEmulator) {
  return emulator.requests.list().filter((r) => r.method !== "GET");
}

/** Every output of every command so far, to search for leaked secrets at the end. */
const outputs: CommandResult[] = [];
function seen<T extends CommandResult>(result: T): T {
  outputs.push(result);
  return result;
}

/**
 * Asserts what `up` of the quickstart (examples/native/<language>) created: its output names each type and
 * counts 8, and the emulator holds the field, the toggle, the event and the env values it declares.
 */
export async function assertQuickstartCreated(
  stdout: string,
  emulator: RunningEmulator,
  secrets: ReturnType<typeof nativeSecrets>,
): Promise<void> {
  assert.match(stdout, /\+ 8 created/);
  for (const type of ["ConfigField", "WorkflowToggle", "ApplicationEvent", "EnvVariableValue"])
    assert.ok(stdout.includes(`${NATIVE_TYPE_PREFIX}${type}`), `up names ${NATIVE_TYPE_PREFIX}${type}`);
  await assertQuickstartOnPlatform(emulator, secrets);
}

/**
 * Asserts the platform holds what the quickstart declares (the dynamic and the native one alike): the pipeline
 * field's name and options, the enabled toggle, the event's response structure, and every env value.
 */
export async function assertQuickstartOnPlatform(
  emulator: RunningEmulator,
  secrets: { quota: string; crmToken: string },
): Promise<void> {
  const live = await observeQuickstart(emulator);
  const pipeline = live.config.fields.find((f: { id: string }) => f.id === "hs_pipeline");
  assert.equal(pipeline.name, "Sales pipeline");
  assert.deepEqual(pipeline.options, [
    { name: "Sales", value: "sales" },
    { name: "Partners", value: "partners" },
  ]);
  assert.equal(live.config.workflows.find((w: { id: string }) => w.id === "wf_hs_contact_sync").enabled, true);
  // The engine sorts object keys on the way to the provider, so compare parsed documents.
  assert.deepEqual(live.event.raw_response, { deal: { id: "d_1", amount: 1200, currency: "EUR" }, owner: "ada" });
  const values = emulator.store.snapshot().envValues.map((v) => v.value);
  for (const value of [secrets.quota, secrets.crmToken, "https://hooks.example.com/slack/notify"])
    assert.ok(values.includes(value), "every env value is set");
}

/**
 * The walk: a preview that validates (a wrong field is refused with no write), up, a preview with
 * no change and no call, an out-of-band change found by refresh, `pulumi import` of an existing
 * object with no write, and destroy that puts the platform back exactly; no secret anywhere.
 * The program reads `pipelineFieldId` (default `hs_pipeline`), `crmToken` and `accountQuota`.
 */
export async function walkNativeStack(e2e: E2EContext, secrets: ReturnType<typeof nativeSecrets>): Promise<void> {
  const { emulator, stack } = e2e;
  outputs.length = 0;
  const fixture = await observeQuickstart(emulator);
  const token = (type: string) => `${NATIVE_TYPE_PREFIX}${type}`;

  await step(
    "1. preview validates against the platform: a field the app lacks is refused, naming it, with no write",
    async () => {
      await stack.ok(["config", "set", "pipelineFieldId", "hs_no_such_field"]);
      emulator.requests.clear();
      const bad = seen(await stack.run(["preview"]));
      assert.notEqual(bad.code, 0, bad.stdout);
      assert.match(
        bad.stdout + bad.stderr,
        /fieldId: config "globex" \(app "hubspot", linked account "globex"\) has no field "hs_no_such_field"/,
      );
      assert.deepEqual(writes(emulator), []);
      await stack.ok(["config", "rm", "pipelineFieldId"]);
      const good = seen(await stack.ok(["preview"]));
      assert.match(good.stdout, /\+ 8 to create/);
      assert.deepEqual(writes(emulator), []);
      assert.deepEqual(await observeQuickstart(emulator), fixture);
    },
  );

  await step("2. up creates the quickstart's resources as declared", async () => {
    const up = seen(await stack.ok(["up", "--yes", "--skip-preview"]));
    await assertQuickstartCreated(up.stdout, emulator, secrets);
  });

  await step("3. the state holds no secret, no __provider, and the env values as secrets", async () => {
    const text = await stack.exportText();
    for (const [what, secret] of Object.entries({
      "the API key": secrets.apiKey,
      "the CRM token": secrets.crmToken,
      "the quota": secrets.quota,
    })) {
      const at = text.indexOf(secret);
      assert.ok(at < 0, `the state must not contain ${what}; found in: ${text.slice(Math.max(0, at - 300), at + 100)}`);
    }
    assert.ok(!text.includes("__provider"), "a native resource keeps no __provider");
    const state = JSON.parse(text);
    const values = resourcesOfType(state, token("EnvVariableValue"));
    assert.equal(values.length, 3);
    for (const value of values)
      assert.equal(
        (value.outputs?.value as Record<string, unknown>)["4dabf18193072939515e22adb298388d"],
        "1b47061264138c4ac30d75fd1eb44270",
        "value is a secret output",
      );
  });

  await step("4. preview --expect-no-changes passes and makes no API call", async () => {
    emulator.requests.clear();
    const preview = seen(await stack.run(["preview", "--expect-no-changes"]));
    assert.equal(preview.code, 0, preview.stdout + preview.stderr);
    assert.match(preview.stdout, /8 unchanged/);
    assert.deepEqual(emulator.requests.list(), []);
  });

  await step("5. an out-of-band change shows in refresh, in the state's inputs", async () => {
    const config = emulator.store.configs.find({ linkedAccountId: "globex", slug: "hubspot", configId: "globex" })!;
    emulator.store.configs.fieldState(config, null, "hs_pipeline").name = "Renamed by hand";
    const refresh = seen(await stack.ok(["refresh", "--yes", "--skip-preview"]));
    assert.match(
      refresh.stdout,
      new RegExp(`~\\s+${token("ConfigField").replace(/[:]/g, "\\$&")}\\s+pipeline\\s+updated`),
    );
    assert.match(refresh.stdout, /~ 1 updated/);
    const pipeline = ((await stack.exportState()).deployment.resources ?? []).find((r) =>
      r.urn.endsWith("::pipeline"),
    )!;
    assert.equal((pipeline.inputs as { name?: string }).name, "Renamed by hand");
    const preview = seen(await stack.ok(["preview", "--diff"]));
    assert.match(preview.stdout, /~ name\s*: "Renamed by hand" => "Sales pipeline"/);
    seen(await stack.ok(["up", "--yes", "--skip-preview"]));
    const live = await observeQuickstart(emulator);
    assert.equal(live.config.fields.find((f: { id: string }) => f.id === "hs_pipeline").name, "Sales pipeline");
  });

  await step("6. pulumi import adopts an existing field and a workflow toggle with no write", async () => {
    const dealAlerts = (await observeQuickstart(emulator)).config.workflows.find(
      (w: { id: string }) => w.id === "wf_hs_deal_alerts",
    ).enabled as boolean;
    emulator.requests.clear();
    for (const [type, name, id] of [
      ["ConfigField", "api-domain", "globex/hubspot/globex//hs_api_domain"],
      ["WorkflowToggle", "deal-alerts", "globex/hubspot/globex/wf_hs_deal_alerts"],
    ]) {
      const imported = seen(
        await stack.ok(["import", token(type), name, id, "--yes", "--generate-code=false", "--protect=false"]),
      );
      assert.match(imported.stdout, /= 1 imported/);
    }
    assert.deepEqual(writes(emulator), [], "import writes nothing");
    const state = await stack.exportState();
    const field = (state.deployment.resources ?? []).find((r) => r.urn.endsWith("::api-domain"))!;
    assert.equal(field.type, token("ConfigField"));
    assert.equal(field.id, "globex/hubspot/globex//hs_api_domain");
    assert.equal((field.outputs as { field: { name: string } }).field.name, "API domain");
    const toggle = (state.deployment.resources ?? []).find((r) => r.urn.endsWith("::deal-alerts"))!;
    // Adopted as found: destroy leaves the toggle as it was.
    assert.deepEqual(
      [
        (toggle.outputs as { enabled: boolean }).enabled,
        (toggle.outputs as { previousEnabled: boolean }).previousEnabled,
      ],
      [dealAlerts, dealAlerts],
    );
    const wrong = seen(
      await stack.run(["import", token("ConfigField"), "wrong", "globex/hubspot", "--yes", "--generate-code=false"]),
    );
    assert.notEqual(wrong.code, 0);
    assert.match(
      wrong.stdout + wrong.stderr,
      /ConfigField import ids are linkedAccountId\/slug\/configId\/workflowId\/fieldId \(5 parts/,
    );
  });

  await step("7. destroy puts back exactly what the fixture had", async () => {
    const destroy = seen(await stack.ok(["destroy", "--yes", "--skip-preview"]));
    assert.match(destroy.stdout, /- 10 deleted/);
    assert.deepEqual(await observeQuickstart(emulator), fixture);
  });

  await step("8. no command printed a secret", async () => {
    for (const result of outputs) {
      for (const secret of Object.values(secrets))
        assert.ok(!(result.stdout + result.stderr).includes(secret), "a command's output holds a secret");
    }
  });
}

// The full lifecycle of every resource through the real CLI, with the package installed from
// its tarball, against an in-process emulator: the acceptance test of the provider.
import * as assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { REPO, resourcesOfType, Stack } from "../../harness/engine";
import { copyProgram } from "../../harness/program";
import { eventDocument, publicGet, step, useEmulatorStack } from "../../harness/e2e";
import { FIXTURE, TYPE, TYPE_PREFIX, type Kind } from "../../harness/fixture";
import { assertQuickstartOnPlatform } from "../../harness/native";

// Distinctive values, so that finding them in state or output means a leak and nothing else.
const API_KEY = `tk_e2e_${randomBytes(6).toString("hex")}`;
const CRM_TOKEN = `crm-${randomBytes(6).toString("hex")}`;
const QUOTA = String(100_000_000_000 + randomBytes(4).readUInt32BE());

/** What users observe of the objects the quickstart touches, through the public API. */
async function observe(emulator: RunningEmulator) {
  const get = (url: string, headers: Record<string, string> = {}) => publicGet(emulator, url, headers);
  const values = await Promise.all(
    (["org", "workspace"] as const)
      .map((scope) => get(`/env/values/${scope}?limit=100`))
      .concat([
        get("/env/values/linked_account?linked_account_id=globex&limit=100"),
        get("/env/values/workflow?workflow_id=wf_slack_notify&limit=100"),
        get("/env/values/workflow?workflow_id=wf_hs_deal_alerts&limit=100"),
      ]),
  );
  return {
    config: await get("/slug/hubspot/config/globex", { linked_account_id: "globex" }),
    // A copy, so that step 7 compares what destroy left with what the fixture had, not an object with itself.
    event: eventDocument(emulator.store.applicationEvents.find(FIXTURE.events[1])!),
    envValues: values
      .flatMap((page) => page.docs)
      .map((v: { _id: string; value: string }) => ({ id: v._id, value: v.value })),
  };
}

describe("e2e: the quickstart through the real CLI", function () {
  this.timeout(10 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, copyProgram(path.join(REPO, "examples/quickstart"), workspace.root)),
    {
      emulator: { apiKey: API_KEY },
      // The engine copies every stack config value into the state: values must be set as secrets.
      secrets: { crmToken: CRM_TOKEN, accountQuota: QUOTA },
      // The program users copy runs as theirs does: type-checked at every command.
      typeCheck: true,
    },
  );
  let fixture: Awaited<ReturnType<typeof observe>>;
  before(async () => {
    fixture = await observe(e2e.emulator);
  });

  // One walk through the stack's life: each step starts from what the steps before it left.
  it("walks the quickstart's stack through up, preview, update, refresh, replace and destroy", async () => {
    await step("1. up creates every resource, typed by module and type", async () => {
      const up = await e2e.stack.ok(["up", "--yes"]);
      for (const type of ["ConfigField", "WorkflowToggle", "ApplicationEvent", "EnvVariableValue"] as Kind[]) {
        assert.match(
          up.stdout,
          new RegExp(`\\+\\s+${TYPE(type).replace(/[/:]/g, "\\$&")}\\s`),
          `the preview names ${type}`,
        );
      }
      assert.match(up.stdout, /\+ 8 created/);

      await assertQuickstartOnPlatform(e2e.emulator, { quota: QUOTA, crmToken: CRM_TOKEN });
    });

    await step("2. the state keeps the API key and every env value out, with a small __provider", async () => {
      const text = await e2e.stack.exportText();
      for (const [what, secret] of Object.entries({
        "the API key": API_KEY,
        "the CRM token": CRM_TOKEN,
        "the quota": QUOTA,
        "the webhook URL": "https://hooks.example.com/slack/notify",
      })) {
        const at = text.indexOf(secret);
        assert.ok(
          at < 0,
          `the state must not contain ${what} in plaintext; found in: ${text.slice(Math.max(0, at - 300), at + 100)}`,
        );
      }
      const state = JSON.parse(text);
      const ours = state.deployment.resources.filter((r: { type: string }) => r.type.startsWith(TYPE_PREFIX));
      assert.equal(ours.length, 7);
      const sizes = ours.map((r: { inputs: { __provider: string } }) => Buffer.byteLength(r.inputs.__provider));
      // Installed, it is a bare require of the package's provider entry point (a few hundred bytes).
      for (const size of sizes) assert.ok(size < 600, `__provider is ${size} bytes`);
      const provider = ours[0].inputs.__provider as string;
      assert.match(provider, /require\("pulumi-integration-platform\/providers\/\w+"\)/);
      console.log(`      __provider bytes per resource: ${Math.min(...sizes)} to ${Math.max(...sizes)}`);
      const [value] = resourcesOfType(state, TYPE("EnvVariableValue"));
      assert.equal(
        (value.outputs?.value as Record<string, unknown>)["4dabf18193072939515e22adb298388d"],
        "1b47061264138c4ac30d75fd1eb44270",
        "value is a secret output",
      );
      assert.equal(
        (value.inputs?.value as Record<string, unknown>)["4dabf18193072939515e22adb298388d"],
        "1b47061264138c4ac30d75fd1eb44270",
        "value is a secret input",
      );
    });

    await step("3. preview --expect-no-changes passes and makes no API call", async () => {
      e2e.emulator.requests.clear();
      const preview = await e2e.stack.run(["preview", "--expect-no-changes"]);
      assert.equal(preview.code, 0, preview.stdout + preview.stderr);
      assert.match(preview.stdout, /8 unchanged/);
      assert.deepEqual(e2e.emulator.requests.list(), []);
    });

    await step("4. a changed property previews as exactly that update, and up applies it", async () => {
      await e2e.stack.ok(["config", "set", "--type", "bool", "contactSyncEnabled", "false"]);
      const preview = await e2e.stack.ok(["preview", "--diff"]);
      assert.match(preview.stdout, /~ pulumi-nodejs:dynamic\/integration-platform:WorkflowToggle: \(update\)/);
      assert.match(preview.stdout, /~ enabled\s*: true => false/);
      assert.match(preview.stdout, /~ 1 to update/);
      assert.match(preview.stdout, /7 unchanged/);
      await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      const live = await observe(e2e.emulator);
      assert.equal(live.config.workflows.find((w: { id: string }) => w.id === "wf_hs_contact_sync").enabled, false);
    });

    await step("5. an out-of-band change shows in refresh, and up repairs it", async () => {
      const config = e2e.emulator.store.configs.find({
        linkedAccountId: "globex",
        slug: "hubspot",
        configId: "globex",
      })!;
      e2e.emulator.store.configs.fieldState(config, null, "hs_pipeline").name = "Renamed by hand";
      const refresh = await e2e.stack.ok(["refresh", "--yes", "--skip-preview"]);
      assert.match(refresh.stdout, /~\s+pulumi-nodejs:dynamic\/integration-platform:ConfigField\s+pipeline\s+updated/);
      assert.match(refresh.stdout, /~ 1 updated/);
      // Refresh wrote the live value into the state's inputs too, so the preview shows the repair
      // as a diff of exactly that property, from what the platform holds to what is declared.
      const pipeline = ((await e2e.stack.exportState()).deployment.resources ?? []).find((r) =>
        r.urn.endsWith("::pipeline"),
      )!;
      assert.equal((pipeline.inputs as { name?: string }).name, "Renamed by hand");
      const preview = await e2e.stack.ok(["preview", "--diff"]);
      assert.match(preview.stdout, /~ name\s*: "Renamed by hand" => "Sales pipeline"/);
      const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      assert.match(up.stdout, /~ 1 updated/);
      const live = await observe(e2e.emulator);
      assert.equal(live.config.fields.find((f: { id: string }) => f.id === "hs_pipeline").name, "Sales pipeline");
      const noop = await e2e.stack.run(["preview", "--expect-no-changes"]);
      assert.equal(noop.code, 0, noop.stdout);
    });

    await step("6. a changed identity property replaces the resource", async () => {
      await e2e.stack.ok(["config", "set", "webhookWorkflowId", "wf_hs_deal_alerts"]);
      const up = await e2e.stack.ok(["up", "--yes"]);
      assert.match(
        up.stdout,
        /\+-\s+pulumi-nodejs:dynamic\/integration-platform:EnvVariableValue\s+slack-webhook\s+replaced/,
      );
      assert.match(up.stdout, /\+-1 replaced/);
      const values = e2e.emulator.store
        .snapshot()
        .envValues.filter((v) => v.variable_definition_id === FIXTURE.definitions.webhookUrl);
      assert.deepEqual(values.map((v) => v.workflow_id).sort(), ["wf_hs_contact_sync", "wf_hs_deal_alerts"]);
    });

    await step("7. destroy leaves what the stack touched as the fixture had it", async () => {
      const destroy = await e2e.stack.ok(["destroy", "--yes", "--skip-preview"]);
      assert.match(destroy.stdout, /- 8 deleted/);
      assert.deepEqual(await observe(e2e.emulator), fixture);
    });
  });
});

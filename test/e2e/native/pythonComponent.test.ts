// LinkedAccountSetup from Python: the component the plugin constructs (provider/native/construct.ts)
// declared by a Python program through the generated SDK, walked through the real CLI against the
// emulator at its default rate limit: up, a no-change preview, destroy back to what was there, with
// field values among the setup's fields (a number, and a secret kept out of state): a value the
// field does not take refused at preview, a value changed in the portal found and repaired. Then
// the same setups deployed with the TypeScript component of the dynamic package move to the Python
// program with no write: the children keep their names (docs/guides/moving-to-native.md).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { engineBinDir, REPO, Stack, type StackExport } from "../../../harness/engine";
import { observableState, step, useEmulatorStack } from "../../../harness/e2e";
import { LANGUAGES, languageHostsDir, pythonBin } from "../../../harness/languages";
import { writeProgram } from "../../../harness/program";
import { typeNameOf } from "../../../provider/typeTokens";

const { version: VERSION } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  version: string;
};

/** The env value set through the component: a secret, which must never reach the state in the clear. */
const TIER = "tier-9f1c-secret";
/** The API domain field's value: a secret too. */
const DOMAIN = "crm-5d1a77c2.globex.example";

const PROGRAM = `
import pulumi
import pulumi_integration_platform as platform

config = pulumi.Config()
tier = config.require_secret("tier")
limit = config.get_int("syncLimit") or 250

platform.LinkedAccountSetup(
    "globex-hubspot",
    linked_account_id="globex",
    slug="hubspot",
    fields=[
        platform.SetupFieldArgs(field_id="hs_pipeline", name="Sales pipeline"),
        platform.SetupFieldArgs(field_id="hs_sync_limit", value=limit if config.get("limitAsText") is None else str(limit)),
        platform.SetupFieldArgs(field_id="hs_api_domain", value=config.require_secret("domain")),
        platform.SetupFieldArgs(field_id="hs_property_map", value={"contact_email": "email"}),
        platform.SetupFieldArgs(
            field_id="hs_contact_owner",
            workflow_id="wf_hs_contact_sync",
            labels=[platform.NameValueArgs(name="team", value="sales")],
        ),
        platform.SetupFieldArgs(
            field_id="hs_sync_direction",
            workflow_id="wf_hs_contact_sync",
            value=config.get("direction") or "two_way",
        ),
    ],
    workflows={"wf_hs_contact_sync": platform.SetupWorkflowArgs(enabled=True)},
    env_values=[platform.SetupEnvValueArgs(definition_id="64f0000000000000000000d5", value=tier)],
)

platform.LinkedAccountSetup(
    "acme-hubspot",
    linked_account_id="acme",
    slug="hubspot",
    workflows={"wf_hs_deal_alerts": platform.SetupWorkflowArgs(enabled=True, restore_on_delete=False)},
)
`;

/** The same setups, declared with the TypeScript component of the dynamic package. */
const TYPESCRIPT_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-integration-platform";

const config = new pulumi.Config();
const tier = config.requireSecret("tier");

new platform.LinkedAccountSetup("globex-hubspot", {
  linkedAccountId: "globex",
  slug: "hubspot",
  fields: [
    { fieldId: "hs_pipeline", name: "Sales pipeline" },
    { fieldId: "hs_sync_limit", value: 250 },
    { fieldId: "hs_api_domain", value: config.requireSecret("domain") },
    { fieldId: "hs_property_map", value: { contact_email: "email" } },
    { fieldId: "hs_contact_owner", workflowId: "wf_hs_contact_sync", labels: [{ name: "team", value: "sales" }] },
    { fieldId: "hs_sync_direction", workflowId: "wf_hs_contact_sync", value: "two_way" },
  ],
  workflows: { wf_hs_contact_sync: { enabled: true } },
  envValues: [{ definitionId: "64f0000000000000000000d5", value: tier }],
});

new platform.LinkedAccountSetup("acme-hubspot", {
  linkedAccountId: "acme",
  slug: "hubspot",
  workflows: { wf_hs_deal_alerts: { enabled: true, restoreOnDelete: false } },
});
`;

/** Pulumi.yaml for the program in `runtime`: one project, so one stack holds either program's resources. */
function useRuntime(dir: string, runtime: "python" | "nodejs") {
  const python = `runtime:\n  name: python\n  options:\n    virtualenv: ${JSON.stringify(path.dirname(pythonBin()))}\n`;
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: setups\n${runtime === "python" ? python : "runtime: nodejs\n"}`,
  );
}

/** The components' children as the state holds them: `<component> <type's name> <name>`, sorted. */
function childrenIn(state: StackExport): string[] {
  return (state.deployment.resources ?? [])
    .map((r) => ({ ...r, parent: (r as { parent?: string }).parent ?? "" }))
    .filter((r) => r.parent.includes("::integration-platform:index:LinkedAccountSetup::"))
    .map((r) => `${r.parent.split("::").pop()} ${typeNameOf(r.type)} ${r.urn.split("::").pop()}`)
    .sort();
}

describe(`e2e: LinkedAccountSetup from Python, constructed by the plugin ${LANGUAGES}`, function () {
  this.timeout(20 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) => {
      const dir = writeProgram(workspace.root, "setups", { "index.ts": TYPESCRIPT_PROGRAM });
      fs.writeFileSync(path.join(dir, "__main__.py"), PROGRAM);
      useRuntime(dir, "python");
      // The plugin from this checkout (bin/), the language hosts and the engine.
      const PATH = [path.join(REPO, "bin"), languageHostsDir(), engineBinDir(), process.env.PATH].join(path.delimiter);
      return new Stack(workspace, dir, "dev", { PATH });
    },
    { secrets: { tier: TIER, domain: DOMAIN } },
  );
  const writes = () => e2e.emulator.requests.list().filter((r) => r.method !== "GET");
  let found: ReturnType<typeof observableState>;
  let typescriptChildren: string[];

  it("a Python program's setups: up creates the children, a preview shows no change, destroy puts back what was there", async () => {
    found = observableState(e2e.emulator);
    await step("up", () => e2e.stack.ok(["up", "--yes", "--skip-preview"]));

    const state = await e2e.stack.exportState();
    const resources = state.deployment.resources ?? [];
    assert.deepEqual(
      resources
        .filter((r) => r.type === "integration-platform:index:LinkedAccountSetup")
        .map((r) => r.urn.split("::").pop())
        .sort(),
      ["acme-hubspot", "globex-hubspot"],
    );
    assert.equal(childrenIn(state).length, 9);
    // One provider serves the components and their children: one plugin paces every call.
    assert.deepEqual(
      resources.filter((r) => r.type === "pulumi:providers:integration-platform").map((r) => r.urn.split("::").pop()),
      [`default_${VERSION.replaceAll(".", "_")}_github_/api.github.com/pulumi-integration-platform`],
    );
    assert.ok(!(await e2e.stack.exportText()).includes(TIER), "the env value is in the state in the clear");
    assert.ok(!(await e2e.stack.exportText()).includes(DOMAIN), "the secret field value is in the state in the clear");

    // What users observe through the API: the fields, the toggles and the value set.
    const after = observableState(e2e.emulator);
    const config = (account: string) =>
      after.configs.find((c) => c.linkedAccountId === account && c.slug === "hubspot")!;
    assert.equal(config("globex").fields.find((f) => f.id === "hs_pipeline")?.name, "Sales pipeline");
    const value = (fieldId: string) =>
      (config("globex").fields.find((f) => f.id === fieldId) as { value?: unknown } | undefined)?.value;
    assert.equal(value("hs_sync_limit"), 250);
    assert.equal(value("hs_api_domain"), DOMAIN);
    assert.deepEqual(value("hs_property_map"), { contact_email: "email" });
    assert.equal(
      (
        config("globex")
          .workflows.find((w) => w.id === "wf_hs_contact_sync")
          ?.fields.find((f) => f.id === "hs_sync_direction") as { value?: unknown } | undefined
      )?.value,
      "two_way",
    );
    assert.equal(config("globex").workflows.find((w) => w.id === "wf_hs_contact_sync")?.enabled, true);
    assert.equal(config("acme").workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled, true);
    assert.deepEqual(
      after.envValues
        .filter((v) => v.definition === "64f0000000000000000000d5" && v.linkedAccountId === "globex")
        .map((v) => v.value),
      [TIER],
    );

    e2e.emulator.requests.clear();
    const preview = await step("preview", () => e2e.stack.ok(["preview", "--expect-no-changes"]));
    assert.match(preview.stdout, /12 unchanged/);
    assert.deepEqual(writes(), [], "a no-change preview wrote to the platform");

    await step("a number field's value given as text is refused at preview, naming value, with no write", async () => {
      await e2e.stack.ok(["config", "set", "limitAsText", "yes"]);
      try {
        const refused = await e2e.stack.run(["preview"]);
        assert.notEqual(refused.code, 0);
        assert.match(
          refused.stdout + refused.stderr,
          /value: in config "globex" \(app "hubspot", linked account "globex"\), field "hs_sync_limit" is a number field: give a number/,
        );
        assert.deepEqual(writes(), []);
      } finally {
        await e2e.stack.ok(["config", "rm", "limitAsText"]);
      }
    });

    await step(
      "a select field's value that is not one of its options is refused at preview, with no write",
      async () => {
        await e2e.stack.ok(["config", "set", "direction", "sideways"]);
        try {
          const refused = await e2e.stack.run(["preview"]);
          assert.notEqual(refused.code, 0);
          assert.match(
            refused.stdout + refused.stderr,
            /value: in config "globex" \(app "hubspot", linked account "globex"\), workflow "wf_hs_contact_sync", field "hs_sync_direction" is a select field and the value is not one of its options' values/,
          );
          assert.deepEqual(writes(), []);
        } finally {
          await e2e.stack.ok(["config", "rm", "direction"]);
        }
      },
    );

    await step("a value changed in the portal shows in a refresh preview, and up --refresh puts it back", async () => {
      await e2e.emulator.store.configs.updateField(
        {
          key: { linkedAccountId: "globex", slug: "hubspot", configId: "globex" },
          fieldId: "hs_sync_limit",
          workflowId: undefined,
          update: { form: "value", value: 900 },
        },
        "api_key",
      );
      const drift = await e2e.stack.run(["preview", "--refresh", "--diff", "--expect-no-changes"]);
      assert.notEqual(drift.code, 0);
      // The plugin's component makes every entry of a list secret when one is (construct.ts, entriesOf):
      // hs_api_domain's secret value hides hs_sync_limit's too. Safe, if less readable.
      const limit = drift.stdout.split("(update)").find((block) => block.includes("field/hs_sync_limit]")) ?? "";
      assert.match(limit, /~ value\s*: \[secret\] => \[secret\]/, drift.stdout);
      await e2e.stack.ok(["up", "--yes", "--refresh", "--skip-preview"]);
      assert.equal(
        (
          observableState(e2e.emulator)
            .configs.find((c) => c.linkedAccountId === "globex" && c.slug === "hubspot")!
            .fields.find((f) => f.id === "hs_sync_limit") as { value?: unknown }
        ).value,
        250,
      );
      assert.ok(
        !(await e2e.stack.exportText()).includes(DOMAIN),
        "the secret field value is in the state in the clear",
      );
    });

    await step("destroy", () => e2e.stack.ok(["destroy", "--yes", "--skip-preview"]));
    assert.deepEqual(observableState(e2e.emulator), found);
  });

  it("a stack of the TypeScript component moves to the Python program with no write: the same children, renamed by no one", async () => {
    useRuntime(e2e.stack.dir, "nodejs");
    await step("the TypeScript component's up", () => e2e.stack.ok(["up", "--yes", "--skip-preview"]));
    typescriptChildren = childrenIn(await e2e.stack.exportState());
    assert.equal(typescriptChildren.length, 9);

    useRuntime(e2e.stack.dir, "python");
    e2e.emulator.requests.clear();
    const preview = await step("the Python program's preview", () => e2e.stack.ok(["preview", "--diff"]));
    assert.match(preview.stdout, /12 unchanged/);
    assert.doesNotMatch(preview.stdout, /to create|to replace|to delete|to update/);
    const up = await step("the Python program's up", () => e2e.stack.ok(["up", "--yes", "--skip-preview"]));
    assert.match(up.stdout, /12 unchanged/);
    assert.deepEqual(writes(), [], "moving to the Python program wrote to the platform");
    assert.deepEqual(childrenIn(await e2e.stack.exportState()), typescriptChildren);

    await step("destroy", () => e2e.stack.ok(["destroy", "--yes", "--skip-preview"]));
    assert.deepEqual(observableState(e2e.emulator), found);
    assert.equal(e2e.emulator.requests.list().filter((r) => r.status === 429).length, 0);
  });
});

// What a green preview proves, through the real CLI at the emulator's default limit: each change
// that `up` would fail on (a typo in an id, a draft, a wrong API key, a value the field does not
// take) fails `pulumi preview` instead, naming the resource and the property, with no write and at
// most C + 2 reads. On the same stack, field values through their life: set, a secret one kept out
// of state and output, drift found and repaired, put back by destroy.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { summarize } from "../../cli/summary";
import { REPO, Stack } from "../../harness/engine";
import { writeProgram } from "../../harness/program";
import { seedTenants } from "../../harness/tenants";
import { step, useEmulatorStack } from "../../harness/e2e";

/** One program per case, chosen by the stack's `case` config: what a pull request might declare. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-integration-platform";

const config = new pulumi.Config();
const kase = config.require("case");
const acme = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
const field = (name: string, args: Partial<platform.ConfigFieldArgs>) => new platform.ConfigField(name, { ...acme, fieldId: "hs_pipeline", name: "Pipeline", ...args });
const toggle = (name: string, args: Partial<platform.WorkflowToggleArgs>) => new platform.WorkflowToggle(name, { ...acme, workflowId: "wf_hs_deal_alerts", enabled: true, ...args });

// Always declared, and valid: the failing resource is one among others, as in a real change.
field("pipeline", {});
toggle("deal-alerts", {});
if (kase === "field") field("typo", { fieldId: "hs_pipline" });
if (kase === "draft") toggle("lead-scoring", { workflowId: "wf_hs_lead_scoring" });
if (kase === "workflow") toggle("unknown-workflow", { workflowId: "wf_hs_nope" });
if (kase === "account") field("unknown-account", { linkedAccountId: "nobody", configId: "nobody" });
if (kase === "config") field("unknown-config", { configId: "acme-eu" });
if (kase === "select") field("unknown-option", { fieldId: "hs_pipeline", name: undefined, value: "partners" });
if (kase === "number") field("number-as-text", { fieldId: "hs_sync_limit", name: undefined, value: "25" });
// Three refusals in one change, as a pull request may hold: how many does one preview report?
if (kase === "several") {
  field("typo", { fieldId: "hs_pipline" });
  toggle("lead-scoring", { workflowId: "wf_hs_lead_scoring" });
  field("unknown-config", { configId: "acme-eu" });
}
// Values a team owns, of each field type; the API domain a secret.
if (kase === "values") {
  const value = (name: string, fieldId: string, value: platform.ConfigFieldArgs["value"]) =>
    field(name, { fieldId, name: undefined, value });
  value("sync-limit", "hs_sync_limit", 250);
  value("property-map", "hs_property_map", { contact_email: "email" });
  field("sync-direction", { fieldId: "hs_sync_direction", workflowId: "wf_hs_contact_sync", name: undefined, value: "two_way" });
  value("api-domain", "hs_api_domain", pulumi.secret(config.require("domain")));
}
`;

/** The failing case's resource, property and reason, as the CLI prints them. */
const CASES = [
  {
    kase: "field",
    resource: "typo",
    property: "fieldId",
    reason: /has no field "hs_pipline" global to the app: check fieldId and workflowId/,
  },
  {
    kase: "draft",
    resource: "lead-scoring",
    property: "workflowId",
    reason: /"wf_hs_lead_scoring" is not a published workflow .*publish it, then run again/,
  },
  {
    kase: "workflow",
    resource: "unknown-workflow",
    property: "workflowId",
    reason: /"wf_hs_nope" is not a published workflow .*check workflowId/,
  },
  {
    kase: "account",
    resource: "unknown-account",
    property: "linkedAccountId",
    reason: /no config of app "hubspot" for linked account "nobody": check linkedAccountId and slug/,
  },
  {
    kase: "config",
    resource: "unknown-config",
    property: "configId",
    reason: /no config "acme-eu" of app "hubspot" for linked account "acme": check configId/,
  },
  {
    kase: "select",
    resource: "unknown-option",
    property: "value",
    reason: /field "hs_pipeline" is a select field and the value is not one of its options' values: "sales", "support"/,
  },
  {
    kase: "number",
    resource: "number-as-text",
    property: "value",
    reason: /field "hs_sync_limit" is a number field: give a number \(e.g. 25, not the text "25"\)/,
  },
];

/** The secret API domain, and the one set behind the stack's back: neither may appear in state or output. */
const DOMAIN = "crm-7f3e9a1d.acme.example";
const PORTAL_DOMAIN = "crm-0b5c2e88.portal.example";

describe("e2e: a green preview means the change will apply", function () {
  this.timeout(10 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, writeProgram(workspace.root, "validation", { "index.ts": PROGRAM })),
  );
  const requests = () => e2e.emulator.requests.list();

  for (const { kase, resource, property, reason } of CASES) {
    it(`fails the preview of ${resource} (${kase}), naming it and ${property}, with no write and at most C + 2 reads`, async () => {
      await e2e.stack.ok(["config", "set", "case", kase]);
      e2e.emulator.requests.clear();
      const preview = await e2e.stack.run(["preview", "--json"]);
      assert.notEqual(preview.code, 0, preview.stdout);
      const json = JSON.parse(preview.stdout) as {
        diagnostics?: { urn?: string; message: string; severity: string }[];
      };
      const errors = (json.diagnostics ?? []).filter((d) => d.severity === "error" && d.urn);
      assert.equal(errors.length, 1, JSON.stringify(json.diagnostics));
      assert.match(errors[0].urn!, new RegExp(`::${resource}$`));
      assert.match(errors[0].message, new RegExp(`${property}: `));
      assert.match(errors[0].message, reason);
      assert.deepEqual(
        requests().filter((r) => r.method !== "GET"),
        [],
        "no write",
      );
      // C = 1 config (acme's hubspot config, or the unknown one), + 2.
      assert.ok(
        requests().length <= 1 + 2,
        requests()
          .map((r) => `${r.method} ${r.path}`)
          .join("\n"),
      );
      // The pull request's comment lists the refusal under its linked account and app.
      const summary = summarize(json);
      const account = kase === "account" ? "nobody" : "acme";
      const block =
        summary.split("<details").find((b) => b.includes(`<b>Linked account <code>${account}</code></b>`)) ?? "";
      assert.match(block, /1 refused at preview/, summary);
      assert.ok(block.includes(`#### App \`hubspot\`\n\n- **Refused at preview** \`${resource}\` (`), summary);
      assert.match(block, new RegExp(`Refused at preview.*: ${property}: `), summary);
    });
  }

  it("reports one refused resource per preview when a change holds several (the engine stops at the first), with no write", async () => {
    await e2e.stack.ok(["config", "set", "case", "several"]);
    e2e.emulator.requests.clear();
    const preview = await e2e.stack.run(["preview", "--json"]);
    assert.notEqual(preview.code, 0, preview.stdout);
    const json = JSON.parse(preview.stdout) as { diagnostics?: { urn?: string; message: string; severity: string }[] };
    const refused = (json.diagnostics ?? []).filter((d) => d.severity === "error" && d.urn);
    // What reliability.md and pull-requests.md say: fix it, and the next preview shows the next one.
    assert.equal(refused.length, 1, JSON.stringify(json.diagnostics));
    const expected = { typo: "fieldId", "lead-scoring": "workflowId", "unknown-config": "configId" } as const;
    const name = refused[0].urn!.split("::").pop() as keyof typeof expected;
    assert.ok(name in expected, refused[0].urn);
    assert.match(refused[0].message, new RegExp(`${expected[name]}: `));
    assert.match(summarize(json), /1 resource refused at preview is listed below/);
    assert.deepEqual(
      requests().filter((r) => r.method !== "GET"),
      [],
      "no write",
    );
  });

  it("fails the preview once for an API key the platform refuses, saying which setting to fix, without echoing it", async () => {
    await e2e.stack.ok(["config", "set", "case", "field"]);
    await e2e.stack.ok(["config", "set", "--secret", "integration-platform:apiKey", "tk_revoked_0123"]);
    try {
      e2e.emulator.requests.clear();
      const preview = await e2e.stack.run(["preview", "--json"]);
      assert.notEqual(preview.code, 0);
      const json = JSON.parse(preview.stdout) as { diagnostics?: { message: string; severity: string }[] };
      const errors = (json.diagnostics ?? []).filter((d) => d.severity === "error" && /has a problem/.test(d.message));
      assert.equal(errors.length, 1, `once, not once per resource: ${JSON.stringify(json.diagnostics)}`);
      assert.match(
        errors[0].message,
        /could not be validated against the platform: 401 .*check `integration-platform:apiKey`/,
      );
      assert.doesNotMatch(preview.stdout + preview.stderr, /tk_revoked_0123/);
      assert.equal(requests().length, 1, "one refused read, then none");
    } finally {
      await e2e.stack.ok(["config", "set", "--secret", "integration-platform:apiKey", e2e.emulator.apiKey]);
    }
  });

  it("sets values of each field type, keeps a secret one out of state and output, repairs drift, and destroy puts them back", async () => {
    const valueOf = (fieldId: string) =>
      (
        e2e.emulator.store.configs
          .find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })
          ?.fields.find((f) => f.id === fieldId) as { value?: unknown } | undefined
      )?.value ?? null;
    const config = () =>
      e2e.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" });
    const direction = () =>
      (
        config()
          ?.workflows.find((w) => w.id === "wf_hs_contact_sync")
          ?.fields.find((f) => f.id === "hs_sync_direction") as { value?: unknown } | undefined
      )?.value ?? null;
    const values = () => [...["hs_sync_limit", "hs_property_map", "hs_api_domain"].map(valueOf), direction()];
    const before = values();
    const shown: string[] = [];
    const run = async (args: string[]) => {
      const result = await e2e.stack.ok(args);
      shown.push(result.stdout, result.stderr);
      return result;
    };
    await e2e.stack.ok(["config", "set", "case", "values"]);
    await e2e.stack.ok(["config", "set", "--secret", "domain", DOMAIN]);

    await step("1. up sets each value as declared", async () => {
      await run(["up", "--yes", "--skip-preview"]);
      assert.deepEqual(values(), [250, { contact_email: "email" }, DOMAIN, "two_way"]);
    });

    await step(
      "2. changed in the portal: a refresh preview shows the drift by property, the secret's as [secret]",
      async () => {
        for (const [fieldId, value] of [
          ["hs_sync_limit", 500],
          ["hs_api_domain", PORTAL_DOMAIN],
        ] as const)
          await e2e.emulator.store.configs.updateField(
            {
              key: { linkedAccountId: "acme", slug: "hubspot", configId: "acme" },
              fieldId,
              workflowId: undefined,
              update: { form: "value", value },
            },
            "api_key",
          );
        e2e.emulator.requests.clear();
        const preview = await e2e.stack.run(["preview", "--refresh", "--diff", "--expect-no-changes"]);
        shown.push(preview.stdout, preview.stderr);
        assert.notEqual(preview.code, 0, "drift fails --expect-no-changes");
        assert.match(preview.stdout, /~ value\s*: 500 => 250/);
        // The secret's update shows its value as [secret], on both sides.
        const domain = preview.stdout.split("(update)").find((block) => block.includes("::api-domain]")) ?? "";
        assert.match(domain, /value\s*: \[secret\]/, preview.stdout);
        assert.deepEqual(
          e2e.emulator.requests.list().filter((r) => r.method !== "GET"),
          [],
          "a preview writes nothing",
        );

        // The documented drift check (docs/guides/drift.md): it fails, and names each value under its account.
        const check = await e2e.stack.run(["refresh", "--preview-only", "--expect-no-changes", "--json"], {
          PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true",
          PULUMI_SKIP_CONFIRMATIONS: "false",
        });
        assert.notEqual(check.code, 0);
        const file = path.join(e2e.workspace.root, "drift.json");
        fs.writeFileSync(file, check.stdout);
        let report = "";
        try {
          execFileSync(process.execPath, [path.join(REPO, "dist/cli/main.js"), "summarize", "--drift", file], {
            encoding: "utf8",
          });
          assert.fail("summarize --drift exits 1 on drift");
        } catch (error) {
          const failed = error as { status?: number; stdout?: string };
          assert.equal(failed.status, 1);
          report = failed.stdout ?? "";
        }
        shown.push(check.stdout, check.stderr, report);
        assert.match(report, /<code>acme<\/code>/);
        assert.match(report, /resource `sync-limit`\n  - `value`: .*500/, report);
        assert.match(report, /resource `api-domain`\n  - `value`: \[secret\] changed/, report);
      },
    );

    await step("3. up --refresh writes the program's values back", async () => {
      await run(["up", "--yes", "--refresh", "--skip-preview"]);
      assert.deepEqual(values(), [250, { contact_email: "email" }, DOMAIN, "two_way"]);
      await run(["preview", "--refresh", "--expect-no-changes"]);
    });

    await step("4. neither secret value is in the state, the stack's outputs or anything the CLI printed", async () => {
      const state = (await e2e.stack.ok(["stack", "export"])).stdout;
      assert.match(state, /"hs_api_domain"/, "the state holds the field");
      for (const text of [state, ...shown]) {
        assert.ok(!text.includes(DOMAIN), "the declared secret value");
        assert.ok(!text.includes(PORTAL_DOMAIN), "the value found in the portal");
      }
    });

    await step("5. destroy puts back what each field held before", async () => {
      await run(["destroy", "--yes", "--skip-preview"]);
      assert.deepEqual(values(), before);
    });
  });
});

/** LinkedAccountSetups of every tenant; `changed` tenants get another pipeline name. */
const TENANTS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-integration-platform";

const config = new pulumi.Config();
const count = config.requireNumber("tenants");
const changed = new Set((config.get("changed") ?? "").split(",").filter(Boolean));
for (let i = 0; i < count; i++) {
  const id = \`tenant-\${i}\`;
  new platform.LinkedAccountSetup(\`\${id}-hubspot\`, {
    linkedAccountId: id,
    slug: "hubspot",
    fields: [{ fieldId: "hs_pipeline", name: changed.has(id) ? "Renamed pipeline" : "Pipeline" }],
    workflows: { wf_hs_deal_alerts: true },
  });
}
`;

describe("e2e: validation at preview costs at most changed configs + 2 calls", function () {
  this.timeout(20 * 60_000);
  const TENANTS = 100;
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, writeProgram(workspace.root, "tenants", { "index.ts": TENANTS_PROGRAM })),
    {
      config: { tenants: String(TENANTS) },
    },
  );

  it("100 linked accounts: a preview without changes makes 0 calls; with every tenth changed, at most 10 + 2", async () => {
    await step("up of 100 linked accounts", async () => {
      await seedTenants(e2e.emulator, "tenant", TENANTS);
      await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
    });
    await step("a preview without changes makes no call", async () => {
      e2e.emulator.requests.clear();
      await e2e.stack.ok(["preview", "--expect-no-changes"]);
      assert.deepEqual(e2e.emulator.requests.list(), []);
    });
    await step("every tenth account changed: one read of each changed config, at most 2 more", async () => {
      const changed = Array.from({ length: TENANTS / 10 }, (_, i) => `tenant-${i * 10}`);
      await e2e.stack.ok(["config", "set", "changed", changed.join(",")]);
      e2e.emulator.requests.clear();
      const preview = await e2e.stack.ok(["preview", "--json"]);
      const json = JSON.parse(preview.stdout) as { changeSummary?: Record<string, number> };
      assert.equal(json.changeSummary?.update, changed.length);
      const calls = e2e.emulator.requests.list();
      assert.deepEqual(
        calls.filter((r) => r.method !== "GET"),
        [],
      );
      assert.ok(calls.length <= changed.length + 2, `${calls.length} calls: ${calls.map((r) => r.path).join(", ")}`);
      assert.deepEqual(
        new Set(calls.map((r) => r.path)),
        new Set(changed.map((id) => `/api/v2/public/slug/hubspot/config/${id}`)),
      );
      console.log(`      ${changed.length} changed configs of ${TENANTS}: ${calls.length} calls at preview`);
    });
  });
});

// The scheduled drift check, through the real CLI at the emulator's default (the platform's
// documented) rate limit: a stack of 40 tenants, each with a field, a workflow toggle and an env
// value; then changes behind its back through the public API, as someone in the platform's UI
// would make them, and a program change not deployed yet. The documented command, Pulumi's own
// check (docs/guides/drift.md, examples/github-actions/drift.yml), must fail, name exactly the
// objects that drifted under their linked accounts and not the undeployed change, print no
// secret, and cost about one call per tenant, counted from the emulator's request log.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Stack } from "../../harness/engine";
import { writeProgram } from "../../harness/program";
import { BATCH_SIZE, CONTACT_SYNC, seedTenants, TENANT_WORKFLOW_PROGRAM } from "../../harness/tenants";
import { publicCall, step, useEmulatorStack } from "../../harness/e2e";

const TENANTS = 40;
/** The issue's bound on the calls of one drift check: one per tenant, and ten to spare. */
const MAX_CALLS = TENANTS + 10;
/**
 * The value set behind the stack's back: a secret to the stack, so it must appear nowhere. A
 * number (the definition's format) that cannot occur by chance: long, with a sign and a point,
 * which no id, hash or timestamp in a preview holds.
 */
const CHANGED_VALUE = "-86420975.31013579";

/** Runs the package's bin in the stack's folder, as the workflow does; resolves with its exit status. */
function summarizeDrift(
  cwd: string,
  previewFile: string,
  mode = "--drift",
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "npx",
      ["pulumi-integration-platform", "summarize", mode, previewFile],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The resources a drift report lists, per linked account: `{account: [resource names]}`. */
function listedByAccount(report: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const block of report.match(/^<details(?: open)?>\n[\s\S]*?^<\/details>\n/gm) ?? []) {
    const account = block.match(/^<summary><b>Linked account <code>([^<]*)<\/code><\/b>/m)?.[1] ?? "(none)";
    found[account] = [...block.matchAll(/^- \*\*[^*]+\*\* .*: resource `([^`]+)`$/gm)].map((m) => m[1]).sort();
  }
  return found;
}

describe(`e2e: a drift check of ${TENANTS} tenants names what changed behind the stack's back`, function () {
  this.timeout(15 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) =>
      new Stack(
        workspace,
        writeProgram(workspace.root, "drift", { "index.ts": TENANT_WORKFLOW_PROGRAM, "tenants.json": "[]" }),
      ),
  );
  const previewFile = () => path.join(e2e.workspace.root, "preview.json");

  /** The documented check: a refresh's preview, expecting no changes, its engine events as JSON; then the report. */
  async function driftCheck() {
    e2e.emulator.requests.clear();
    // PULUMI_SKIP_CONFIRMATIONS (the workspace's default) would add --yes, which --preview-only refuses.
    const preview = await e2e.stack.run(["refresh", "--preview-only", "--expect-no-changes", "--json"], {
      PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true",
      PULUMI_SKIP_CONFIRMATIONS: "false",
    });
    const calls = e2e.emulator.requests.list();
    fs.writeFileSync(previewFile(), preview.stdout);
    const report = await summarizeDrift(e2e.stack.dir, previewFile());
    console.log(
      `      drift check: ${calls.length} calls (${calls.filter((c) => c.status === 429).length} answered 429), preview ${(preview.ms / 1000).toFixed(1)} s, exit ${preview.code}; summarize exit ${report.code}`,
    );
    return { preview, calls, report };
  }

  it("fails on drift, names exactly the six drifted objects under their linked accounts and not an undeployed change, prints no secret, and makes at most K + 10 calls", async () => {
    assert.equal(e2e.emulator.rateLimit.get().rateLimit, "20/5", "the emulator enforces the documented limit");
    const tenants = await seedTenants(e2e.emulator, "tenant", TENANTS);
    fs.writeFileSync(path.join(e2e.stack.dir, "tenants.json"), JSON.stringify(tenants));

    await step(`up: ${3 * TENANTS} resources`, () => e2e.stack.ok(["up", "--yes", "--skip-preview"]));

    await step("a check of the untouched stack finds no drift, and exits 0", async () => {
      const { preview, calls, report } = await driftCheck();
      assert.equal(preview.code, 0, preview.stderr);
      assert.equal(report.code, 0, report.stdout + report.stderr);
      assert.match(report.stdout, /No drift: the platform holds what was last deployed/);
      assert.ok(calls.length <= MAX_CALLS, `${calls.length} calls; at most ${MAX_CALLS}`);
    });

    await step(
      "behind the stack's back, through the API: three fields renamed, two workflows disabled, one env value changed",
      async () => {
        for (const [i, id] of ["tenant-3", "tenant-17", "tenant-29"].entries()) {
          await publicCall(e2e.emulator, "PUT", "/config/field/hs_pipeline", {
            headers: { linked_account_id: id, slug: "hubspot" },
            body: {
              slug: "hubspot",
              config_id: id,
              fields: [{ id: "hs_pipeline", name: `Renamed by hand ${i}` }],
              workflows: [],
            },
          });
        }
        for (const id of ["tenant-8", "tenant-17"]) {
          await publicCall(e2e.emulator, "PUT", `/slug/hubspot/config/${id}/workflows/wf_hs_deal_alerts`, {
            headers: { linked_account_id: id },
            body: { enabled: false },
          });
        }
        await publicCall(e2e.emulator, "POST", "/env/values", {
          body: {
            variable_definition_id: BATCH_SIZE,
            value: CHANGED_VALUE,
            linked_account_id: "tenant-33",
            workflow_id: CONTACT_SYNC,
          },
        });
      },
    );

    await step("a program change merged but not deployed: tenant-5's pipeline renamed in the program", async () => {
      const program = path.join(e2e.stack.dir, "index.ts");
      fs.appendFileSync(
        program,
        '\nexport const undeployed = new platform.ConfigField("tenant-5-pipeline-label", { slug: "hubspot", linkedAccountId: "tenant-5", configId: "tenant-5", fieldId: "hs_sync_limit", name: "Not deployed" });\n',
      );
    });

    const { preview, calls, report } = await step(
      "the documented check: pulumi refresh --preview-only --expect-no-changes --json, then summarize --drift",
      driftCheck,
    );

    await step("both commands fail: the job fails on drift", async () => {
      assert.notEqual(preview.code, 0, "--expect-no-changes fails the preview");
      assert.equal(report.code, 1, report.stderr);
    });

    await step("the report names exactly the six drifted objects, each under its linked account", async () => {
      assert.deepEqual(listedByAccount(report.stdout), {
        "tenant-3": ["tenant-3-pipeline"],
        "tenant-8": ["tenant-8-deal-alerts"],
        "tenant-17": ["tenant-17-deal-alerts", "tenant-17-pipeline"],
        "tenant-29": ["tenant-29-pipeline"],
        "tenant-33": ["tenant-33-batch-size"],
      });
      assert.match(
        report.stdout,
        /6 objects on the platform differ from the last deployment \(6 changed\) for 5 linked accounts/,
      );
      assert.match(
        report.stdout,
        /`name`: the platform holds `"Renamed by hand 1"`, the last deployment set `"tenant-17 pipeline"`/,
      );
      assert.match(report.stdout, /`enabled`: the platform holds `false`, the last deployment set `true`/);
      assert.match(report.stdout, /resource `tenant-33-batch-size`\n  - `value`: \[secret\] changed\n/);
    });

    await step("no secret anywhere: not the changed value, not the declared one, not the API key", async () => {
      for (const text of [report.stdout, report.stderr, preview.stdout, preview.stderr]) {
        assert.ok(!text.includes(CHANGED_VALUE), "the value set behind the stack's back");
        assert.ok(!text.includes(e2e.emulator.apiKey), "the API key");
      }
      assert.doesNotMatch(report.stdout, /"50"/, "the declared value");
    });

    await step(`at most ${MAX_CALLS} calls, none answered 429`, async () => {
      assert.ok(
        calls.length <= MAX_CALLS,
        `${calls.length} calls: ${JSON.stringify(calls.map((c) => `${c.method} ${c.path}`))}`,
      );
      assert.equal(calls.filter((c) => c.status === 429).length, 0);
    });

    await step(
      "the platform against the program (--drift-against-program) names the undeployed change too",
      async () => {
        const programPreview = await e2e.stack.run(["preview", "--refresh", "--expect-no-changes", "--json"]);
        fs.writeFileSync(previewFile(), programPreview.stdout);
        const against = await summarizeDrift(e2e.stack.dir, previewFile(), "--drift-against-program");
        assert.equal(against.code, 1);
        assert.deepEqual(listedByAccount(against.stdout)["tenant-5"], ["tenant-5-pipeline-label"]);
        assert.match(
          against.stdout,
          /7 objects on the platform differ from what the program declares \(1 missing, 6 changed\)/,
        );
      },
    );

    await step("acting on the report: up --refresh puts back what the program declares", async () => {
      await e2e.stack.ok(["up", "--refresh", "--yes", "--skip-preview"]);
      const { store } = e2e.emulator;
      const config = (id: string) => store.state.configs.find((c) => c.config_id === id)!;
      for (const id of ["tenant-3", "tenant-17", "tenant-29"])
        assert.equal(store.configs.fieldState(config(id), null, "hs_pipeline").name, `${id} pipeline`);
      for (const id of ["tenant-8", "tenant-17"])
        assert.equal(store.configs.workflowState(config(id), "wf_hs_deal_alerts").enabled, true);
      assert.equal(store.envVariables.valueFor(BATCH_SIZE, "tenant-33", CONTACT_SYNC)?.value, "50");
    });
  });
});

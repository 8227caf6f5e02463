// PULUMI_SKIP_CHECKPOINTS=true (docs/guides/scaling.md, "Checkpoints"): the engine writes the
// state once, at the end, so a `pulumi up` killed half way leaves no record of what it wrote. What
// that costs, through the real CLI: the re-run converges in both cases (creates adopt what is
// there), but `destroy` puts back the platform as it was only when every resource declares
// restoreOnDelete; otherwise what the killed run wrote is taken for what was there before.
import * as assert from "node:assert/strict";
import type { RunningEmulator } from "../../../emulator";
import { Stack } from "../../../harness/engine";
import { writeProgram } from "../../../harness/program";
import { ACCOUNT_QUOTA, seedTenants } from "../../../harness/tenants";
import { ENGINE_RECOVERY, observableState, step, useEmulatorStack } from "../../../harness/e2e";
import { waitFor } from "../../../harness/reliability";

const TENANTS = 12;
const SKIP = { PULUMI_SKIP_CHECKPOINTS: "true" };

/** Per tenant a field, a toggle and an env value; with `restore`, each declares what destroy puts back. */
function program(restore: boolean): string {
  const r = (text: string) => (restore ? `, restoreOnDelete: ${text}` : "");
  return `
import * as platform from "pulumi-integration-platform";
for (const id of require("./tenants.json") as string[]) {
  const config = { slug: "hubspot", linkedAccountId: id, configId: id };
  new platform.ConfigField(\`\${id}-pipeline\`, { ...config, fieldId: "hs_pipeline", name: \`\${id} pipeline\`${r('{ name: "Pipeline" }')} });
  new platform.WorkflowToggle(\`\${id}-deal-alerts\`, { ...config, workflowId: "wf_hs_deal_alerts", enabled: true${r("false")} });
  new platform.EnvVariableValue(\`\${id}-quota\`, { definitionId: "${ACCOUNT_QUOTA}", linkedAccountId: id, value: "500"${r('"100"')} });
}
`;
}

/** The tenants' env values are created by the program; the platform had none before: compare without them when restoring to "100". */
function withoutQuotas(state: ReturnType<typeof observableState>) {
  return { ...state, envValues: state.envValues.filter((v) => v.definition !== ACCOUNT_QUOTA) };
}

for (const restore of [false, true]) {
  describe(`e2e reliability: an up killed half way with PULUMI_SKIP_CHECKPOINTS, ${restore ? "every resource declaring restoreOnDelete" : "nothing declared to restore"} ${ENGINE_RECOVERY}`, function () {
    this.timeout(10 * 60_000);
    let tenants: string[] = [];
    const e2e = useEmulatorStack((workspace, _emulator: RunningEmulator) => {
      const dir = writeProgram(workspace.root, `skip-${restore}`, {
        "index.ts": program(restore),
        "tenants.json": "[]",
      });
      return new Stack(workspace, dir, "skip", restore ? { INTEGRATION_PLATFORM_CREATE_WITHOUT_READ: "true" } : {});
    });
    before(async () => {
      tenants = await seedTenants(e2e.emulator, "ckpt", TENANTS);
      require("node:fs").writeFileSync(`${e2e.stack.dir}/tenants.json`, JSON.stringify(tenants));
    });

    it(
      restore
        ? "re-runs to convergence, and destroy leaves the platform exactly as it was"
        : "re-runs to convergence, but destroy keeps what the killed run wrote",
      async () => {
        const before = observableState(e2e.emulator);
        const writes = () => e2e.emulator.requests.list().filter((r) => r.method !== "GET").length;

        const killedAfter = await step(
          "1. up is killed after a third of its writes; the state records none of them",
          async () => {
            const up = e2e.stack.start(["up", "--yes", "--skip-preview"], SKIP);
            await waitFor("a third of the writes", () => writes() >= TENANTS);
            up.killAll();
            await up.exited;
            await waitFor("the killed command's plugins to end", () => up.plugins().length === 0, 10_000);
            const exported = await e2e.stack.exportState();
            const custom = (exported.deployment.resources ?? []).filter((r) =>
              r.type.startsWith("pulumi-nodejs:dynamic"),
            );
            assert.equal(custom.length, 0, "with checkpoints skipped, nothing of the killed run is in the state");
            return writes();
          },
        );

        await step(
          "2. cancel and up again: every resource is created, adopting what the killed run wrote",
          async () => {
            await e2e.stack.ok(["cancel", "--yes"]);
            await e2e.stack.ok(["up", "--yes", "--skip-preview"], SKIP);
            await e2e.stack.ok(["preview", "--expect-no-changes"]);
            const config = (id: string) =>
              e2e.emulator.store.configs.find({ linkedAccountId: id, slug: "hubspot", configId: id })!;
            for (const id of tenants)
              assert.equal(config(id).workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled, true);
          },
        );

        await step("3. destroy", async () => {
          await e2e.stack.ok(["destroy", "--yes", "--skip-preview"], SKIP);
          const after = observableState(e2e.emulator);
          if (restore) {
            // What was there before, except that each tenant's quota is now the declared "100" instead of none.
            assert.deepEqual(withoutQuotas(after), withoutQuotas(before));
            assert.ok(after.envValues.filter((v) => v.definition === ACCOUNT_QUOTA).every((v) => v.value === "100"));
          } else {
            const configs = after.configs.filter((c) => tenants.includes(c.linkedAccountId));
            const kept = configs.filter((c) =>
              c.fields?.some(
                (f: { id: string; name?: string }) =>
                  f.id === "hs_pipeline" && f.name?.endsWith(" pipeline") && f.name !== "Pipeline",
              ),
            );
            const enabled = configs.filter((c) =>
              c.workflows?.some((w: { id: string; enabled?: boolean }) => w.id === "wf_hs_deal_alerts" && w.enabled),
            );
            const quotas = after.envValues.filter((v) => v.definition === ACCOUNT_QUOTA);
            const notRestored = kept.length + enabled.length + quotas.length;
            assert.equal(
              notRestored,
              killedAfter,
              "every object the killed run wrote is left as it wrote it, and nothing else",
            );
            console.log(
              `      the killed run made ${killedAfter} writes; after the re-run and destroy, ${notRestored} objects keep them: ${kept.length} field names, ${enabled.length} toggles, ${quotas.length} env values (of ${TENANTS} each)`,
            );
          }
        });
      },
    );
  });
}

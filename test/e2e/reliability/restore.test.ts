// Destroy that never loses what was there, through the real CLI at the platform's default rate
// limit, each outcome read from the emulator's state:
//   - an env value that replaced a readable one puts it back;
//   - an env value that replaced an encrypted one (which reads back redacted) is left in place;
//   - a field and a toggle whose create was interrupted after its write landed record the value
//     they had just written as "what was there", and a declared restoreOnDelete puts back the real
//     one anyway. The interruption is a SIGKILL of every process of `pulumi up`, as a cancelled CI
//     job does, followed by the documented recovery (recoverInterruptedUp, harness/reliability.ts).
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { Stack } from "../../../harness/engine";
import { publicGet, step, useEmulatorStack } from "../../../harness/e2e";
import { FIXTURE } from "../../../harness/fixture";
import {
  logCursor,
  recoverInterruptedUp,
  specProgram,
  waitFor,
  writeSpec,
  writesIn,
  type Spec,
} from "../../../harness/reliability";

const ACME = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };

describe("e2e reliability: destroy restores what was there", function () {
  this.timeout(15 * 60_000);
  const e2e = useEmulatorStack((workspace) => new Stack(workspace, specProgram(workspace, "restore"), "restore"));

  it("puts back a replaced plain value, leaves a replaced encrypted one, and honours restoreOnDelete after an interrupted create", async () => {
    const config = () =>
      e2e.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
    /** The field's name as users see it: the config's override merged over the app's definition. */
    const fieldName = async (): Promise<string> =>
      (await publicGet(e2e.emulator, "/slug/hubspot/config/acme", { linked_account_id: "acme" })).fields.find(
        (f: { id: string }) => f.id === "hs_pipeline",
      ).name;
    const alertsEnabled = () => e2e.emulator.store.configs.workflowState(config(), "wf_hs_deal_alerts").enabled;
    const original = {
      tier: e2e.emulator.store.envVariables.value(FIXTURE.values.accountTierAcme)!.value,
      token: e2e.emulator.store.envVariables.value(FIXTURE.values.crmApiTokenAcme)!.value,
    };
    const before = { fieldName: await fieldName(), alertsEnabled: alertsEnabled() };
    assert.ok(before.fieldName, "the field has a name to restore");
    assert.equal(before.alertsEnabled, false, "the fixture has deal alerts off for acme");

    const spec: Spec = {
      fields: [
        {
          name: "acme-pipeline",
          args: {
            ...ACME,
            fieldId: "hs_pipeline",
            name: "Pipeline (managed)",
            restoreOnDelete: { name: before.fieldName },
          } as never,
        },
      ],
      toggles: [
        {
          name: "acme-deal-alerts",
          args: { ...ACME, workflowId: "wf_hs_deal_alerts", enabled: true, restoreOnDelete: false } as never,
        },
      ],
      envValues: [
        {
          name: "acme-tier",
          args: { definitionId: FIXTURE.definitions.accountTier, linkedAccountId: "acme", value: "platinum" },
        },
        {
          name: "acme-crm-token",
          args: { definitionId: FIXTURE.definitions.crmApiToken, linkedAccountId: "acme", value: "rotated-token" },
        },
      ],
    };
    await step("0. up takes over the readable and the encrypted env value, recording the readable one", async () => {
      writeSpec(e2e.stack.dir, { envValues: spec.envValues });
      await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      const tier = ((await e2e.stack.exportState()).deployment.resources ?? []).find((r) =>
        r.urn.endsWith("::acme-tier"),
      )!;
      assert.equal(
        JSON.stringify(tier.outputs).includes(original.tier),
        false,
        "the recorded value is a secret in state",
      );
      writeSpec(e2e.stack.dir, spec);
    });

    await step(
      "1. up is killed while the platform holds the field's and the toggle's writes; both land after the kill",
      async () => {
        const since = logCursor(e2e.emulator);
        // Each write is held, then carried out by the platform after pulumi is gone, as a real one would be.
        const held = e2e.emulator.faults
          .add([
            { method: "PUT", path: "/config/field/hs_pipeline", action: { delayMs: 4_000 }, times: 1 },
            { method: "PUT", path: "/workflows/wf_hs_deal_alerts$", action: { delayMs: 4_000 }, times: 1 },
          ])
          .slice(-2);
        const fired = () => held.every((rule) => e2e.emulator.faults.list().find((r) => r.id === rule.id)?.fired === 1);
        const landed = () =>
          e2e.emulator.requests.list(since).filter((r) => r.fault === "delay" && r.status === 200).length === 2;
        const up = e2e.stack.start(["up", "--yes", "--skip-preview"]);
        await waitFor("both writes to be held", fired);
        up.kill(); // pulumi alone: its provider process lives on and receives the platform's answers
        await waitFor("both held writes to land", landed, 15_000);
        up.killAll();
        const ended = await up.exited;
        assert.equal(ended.signal, "SIGKILL", `pulumi was killed, not finished:\n${ended.stdout}${ended.stderr}`);
        await waitFor("the killed command's plugins to end", () => up.plugins().length === 0, 10_000);
        e2e.emulator.faults.clear();
        assert.equal(await fieldName(), "Pipeline (managed)", "the field's write landed");
        assert.equal(alertsEnabled(), true, "the toggle's write landed");
      },
    );

    await step(
      "2. the documented recovery creates both again, which now record the managed values as what was there",
      async () => {
        await recoverInterruptedUp(e2e.stack, path.join(e2e.workspace.root, "backend"));
        const resources = (await e2e.stack.exportState()).deployment.resources ?? [];
        const outputs = (name: string) =>
          resources.find((r) => r.urn.endsWith(`::${name}`))!.outputs as Record<string, unknown>;
        // The hole restoreOnDelete closes: the recorded "before" is what the killed run wrote.
        assert.equal((outputs("acme-pipeline").previous as { name?: string }).name, "Pipeline (managed)");
        assert.equal(outputs("acme-deal-alerts").previousEnabled, true);
        assert.equal(e2e.emulator.store.envVariables.value(FIXTURE.values.accountTierAcme)!.value, "platinum");
        assert.equal(e2e.emulator.store.envVariables.value(FIXTURE.values.crmApiTokenAcme)!.value, "rotated-token");
      },
    );

    await step(
      "3. destroy puts back the declared name and toggle, the replaced plain value, and leaves the encrypted one",
      async () => {
        const since = logCursor(e2e.emulator);
        const destroy = await e2e.stack.ok(["destroy", "--yes", "--skip-preview"]);
        assert.equal(await fieldName(), before.fieldName, "restoreOnDelete, not the recorded value");
        assert.equal(alertsEnabled(), false, "restoreOnDelete: false");
        assert.equal(
          e2e.emulator.store.envVariables.value(FIXTURE.values.accountTierAcme)?.value,
          original.tier,
          "the replaced plain value is back",
        );
        assert.equal(
          e2e.emulator.store.envVariables.value(FIXTURE.values.crmApiTokenAcme)?.value,
          "rotated-token",
          "the encrypted value is left, not deleted",
        );
        assert.deepEqual(
          writesIn(e2e.emulator.requests.list(since)).filter((r) => r.method === "DELETE"),
          [],
          "nothing that was there before is deleted",
        );
        assert.match(destroy.stdout, /left on the platform, not deleted: it replaced an encrypted value/);
        assert.ok(
          !destroy.stdout.includes("rotated-token") && !destroy.stdout.includes(original.token),
          "the warning names no value",
        );
      },
    );
  });
});

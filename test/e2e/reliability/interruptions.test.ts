// Interruptions: `pulumi up` is killed with SIGKILL at seven different points, in turn on one stack
// (one test, a step per point), and each time the documented recovery (docs/guides/reliability.md:
// `pulumi cancel`, `pulumi refresh --clear-pending-creates`, `pulumi up`) converges with nothing
// lost or duplicated, on the platform or in the state. Points are chosen by watching the
// emulator's request log. Through the real CLI with the file backend, against the in-process
// emulator.
//
// What the engine (v3.259, file backend) leaves after a SIGKILL, as measured here:
//   - the stack's lock file: every later command refuses to run until `pulumi cancel` removes it;
//   - pending operations: `pulumi up` only warns about them and keeps interrupted creates in the
//     state until `pulumi refresh --clear-pending-creates` drops them;
//   - the plugins it started (language host, program, provider): they live on, re-parented;
//   - rarely, a zero-byte `<stack>.json.attrs`, which makes every command fail with
//     `failed to load checkpoint: EOF` until it is deleted (see recoverInterruptedUp).
import * as assert from "node:assert/strict";
import * as path from "node:path";
import type { EmulatorState, RequestLogEntry } from "../../../emulator";
import { Stack, type BackgroundCommand } from "../../../harness/engine";
import { ENGINE_RECOVERY, step, useEmulatorStack } from "../../../harness/e2e";
import { FIXTURE } from "../../../harness/fixture";
import {
  assertPlatformMatches,
  assertStateMatches,
  lockHeld,
  logCursor,
  placement,
  recoverInterruptedUp,
  specProgram,
  waitFor,
  writeSpec,
  writesIn,
  type Spec,
} from "../../../harness/reliability";

/** The setup the points interrupt: per account a field, a toggle and two env values, plus one event. */
function setup(accounts: readonly string[], version: number, batchWorkflow = "wf_hs_contact_sync"): Spec {
  const spec: Spec = { fields: [], toggles: [], envValues: [], events: [] };
  for (const account of accounts) {
    const ids = { slug: "hubspot", linkedAccountId: account, configId: account };
    spec.fields!.push({
      name: `${account}-pipeline`,
      args: { ...ids, fieldId: "hs_pipeline", name: `Pipeline v${version}` },
    });
    spec.toggles!.push({
      name: `${account}-deal-alerts`,
      args: { ...ids, workflowId: "wf_hs_deal_alerts", enabled: version % 2 === 1 },
    });
    spec.envValues!.push(
      {
        name: `${account}-quota`,
        args: {
          definitionId: FIXTURE.definitions.accountQuota,
          linkedAccountId: account,
          value: String(1000 * version + accounts.indexOf(account)),
        },
      },
      {
        name: `${account}-batch`,
        args: {
          definitionId: FIXTURE.definitions.batchSize,
          linkedAccountId: account,
          workflowId: batchWorkflow,
          value: String(10 * version),
        },
      },
    );
  }
  spec.events!.push({
    name: "deal-won",
    args: { eventId: FIXTURE.events[1], name: `deal.won.v${version}`, response: { deal: { id: "d_1", version } } },
  });
  return spec;
}

/** How one interruption went, for the closing summary. */
interface PointReport {
  point: string;
  writesBeforeKill: number;
  lockLeft: boolean;
  pending: string[];
  repairedSidecars: string[];
}

describe(`e2e reliability: interruptions ${ENGINE_RECOVERY}`, function () {
  this.timeout(10 * 60_000);
  // Default client settings (10 s timeout): the held write of point 3 must not time out.
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, specProgram(workspace, "interrupted"), "interrupted"),
  );
  /** Every env placement the stack has declared so far: those no longer declared must be empty. */
  const everDeclared = new Set<string>();
  /** Every value the stack has declared at each placement. */
  const ownValues = new Map<string, Set<string>>();
  const reports: PointReport[] = [];
  /** The platform before the first point: a retired placement that held a value then gets one back. */
  let fixture: EmulatorState;
  before(() => {
    fixture = e2e.emulator.store.snapshot();
  });

  after(() => {
    for (const r of reports) {
      console.log(
        `      ${r.point}: ${r.writesBeforeKill} writes before the kill; lock left: ${r.lockLeft}; pending: ${r.pending.join(", ") || "none"}${r.repairedSidecars.length ? `; zero-byte sidecar deleted: ${r.repairedSidecars.join(", ")}` : ""}`,
      );
    }
  });

  /**
   * Runs `pulumi up` with `spec`, kills it when `killWhen` holds (every process at once, or
   * `pulumi` alone and its plugins only after `settle`), recovers the documented way, and checks
   * that platform and state hold exactly the spec and that a preview shows no change.
   */
  async function interruptUp(
    point: string,
    spec: Spec,
    options: {
      /** Polled every 10 ms with the API calls, and the answered writes, since the up started. */
      killWhen: (seen: { calls: number; writes: number }) => boolean;
      args?: string[];
      pulumiAlone?: { settle: () => Promise<void> };
      beforeRecovery?: (pending: { type: string; name: string }[]) => void;
      /**
       * Holds the first matching write for `delayMs` (a delay fault), and kills only once it is
       * held: the platform still carries it out after the kill, as a real one would.
       */
      hold?: { method: string; path: string; delayMs: number };
    },
  ): Promise<RequestLogEntry[]> {
    writeSpec(e2e.stack.dir, spec);
    const since = logCursor(e2e.emulator);
    const answeredWrites = () =>
      writesIn(e2e.emulator.requests.list(since)).filter((e) => e.status >= 200 && e.status < 300).length;
    const [held] = options.hold
      ? e2e.emulator.faults
          .add([
            {
              method: options.hold.method,
              path: options.hold.path,
              action: { delayMs: options.hold.delayMs },
              times: 1,
            },
          ])
          .slice(-1)
      : [];
    const isHeld = () => !held || e2e.emulator.faults.list().find((r) => r.id === held.id)!.fired === 1;
    const up: BackgroundCommand = e2e.stack.start(options.args ?? ["up", "--yes", "--skip-preview"]);
    await waitFor(
      `${point}: the kill condition`,
      () => isHeld() && options.killWhen({ calls: e2e.emulator.requests.list(since).length, writes: answeredWrites() }),
    );
    const killedAt = Date.now();
    const writesBeforeKill = answeredWrites();
    const atKill = e2e.emulator.requests.list(since);
    if (options.pulumiAlone) {
      up.kill();
      await options.pulumiAlone.settle();
    }
    up.killAll();
    const ended = await up.exited;
    assert.equal(ended.signal, "SIGKILL", `${point}: pulumi was killed, not finished:\n${ended.stdout}${ended.stderr}`);
    await waitFor("the killed command's plugins to end", () => up.plugins().length === 0, 10_000);

    // What the kill left behind, as `pulumi stack export` shows it (after the sidecar repair).
    const backend = path.join(e2e.workspace.root, "backend");
    const lockLeft = lockHeld(backend);
    const { repairedSidecars, outputs } = await recoverInterruptedUp(e2e.stack, backend, (exported) => {
      const ops = (
        (exported.deployment as { pending_operations?: { type: string; resource: { urn: string } }[] })
          .pending_operations ?? []
      ).map((op) => ({
        type: op.type,
        name: op.resource.urn.split("::").pop()!,
      }));
      reports.push({
        point,
        writesBeforeKill,
        lockLeft,
        pending: ops.map((op) => `${op.type} ${op.name}`),
        repairedSidecars: [],
      });
      options.beforeRecovery?.(ops);
    });
    reports[reports.length - 1].repairedSidecars = repairedSidecars.map((file) => path.relative(backend, file));
    assert.doesNotMatch(outputs[2], /pending operations/, "the final up sees no pending operation");
    if (options.hold) {
      // The held write has landed by now (recovery takes longer than the hold); make it certain.
      await waitFor("the held write to land", () => Date.now() > killedAt + options.hold!.delayMs + 200);
      e2e.emulator.faults.clear();
    }

    for (const v of spec.envValues ?? []) {
      const key = placement(v.args.definitionId, v.args.linkedAccountId, v.args.workflowId);
      everDeclared.add(key);
      ownValues.set(key, new Set([...(ownValues.get(key) ?? []), v.args.value]));
    }
    const declared = new Set(
      (spec.envValues ?? []).map((v) => placement(v.args.definitionId, v.args.linkedAccountId, v.args.workflowId)),
    );
    assertPlatformMatches(e2e.emulator.store.snapshot(), spec, {
      retired: [...everDeclared].filter((p) => !declared.has(p)),
      before: fixture,
      ownValues,
    });
    assertStateMatches(await e2e.stack.exportState(), spec);
    const noop = await e2e.stack.run(["preview", "--expect-no-changes"]);
    assert.equal(noop.code, 0, `${point}: a preview after recovery shows no change:\n${noop.stdout}${noop.stderr}`);
    return atKill;
  }

  // One walk of the stack: each point's up starts from what the recovery of the point before it
  // left (points 1 to 3 create, 4 updates what they created, 5 replaces, 6 deletes, 7 updates
  // again), and everDeclared and reports run through all of them.
  it("recovers the documented way from a SIGKILL at each of seven points of up, with nothing lost or duplicated", async function () {
    this.timeout(7 * 10 * 60_000);

    await step("1. killed during the preview of the first up, before any write", async () => {
      await interruptUp("1. preview, before any write", setup(["acme"], 1), {
        args: ["up", "--yes"],
        // The preview's first call (an env value's check reads its definition) has been answered.
        killWhen: ({ calls }) => calls > 0,
        beforeRecovery: (pending) => assert.deepEqual(pending, [], "nothing was pending"),
      });
      assert.equal(reports[0].writesBeforeKill, 0);
    });

    await step(
      "2. killed while creating, after the second write (every process at once, as a cancelled CI job)",
      async () => {
        await interruptUp("2. creating, after 2 writes", setup(["acme", "globex"], 1), {
          killWhen: ({ writes }) => writes >= 2,
        });
      },
    );

    await step(
      "3. killed while the platform holds a create (pulumi alone; its provider sees the write land)",
      async () => {
        const since = logCursor(e2e.emulator);
        await interruptUp("3. creating, pulumi alone, a write held", setup(["acme", "globex", "initech"], 1), {
          hold: { method: "POST", path: "^/api/v2/public/env/values$", delayMs: 3000 },
          killWhen: () => true,
          pulumiAlone: {
            // The provider process outlives pulumi and receives the platform's answer to the held write.
            settle: () =>
              waitFor(
                "the held write to land",
                () => e2e.emulator.requests.list(since).some((e) => e.fault === "delay" && e.status === 200),
                10_000,
              ),
          },
          beforeRecovery: (pending) =>
            assert.ok(
              pending.some((op) => op.type === "creating"),
              `an interrupted create is pending: ${JSON.stringify(pending)}`,
            ),
        });
      },
    );

    await step("4. killed while updating, with one update held by the platform", async () => {
      await interruptUp("4. updating, a write held", setup(["acme", "globex", "initech"], 2), {
        hold: { method: "PUT", path: "^/api/v2/public/config/field/", delayMs: 1500 },
        killWhen: ({ writes }) => writes >= 2,
        beforeRecovery: (pending) =>
          assert.ok(
            pending.some((op) => op.type === "updating"),
            `an interrupted update is pending: ${JSON.stringify(pending)}`,
          ),
      });
    });

    await step(
      "5. killed while replacing, after the first replacement was created and before any old value was deleted",
      async () => {
        const atKill = await interruptUp(
          "5. replacing, between create and delete",
          setup(["acme", "globex", "initech"], 2, "wf_hs_deal_alerts"),
          {
            killWhen: ({ writes }) => writes >= 1,
          },
        );
        // Replaced values are deleted only after every replacement exists (create before delete).
        assert.deepEqual(
          atKill.filter((e) => e.method === "DELETE" && e.status < 300),
          [],
          "no replaced value was deleted before the kill",
        );
        // The three old values (at wf_hs_contact_sync) are gone now: interruptUp checked those
        // placements as retired, so the recovery deleted them.
      },
    );

    await step("6. killed while deleting, with one delete held by the platform", async () => {
      await interruptUp("6. deleting, a write held", setup(["acme"], 2, "wf_hs_deal_alerts"), {
        hold: { method: "DELETE", path: "^/api/v2/public/env/values/", delayMs: 1500 },
        killWhen: ({ writes }) => writes >= 1,
        beforeRecovery: (pending) =>
          assert.ok(
            pending.some((op) => op.type === "deleting"),
            `an interrupted delete is pending: ${JSON.stringify(pending)}`,
          ),
      });
    });

    await step("7. killed right after the last write of an update was answered", async () => {
      // Five writes: the field, the toggle, two env values and the event.
      await interruptUp("7. after the last write", setup(["acme"], 3, "wf_hs_deal_alerts"), {
        killWhen: ({ writes }) => writes >= 5,
      });
    });
  });
});

// Faults: about 20% of the platform's answers fail (429 with Retry-After, 500, 503, reset
// connections, answers slower than the client's timeout), and `pulumi up` of 57 resources of all
// four kinds still converges; a permanent fault ends in bounded time with an error that names the
// operation and leaves the state consistent. Through the real CLI, against the in-process emulator.
//
// Figures behind the settings: timeoutMs 1000 with delays of 1500 ms (so each delay fault is a
// client timeout), Retry-After 1 s, maxRetries 8. A call fails only if all 9 attempts fail:
// 0.2^9 = 5.1e-7 per call (a 429 is retried for two minutes rather than 8 times, which only makes
// that rarer). The runs that must converge make about 150 calls (printed after the
// suite, with the resulting chance of a spurious failure: about 8e-5, 1 run in 13,000).
import * as assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { FaultRuleInput, RequestLogEntry, RunningEmulator } from "../../../emulator";
import { Stack } from "../../../harness/engine";
import { step, useEmulatorStack } from "../../../harness/e2e";
import {
  assertPlatformMatches,
  assertStateMatches,
  FAST_CLIENT,
  fullSpec,
  logCursor,
  placement,
  resourceCount,
  specProgram,
  writeSpec,
  writesIn,
  type Spec,
} from "../../../harness/reliability";

const API_KEY = `tk_faults_${randomBytes(6).toString("hex")}`;
const API = "^/api/";

/**
 * About 20% of API calls fail, spread over every kind. First, one fault of each kind is
 * guaranteed on a write (so that none can be missed by chance: among ~130 calls, a 3% kind
 * would fire zero times 2% of the time); then 18% of all calls fail at random. Rules are tried in
 * order and a lost roll falls through to the next rule, so each probability is conditional on
 * the earlier ones losing: 4.5% 429, 3.5% 500, 3.5% 503, 3.5% resets, 3% timeouts.
 */
const TWENTY_PERCENT: FaultRuleInput[] = [
  // A timed-out upsert that the platform still carries out: the retry must not duplicate the value.
  { method: "POST", path: "^/api/v2/public/env/values$", action: { delayMs: 1500 }, times: 1 },
  { method: "PUT", path: "^/api/v2/public/config/field/", action: { reset: true }, times: 1 },
  { method: "PUT", path: "/workflows/", action: { status: 503 }, times: 1 },
  { method: "PUT", path: "^/api/v2/public/application/event/", action: { status: 429, retryAfter: 1 }, times: 1 },
  { method: "GET", path: "^/api/v2/public/slug/", action: { status: 500 }, times: 1 },
  { path: API, action: { status: 429, retryAfter: 1 }, probability: 0.045 },
  { path: API, action: { status: 500 }, probability: 0.035 / 0.955 },
  { path: API, action: { status: 503 }, probability: 0.035 / 0.92 },
  { path: API, action: { reset: true }, probability: 0.035 / 0.885 },
  { path: API, action: { delayMs: 1500 }, probability: 0.03 / 0.85 },
];

/** Counts of a request log's faults by kind (a status fault by its status). */
function faultCounts(entries: RequestLogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of entries.filter((entry) => entry.fault)) {
    const kind = e.fault === "status" ? String(e.status) : e.fault!;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

describe("e2e reliability: faults", function () {
  this.timeout(10 * 60_000);
  const e2e = useEmulatorStack((workspace) => new Stack(workspace, specProgram(workspace, "faults"), "faults"), {
    emulator: { apiKey: API_KEY },
    config: FAST_CLIENT,
  });
  let spec: Spec;
  let fixture: ReturnType<RunningEmulator["store"]["snapshot"]>;
  /** Every API call of the runs that must converge despite faults, for the closing figures. */
  const survived: RequestLogEntry[] = [];

  before(() => {
    fixture = e2e.emulator.store.snapshot();
    spec = {
      // The lookups run in the program's process and share the client's retries.
      lookups: [
        { fn: "getLinkedAccounts", args: {} },
        { fn: "getEnvDefinitions", args: { scope: "linked_account" } },
        { fn: "getEnvValues", args: { scope: "workflow", workflowId: "wf_hs_contact_sync" } },
      ],
      ...fullSpec(randomBytes(4).toString("hex")),
    };
    writeSpec(e2e.stack.dir, spec);
  });
  after(() => {
    const faulted = survived.filter((e) => e.fault);
    // Each call ends with one attempt that no fault touched: those count the calls.
    const calls = survived.length - faulted.length;
    const flake = 1 - (1 - 0.2 ** 9) ** calls;
    console.log(
      `      converging runs: ${calls} calls in ${survived.length} attempts; ${faulted.length} faults injected and survived ${JSON.stringify(faultCounts(survived))}; ` +
        `chance that a run fails by bad luck (a call failing 9 times in a row at p = 0.2): ${flake.toExponential(1)}`,
    );
  });

  // One walk of the main stack under the same faults: the second up and the destroy start from
  // what the first up left.
  it(`converges under ~20% faults: up of ${resourceCount(fullSpec("x"))} resources, a no-op second up, and destroy`, async function () {
    this.timeout(3 * 10 * 60_000);

    await step(
      `up of ${resourceCount(fullSpec("x"))} resources of all four kinds converges while ~20% of calls fail`,
      async () => {
        assert.ok(resourceCount(spec) >= 50);
        const since = logCursor(e2e.emulator);
        e2e.emulator.faults.add(TWENTY_PERCENT);
        const up = await e2e.stack.ok(["up", "--yes", "--skip-preview", "--parallel", "8"]);
        const log = e2e.emulator.requests.list(since);
        survived.push(...log);

        assert.match(up.stdout, new RegExp(`\\+ ${resourceCount(spec) + 1} created`));
        assertPlatformMatches(e2e.emulator.store.snapshot(), spec);
        assertStateMatches(await e2e.stack.exportState(), spec);

        // The faults really were about 20%, of every kind, and the client really retried.
        const faulted = log.filter((e) => e.fault);
        const rate = faulted.length / log.length;
        const counts = faultCounts(log);
        console.log(
          `      up: ${log.length} calls, ${faulted.length} faulted (${(rate * 100).toFixed(1)}%) ${JSON.stringify(counts)}, ${up.ms} ms`,
        );
        // About 20%: the bounds sit about 4 standard deviations away for ~125 attempts.
        assert.ok(rate > 0.08 && rate < 0.36, `fault rate ${rate}`);
        for (const kind of ["429", "500", "503", "reset", "delay"])
          assert.ok(counts[kind] > 0, `at least one ${kind} fault fired`);
        assert.ok(
          log.some((e) => e.status === 499),
          "a delay fault made the client give up and retry",
        );
      },
    );

    await step("a second up under the same faults is a no-op: no write, every resource unchanged", async () => {
      const since = logCursor(e2e.emulator);
      const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      const log = e2e.emulator.requests.list(since);
      survived.push(...log);
      assert.match(up.stdout, new RegExp(`${resourceCount(spec) + 1} unchanged`));
      assert.doesNotMatch(up.stdout, /created|updated|deleted|replaced/);
      assert.deepEqual(writesIn(log), [], "no write request");
      assertPlatformMatches(e2e.emulator.store.snapshot(), spec);
      assertStateMatches(await e2e.stack.exportState(), spec);
    });

    await step(
      "destroy under the same faults puts back every env value that was there, deletes the ones it created, and restores every toggle",
      async () => {
        const since = logCursor(e2e.emulator);
        const destroy = await e2e.stack.ok(["destroy", "--yes", "--skip-preview", "--parallel", "8"]);
        survived.push(...e2e.emulator.requests.list(since));
        assert.match(destroy.stdout, new RegExp(`- ${resourceCount(spec) + 1} deleted`));
        e2e.emulator.faults.clear();
        const state = e2e.emulator.store.snapshot();
        // Delete never loses what was there: a value the stack replaced is put back (an encrypted
        // one, which cannot be read, is left as the stack set it); one the stack created is deleted.
        const encrypted = new Set(fixture.envDefinitions.filter((d) => d.encrypted).map((d) => d._id));
        const left = new Map(
          state.envValues.map((v) => [placement(v.variable_definition_id, v.linked_account_id, v.workflow_id), v]),
        );
        const before = fixture.envValues.map(
          (v) => [placement(v.variable_definition_id, v.linked_account_id, v.workflow_id), v] as const,
        );
        assert.deepEqual(
          [...left.keys()].sort(),
          before.map(([key]) => key).sort(),
          "exactly the placements that held a value before hold one again",
        );
        for (const [key, value] of before) {
          // Compared without printing: values stand for secrets.
          if (!encrypted.has(value.variable_definition_id))
            assert.ok(left.get(key)!.value === value.value, `${key}: the value it held before is back`);
        }
        for (const { args } of spec.toggles!) {
          const enabled = (s: typeof state) =>
            s.configs
              .find(
                (c) =>
                  c.linked_account_id === args.linkedAccountId && c.slug === args.slug && c.config_id === args.configId,
              )
              ?.workflows.find((w) => w.id === args.workflowId)?.enabled ?? false;
          assert.equal(
            enabled(state),
            enabled(fixture),
            `${args.linkedAccountId}/${args.workflowId} is back as the fixture had it`,
          );
        }
        assert.deepEqual(
          (await e2e.stack.exportState()).deployment.resources?.filter((r) => r.type !== "pulumi:pulumi:Stack") ?? [],
          [],
        );
      },
    );
  });

  // Stands alone: its own stack, its own spec (a part of the before hook's), and a snapshot of the
  // platform taken here; it needs none of the converging test's state.
  it("a permanent fault ends in bounded time, names the operation, and leaves the state consistent", async () => {
    // Only this test's fault rules: a converging test that failed before its destroy left its ~20% on.
    e2e.emulator.faults.clear();
    const small: Spec = {
      fields: [spec.fields![0], spec.fields![6]], // acme: a hubspot field and a slack field
      events: [spec.events![0]],
      envValues: [spec.envValues![2]], // acme's quota
    };
    // Fewer retries than the converging runs, so that the bound is short: 3 attempts of at most 1 s
    // each, and 2 s of 429s (a 429 is retried for a time budget, not a count).
    const permanent = await e2e.addStack(
      new Stack(e2e.workspace, specProgram(e2e.workspace, "permanent"), "permanent"),
      {
        config: {
          "integration-platform:timeoutMs": "1000",
          "integration-platform:maxRetries": "2",
          "integration-platform:rateLimitBudgetMs": "2000",
        },
      },
    );
    const before = e2e.emulator.store.snapshot();
    // Every call fails, each path in its own way.
    e2e.emulator.faults.add([
      { path: "^/api/v2/public/env/", action: { status: 429, retryAfter: 1 } },
      { path: "^/api/v2/public/slug/hubspot/", action: { reset: true } },
      { path: "^/api/v2/public/slug/slack/", action: { delayMs: 1500 } },
      { path: API, action: { status: 503 } },
    ]);
    const since = logCursor(e2e.emulator);
    // The env value's check reads its definitions, and a failed check ends the run at once (the
    // engine stops the program), so it goes through preview on its own; the other resources go
    // through up with --continue-on-error and without validation at check (whose first failure
    // would end the run too), so that each of them reaches its own operation's failure.
    writeSpec(permanent.dir, { envValues: small.envValues });
    const preview = await permanent.run(["preview"]);
    writeSpec(permanent.dir, { fields: small.fields, events: small.events });
    const up = await permanent.run(["up", "--yes", "--skip-preview", "--continue-on-error"], {
      INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW: "false",
    });
    const log = e2e.emulator.requests.list(since);
    e2e.emulator.faults.clear();
    console.log(
      `      permanent fault: preview failed in ${preview.ms} ms, up in ${up.ms} ms, after ${log.length} calls`,
    );

    assert.notEqual(preview.code, 0);
    assert.notEqual(up.code, 0);
    // Bound: CLI start (about 3 to 5 s), then 3 attempts of at most 1 s with backoffs of about 0.5 s
    // and 1 s, or 2 s of 429s.
    for (const ms of [preview.ms, up.ms]) assert.ok(ms < 30_000, `failed after ${ms} ms`);
    assert.ok(log.length > 0 && log.every((e) => e.fault), "every call failed");
    // Each error names the failed operation, says what failed and what to do.
    const output = preview.stdout + preview.stderr + up.stdout + up.stderr;
    const named = {
      "429 from GET /env/definitions:": "raise `integration-platform:rateLimitBudgetMs`",
      "GET /slug/hubspot/config/acme failed (after 3 attempts): the platform could not be reached (ECONNRESET)":
        "check `integration-platform:baseUrl`",
      "GET /slug/slack/config/acme failed (after 3 attempts): the platform did not answer in time":
        "check `integration-platform:baseUrl`",
      "503 from PUT /application/event/64f0000000000000000000e1 (after 3 attempts)": "run again later",
    };
    for (const [message, advice] of Object.entries(named)) {
      const line = output.split("\n").find((l) => l.includes(message));
      assert.ok(line, `an error says: ${message}\n${output}`);
      assert.ok(line.includes(advice), `and advises: ${advice}\n${line}`);
    }
    assert.ok(!output.includes(API_KEY), "no message contains the API key");

    // Consistent: nothing half-recorded, no lock left behind, and the platform untouched.
    assertStateMatches(await permanent.exportState(), {});
    assert.deepEqual(e2e.emulator.store.snapshot().configs, before.configs);
    assert.deepEqual(e2e.emulator.store.snapshot().events, before.events);
    assert.deepEqual(e2e.emulator.store.snapshot().envValues, before.envValues);
    // Once the platform is back, a plain `up` converges: no cancel or refresh is needed.
    writeSpec(permanent.dir, small);
    const retry = await permanent.ok(["up", "--yes", "--skip-preview"]);
    // The stack resource itself was recorded by the failed run.
    assert.match(retry.stdout, /\+ 4 created/);
    assertPlatformMatches(e2e.emulator.store.snapshot(), small);
    assertStateMatches(await permanent.exportState(), small);
  });
});

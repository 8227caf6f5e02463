import { afterEach, describe, it } from "mocha";
import { strict as assert } from "node:assert";
import type { Delivery } from "../../emulator";
import { checkWebhookSignature, parseWebhookPayload, signWebhookBody } from "../../provider/webhooks";
import { assertError, ok, useEmulatorClients } from "../support/emulatorClients";
import { startReceiver, type TestReceiver } from "../support/receiver";

// Short times, so that a test of four attempts takes well under a second; the defaults (5 s per
// attempt, 1 s first backoff) are checked by the command line's banner test.
const BACKOFF_MS = 100;
const TIMEOUT_MS = 200;

describe("emulator: workflow runs and webhooks (/_emulator/workflow-runs, /_emulator/webhooks)", () => {
  const h = useEmulatorClients({ webhooks: { backoffMs: BACKOFF_MS, timeoutMs: TIMEOUT_MS } });
  const receivers: TestReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  async function receiver(...args: Parameters<typeof startReceiver>): Promise<TestReceiver> {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  }
  const register = async (url: string, events?: string[]) => {
    const res = await h.control.post("/webhooks/receivers", events ? { url, events } : { url });
    assert.equal(res.status, 201, JSON.stringify(res.data));
    return res.data.receiver as { id: string; events: string[] };
  };
  const run = (body: Record<string, unknown>) => h.control.post("/workflow-runs", body);
  const acmeRun = (workflow_id: string, extra: Record<string, unknown> = {}) =>
    run({ linked_account_id: "acme", slug: "hubspot", workflow_id, ...extra });
  const delivery = async (id: string): Promise<Delivery> =>
    ok(await h.control.get(`/webhooks/deliveries/${id}`)).delivery;
  async function settled(id: string, timeoutMs = 10_000): Promise<Delivery> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const d = await delivery(id);
      if (!["queued", "sending"].includes(d.state)) return d;
      if (Date.now() > deadline)
        throw new Error(`delivery ${id} still ${d.state} after ${timeoutMs} ms: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const auditTypes = async () =>
    ok(await h.api.get("/audit/event-received", { params: { limit: 100 } })).docs.map(
      (d: { event_type: string }) => d.event_type,
    );

  describe("runs", () => {
    it("runs a published workflow enabled for the config: audit entries, a signed webhook with the documented payload", async () => {
      const hook = await receiver();
      await register(hook.url);
      const res = await acmeRun("wf_hs_contact_sync");
      assert.equal(res.status, 201, JSON.stringify(res.data));
      const { run: started } = res.data;
      assert.equal(started.status, "COMPLETED");
      assert.equal(started.config_id, "acme");

      const [got] = await hook.waitFor(1);
      assert.equal(got.method, "POST");
      assert.equal(got.headers["content-type"], "application/json");
      assert.equal(
        checkWebhookSignature(got.rawBody, got.headers["x-cobalt-signature"], h.emulator.apiKey).valid,
        true,
      );
      assert.deepEqual(parseWebhookPayload(got.rawBody), {
        linked_account_id: "acme",
        instance_id: started.instance_id,
        workflow_id: "wf_hs_contact_sync",
        config_id: "acme",
        event: "Workflow Completed",
        workflow_name: "Sync contacts",
        status: "COMPLETED",
      });

      const docs = ok(await h.bearer.get("/audit/event-received")).docs;
      assert.deepEqual(
        docs.map((d: Record<string, unknown>) => [d.event_type, d.resource_id, d.workflow_id, d.auth]),
        [
          ["WORKFLOW_RUN_COMPLETED", started.instance_id, "wf_hs_contact_sync", "platform"],
          ["WORKFLOW_RUN_STARTED", started.instance_id, "wf_hs_contact_sync", "platform"],
        ],
      );
    });

    it("refuses a workflow disabled for the config with 409 WORKFLOW_DISABLED, and nothing changes", async () => {
      const hook = await receiver();
      await register(hook.url);
      const before = JSON.stringify(h.emulator.store.state);
      assertError(
        await acmeRun("wf_hs_deal_alerts"),
        409,
        "WORKFLOW_DISABLED",
        "is disabled for config acme of acme: enable it",
      );
      assert.equal(JSON.stringify(h.emulator.store.state), before);
      assert.deepEqual(ok(await h.control.get("/workflow-runs")).runs, []);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(hook.received.length, 0);
    });

    it("runs a workflow once it was enabled through the public API", async () => {
      assertError(await acmeRun("wf_hs_deal_alerts"), 409, "WORKFLOW_DISABLED");
      ok(
        await h.api.put(
          "/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts",
          { enabled: true },
          { headers: { linked_account_id: "acme" } },
        ),
      );
      assert.equal((await acmeRun("wf_hs_deal_alerts")).status, 201);
    });

    it("refuses a draft with 409 WORKFLOW_NOT_PUBLISHED; unknown accounts, apps, workflows and configs with 404", async () => {
      assertError(await acmeRun("wf_hs_lead_scoring"), 409, "WORKFLOW_NOT_PUBLISHED", "only published workflows run");
      assertError(
        await run({ linked_account_id: "nobody", slug: "hubspot", workflow_id: "wf_hs_contact_sync" }),
        404,
        "RESOURCE_NOT_FOUND",
        "Linked account nobody",
      );
      assertError(
        await run({ linked_account_id: "acme", slug: "nope", workflow_id: "wf_hs_contact_sync" }),
        404,
        "RESOURCE_NOT_FOUND",
        "Application nope",
      );
      assertError(await acmeRun("wf_nope"), 404, "RESOURCE_NOT_FOUND", "Workflow wf_nope not found in hubspot");
      assertError(
        await acmeRun("wf_hs_contact_sync", { config_id: "other" }),
        404,
        "RESOURCE_NOT_FOUND",
        "Config with config id other",
      );
    });

    it("refuses a bad request by property: an unknown outcome, a negative delay, an unknown property", async () => {
      assertError(await acmeRun("wf_hs_contact_sync", { outcome: "exploded" }), 400, "VALIDATION_ERROR", "outcome");
      assertError(await acmeRun("wf_hs_contact_sync", { delay_ms: -1 }), 400, "VALIDATION_ERROR", "delay_ms");
      assertError(
        await acmeRun("wf_hs_contact_sync", { linkedAccountId: "acme" }),
        400,
        "VALIDATION_ERROR",
        "linkedAccountId",
      );
    });

    it("ends a delayed run with its outcome (timed_out, in any case), and sends only the events a receiver asked for", async () => {
      const all = await receiver();
      const onlyErrors = await receiver();
      await register(all.url);
      await register(onlyErrors.url, ["errored"]);
      const started = (await acmeRun("wf_hs_contact_sync", { outcome: "timed_out", delay_ms: 50 })).data.run;
      assert.equal(started.status, "RUNNING");
      const [got] = await all.waitFor(1);
      assert.equal(parseWebhookPayload(got.rawBody).event, "Workflow Timed Out");
      assert.equal(ok(await h.control.get(`/workflow-runs/${started.instance_id}`)).run.status, "TIMED_OUT");
      assert.equal((await acmeRun("wf_hs_contact_sync", { outcome: "Workflow Errored" })).status, 201);
      const [errored] = await onlyErrors.waitFor(1);
      assert.equal(parseWebhookPayload(errored.rawBody).status, "ERRORED");
      await all.waitFor(2);
      assert.equal(onlyErrors.received.length, 1);
    });

    it("stops a running run: Workflow Stopped, its audit entry and webhook; a second stop is refused", async () => {
      const hook = await receiver();
      await register(hook.url);
      const started = (await acmeRun("wf_hs_contact_sync", { delay_ms: 60_000 })).data.run;
      const stopped = ok(await h.control.post(`/workflow-runs/${started.instance_id}/stop`)).run;
      assert.equal(stopped.status, "STOPPED");
      const [got] = await hook.waitFor(1);
      assert.equal(parseWebhookPayload(got.rawBody).event, "Workflow Stopped");
      assert.deepEqual((await auditTypes()).slice(0, 2), ["WORKFLOW_RUN_STOPPED", "WORKFLOW_RUN_STARTED"]);
      assertError(
        await h.control.post(`/workflow-runs/${started.instance_id}/stop`),
        409,
        "RUN_ENDED",
        "already ended: STOPPED",
      );
      assertError(await h.control.post(`/workflow-runs/nope/stop`), 404, "RESOURCE_NOT_FOUND");
    });
  });

  describe("deliveries", () => {
    it("retries a failing receiver 3 times with exponential backoff, and logs each attempt", async () => {
      const hook = await receiver((n) => (n < 4 ? 500 : 204));
      await register(hook.url);
      const { run: started } = (await acmeRun("wf_hs_contact_sync")).data;
      const final = await settled(started.deliveries[0]);
      assert.equal(final.state, "delivered");
      assert.deepEqual(
        final.attempts.map((a) => a.status),
        [500, 500, 500, 204],
      );
      const arrivals = hook.received.map((r) => r.at);
      const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]);
      // Waits of 100, 200 and 400 ms; timers may fire late, never early.
      gaps.forEach((gap, i) => {
        const wait = BACKOFF_MS * 2 ** i;
        assert.ok(
          gap >= wait - 5 && gap < wait + 300,
          `retry ${i + 1} came ${gap.toFixed(0)} ms after the one before, expected ~${wait} ms`,
        );
      });
      // Every attempt carries the same body and signature.
      assert.equal(new Set(hook.received.map((r) => r.rawBody.toString())).size, 1);
      assert.equal(new Set(hook.received.map((r) => r.headers["x-cobalt-signature"])).size, 1);
    });

    it("gives up after 4 attempts at a receiver that keeps failing", async () => {
      const hook = await receiver(() => 503);
      await register(hook.url);
      const final = await settled((await acmeRun("wf_hs_contact_sync")).data.run.deliveries[0]);
      assert.equal(final.state, "failed");
      assert.deepEqual(
        final.attempts.map((a) => a.status),
        [503, 503, 503, 503],
      );
      assert.equal(hook.received.length, 4);
    });

    it("gives a receiver that never answers its time per attempt, then fails the delivery", async () => {
      const hook = await receiver(() => "hang");
      await register(hook.url);
      const startedAt = Date.now();
      const final = await settled((await acmeRun("wf_hs_contact_sync")).data.run.deliveries[0]);
      const took = Date.now() - startedAt;
      assert.equal(final.state, "failed");
      assert.deepEqual(
        final.attempts.map((a) => [a.status, a.error]),
        Array(4).fill([null, `no answer within ${TIMEOUT_MS} ms`]),
      );
      for (const attempt of final.attempts) assert.ok(attempt.durationMs >= TIMEOUT_MS - 5, JSON.stringify(attempt));
      // 4 × 200 ms of waiting for an answer plus 100 + 200 + 400 ms of backoff.
      assert.ok(took >= 1_450 && took < 4_000, `took ${took} ms`);
    });

    it("bounds the whole answer, not only the silence: a receiver that trickles its body forever fails each attempt at the timeout", async () => {
      const hook = await receiver(() => "trickle");
      await register(hook.url);
      const final = await settled((await acmeRun("wf_hs_contact_sync")).data.run.deliveries[0]);
      assert.equal(final.state, "failed");
      assert.deepEqual(
        final.attempts.map((a) => a.error),
        Array(4).fill(`no answer within ${TIMEOUT_MS} ms`),
      );
      for (const attempt of final.attempts) assert.ok(attempt.durationMs < TIMEOUT_MS + 200, JSON.stringify(attempt));
    });

    it("sends nothing more after a reset, also for a delivery waiting between its retries", async () => {
      const hook = await receiver(() => 500);
      await register(hook.url);
      await acmeRun("wf_hs_contact_sync");
      await hook.waitFor(1);
      ok(await h.control.post("/reset"));
      assert.equal(h.emulator.webhooks.pending, 0, "the waiting retry left the queue at once");
      await new Promise((r) => setTimeout(r, BACKOFF_MS * 4));
      assert.equal(hook.received.length, 1);
    });

    it("records a receiver that is down as connection refused", async () => {
      const hook = await receiver();
      await hook.close();
      await register(hook.url);
      const final = await settled((await acmeRun("wf_hs_contact_sync")).data.run.deliveries[0]);
      assert.equal(final.state, "failed");
      assert.deepEqual(
        final.attempts.map((a) => a.error),
        Array(4).fill("connection refused"),
      );
    });

    it("redelivers a logged delivery as a new one: the same body and signature, linked to the first", async () => {
      const hook = await receiver((n) => (n === 1 ? 200 : 202));
      await register(hook.url);
      const first = await settled((await acmeRun("wf_hs_contact_sync")).data.run.deliveries[0]);
      const res = await h.control.post(`/webhooks/deliveries/${first.id}/redeliver`);
      assert.equal(res.status, 201);
      const again = await settled(res.data.delivery.id);
      assert.equal(again.redeliveryOf, first.id);
      assert.equal(again.state, "delivered");
      assert.deepEqual(
        again.attempts.map((a) => a.status),
        [202],
      );
      const [a, b] = await hook.waitFor(2);
      assert.deepEqual(b.rawBody, a.rawBody);
      assert.equal(b.headers["x-cobalt-signature"], a.headers["x-cobalt-signature"]);
      assertError(await h.control.post(`/webhooks/deliveries/dlv_0/redeliver`), 404, "RESOURCE_NOT_FOUND");
    });

    it("delivers 1,500 events and keeps the log at its bound of 1,000", async function () {
      this.timeout(60_000);
      const hook = await receiver();
      await register(hook.url);
      const heapBefore = process.memoryUsage().heapUsed;
      const payload = (i: number) => ({
        linked_account_id: "acme",
        instance_id: `run-${i}`,
        workflow_id: "wf_hs_contact_sync",
        config_id: "acme",
        event: "Workflow Completed" as const,
        workflow_name: "Sync contacts",
        status: "COMPLETED" as const,
      });
      for (let i = 0; i < 1_500; i++) h.emulator.webhooks.emit(payload(i));
      await hook.waitFor(1_500, 50_000);
      while (h.emulator.webhooks.pending > 0) await new Promise((r) => setTimeout(r, 10));
      const log = ok(await h.control.get("/webhooks/deliveries")).deliveries as Delivery[];
      assert.equal(log.length, 1_000);
      assert.ok(log.every((d) => d.state === "delivered"));
      assert.equal(log[0].payload.instance_id, "run-500");
      assert.equal(new Set(hook.received.map((r) => parseWebhookPayload(r.rawBody).instance_id)).size, 1_500);
      const grown = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
      assert.ok(grown < 64, `the heap grew by ${grown.toFixed(1)} MB`);
    });

    it("drops deliveries beyond the queue's bound of 10,000 instead of growing without end", async function () {
      this.timeout(30_000);
      const hook = await receiver(() => "hang");
      await register(hook.url);
      const emitted = [];
      const sample = {
        linked_account_id: "acme",
        instance_id: "i",
        workflow_id: "w",
        config_id: "acme",
        event: "Workflow Errored" as const,
        workflow_name: "n",
        status: "ERRORED" as const,
      };
      // 8 are sent at once, 10,000 wait, the rest are dropped.
      for (let i = 0; i < 10_010; i++) emitted.push(...h.emulator.webhooks.emit(sample));
      assert.deepEqual(
        emitted.slice(-2).map((d) => d.state),
        ["dropped", "dropped"],
      );
      assert.equal(emitted.filter((d) => d.state === "dropped").length, 2);
      // A reset cancels the queue at once.
      ok(await h.control.post("/reset"));
      assert.equal(h.emulator.webhooks.pending <= 8, true);
      assert.deepEqual(ok(await h.control.get("/webhooks/deliveries")).deliveries, []);
    });

    it("refuses a receiver whose URL is not http(s), carries credentials, or names an unknown event", async () => {
      assertError(
        await h.control.post("/webhooks/receivers", { url: "ftp://127.0.0.1/x" }),
        400,
        "VALIDATION_ERROR",
        "must be http or https",
      );
      assertError(
        await h.control.post("/webhooks/receivers", { url: "http://user:pw@127.0.0.1/x" }),
        400,
        "VALIDATION_ERROR",
        "user name or password",
      );
      assertError(
        await h.control.post("/webhooks/receivers", { url: "http://127.0.0.1/x", events: ["started"] }),
        400,
        "VALIDATION_ERROR",
        'unknown webhook event "started"',
      );
      assertError(
        await h.control.post("/webhooks/receivers", { url: "not a url" }),
        400,
        "VALIDATION_ERROR",
        "is not an absolute URL",
      );
      assert.deepEqual(ok(await h.control.get("/webhooks/receivers")).receivers, []);
    });

    it("lists, and unregisters, receivers; a reset forgets the control plane's", async () => {
      const a = await register("http://127.0.0.1:1/a", ["completed", "Workflow Stopped"]);
      assert.deepEqual(a.events, ["Workflow Completed", "Workflow Stopped"]);
      const listed = ok(await h.control.get("/webhooks/receivers"));
      assert.deepEqual(
        { ...listed, receivers: listed.receivers.map((r: { id: string }) => r.id) },
        { receivers: [a.id], timeoutMs: TIMEOUT_MS, backoffMs: BACKOFF_MS, retries: 3 },
      );
      ok(await h.control.delete(`/webhooks/receivers/${a.id}`));
      assertError(await h.control.delete(`/webhooks/receivers/${a.id}`), 404, "RESOURCE_NOT_FOUND");
      await register("http://127.0.0.1:1/b");
      ok(await h.control.post("/reset"));
      assert.deepEqual(ok(await h.control.get("/webhooks/receivers")).receivers, []);
    });
  });

  it("signs with the API key: the exported check refuses another key and a tampered body", async () => {
    const hook = await receiver();
    await register(hook.url);
    await acmeRun("wf_hs_contact_sync");
    const [got] = await hook.waitFor(1);
    const signature = got.headers["x-cobalt-signature"];
    assert.equal(signature, signWebhookBody(got.rawBody, h.emulator.apiKey));
    assert.equal(checkWebhookSignature(got.rawBody, signature, "tk_other").valid, false);
    const tampered = Buffer.from(got.rawBody.toString().replace('"COMPLETED"', '"ERRORED"'));
    const check = checkWebhookSignature(tampered, signature, h.emulator.apiKey);
    assert.deepEqual(check.valid ? check : check.code, "signature_mismatch");
  });
});

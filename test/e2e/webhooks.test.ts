// Workflow runs and webhooks through the real CLI, at the emulator's default (the platform's
// documented) rate limit: a program enables one workflow and disables another; a run of each is
// asked for; only the enabled one runs, and the example receiver (examples/webhook-receiver) gets
// its signed webhook, which the exported check accepts, and refuses a tampered copy; the
// program's audit lookup, on the next `pulumi up`, returns the run's entries.
// The emulator's dashboard is open in Chromium all along (test/support/dashboard.ts): its journal
// shows the first up's requests while the up runs, a fault rule set from the page fails the next
// request (the second up's audit lookup, which the provider retries), the deliveries show their
// attempts, and neither the encrypted env value nor a credential ever reaches the page.
import * as assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createWebhookReceiver } from "../../examples/webhook-receiver/receiver";
import { checkWebhookSignature, type WebhookPayload } from "../../provider/webhooks";
import { Stack } from "../../harness/engine";
import { writeProgram } from "../../harness/program";
import { startReceiver, type TestReceiver } from "../support/receiver";
import { step, useEmulatorStack } from "../../harness/e2e";
import { CRM_API_TOKEN } from "../../harness/tenants";
import { openDashboard, type DashboardPage } from "../support/dashboard";

const PROGRAM = `import * as platform from "pulumi-integration-platform";

const account = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
new platform.WorkflowToggle("deal-alerts", { ...account, workflowId: "wf_hs_deal_alerts", enabled: true });
new platform.WorkflowToggle("contact-sync", { ...account, workflowId: "wf_hs_contact_sync", enabled: false });

// What the platform recorded, newest first: read on every \`pulumi up\`.
export const audit = platform.getAuditEventsOutput({ maxItems: 10 });
`;

describe("e2e: workflow runs reach a webhook receiver only where the program enabled the workflow", function () {
  this.timeout(5 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, writeProgram(workspace.root, "webhooks", { "index.ts": PROGRAM })),
  );
  const events: WebhookPayload[] = [];
  let receiver: Server;
  let receiverUrl: string;
  let recorder: TestReceiver;
  let dashboard: DashboardPage | undefined;

  before(async () => {
    receiver = createWebhookReceiver({ apiKey: e2e.emulator.apiKey, onEvent: (event) => void events.push(event) });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    // A second receiver that records the raw bytes, to check them with the exported function too.
    recorder = await startReceiver(() => 200);
  });
  after(async () => {
    await dashboard?.close();
    await recorder?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const control = (path: string, body?: unknown) =>
    fetch(`${e2e.emulator.url}/_emulator${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const askForRun = (workflowId: string) =>
    control("/workflow-runs", { linked_account_id: "acme", slug: "hubspot", workflow_id: workflowId });

  it("runs the enabled workflow only, delivers its signed webhook, and the audit lookup returns the run", async () => {
    assert.equal(e2e.emulator.rateLimit.get().rateLimit, "20/5", "the emulator enforces the documented limit");
    // The fixture has them the other way round: contact sync enabled, deal alerts disabled.
    assert.equal((await askForRun("wf_hs_deal_alerts")).status, 409);

    await step("the dashboard's journal shows the up's requests while the up runs", async () => {
      dashboard = await openDashboard(e2e.emulator.url);
      await dashboard.open("journal");
      let upEnded = false;
      const up = e2e.stack.ok(["up", "--yes", "--skip-preview"]).finally(() => (upEnded = true));
      // The journal polls every second; the up's first request (its audit lookup) comes seconds before its end.
      const shown = dashboard.page
        .waitForSelector("#journal tbody tr[data-path^='/api/v2/public/']", { timeout: 120_000 })
        .then(() => upEnded);
      shown.catch(() => undefined);
      const endedBeforeShown = await Promise.race([shown, up.then(() => shown)]);
      assert.equal(endedBeforeShown, false, "the page showed a request of the up before the up ended");
      await up;
      const made = e2e.emulator.requests.list().map((entry) => String(entry.seq));
      assert.ok(made.length >= 3, "the lookup and the two toggles");
      for (const seq of made)
        await dashboard.page.locator(`#journal tbody tr[data-seq="${seq}"]`).waitFor({ state: "attached" });
    });
    for (const url of [receiverUrl, recorder.url])
      assert.equal((await control("/webhooks/receivers", { url })).status, 201);

    const started = await step("a run of each is asked for: the disabled one is refused, saying why", async () => {
      const refused = await askForRun("wf_hs_contact_sync");
      assert.equal(refused.status, 409);
      const body = (await refused.json()) as { error: string; message: string };
      assert.equal(body.error, "WORKFLOW_DISABLED");
      assert.match(body.message, /Workflow wf_hs_contact_sync is disabled for config acme of acme: enable it/);
      const accepted = await askForRun("wf_hs_deal_alerts");
      assert.equal(accepted.status, 201);
      return ((await accepted.json()) as { run: { instance_id: string; status: string } }).run;
    });
    assert.equal(started.status, "COMPLETED");

    await step(
      "the dashboard's workspace shows the up's toggles, and only the word for the encrypted value",
      async () => {
        await dashboard!.showAccount("acme");
        const workflow = (id: string) =>
          dashboard!.page.locator(`#account-detail [data-slug=hubspot] li[data-workflow=${id}] .badge`).innerText();
        assert.equal(await workflow("wf_hs_deal_alerts"), "on");
        assert.equal(await workflow("wf_hs_contact_sync"), "off");
        const token = dashboard!.page.locator("#account-detail tr[data-env=CRM_API_TOKEN] td").last();
        assert.equal(await token.innerText(), "encrypted");
      },
    );

    await step("a fault rule set from the page: the next API request is answered 503", () =>
      dashboard!.addStatusFault({ method: "GET", path: "^/api/v2/public/", status: 503, times: 1 }),
    );
    const [rule] = e2e.emulator.faults.list();
    assert.deepEqual(
      [rule.method, rule.path, rule.action, rule.remaining],
      ["GET", "^/api/v2/public/", { status: 503 }, 1],
    );
    const ruleSetAt = e2e.emulator.requests.window({ limit: 0 }).lastSeq;

    await step(
      "the receivers get one webhook each: the example's takes it, the exported check accepts it and refuses a tampered copy",
      async () => {
        const [raw] = await recorder.waitFor(1);
        const deadline = Date.now() + 10_000;
        while (events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.deepEqual(events, [
          {
            linked_account_id: "acme",
            instance_id: started.instance_id,
            workflow_id: "wf_hs_deal_alerts",
            config_id: "acme",
            event: "Workflow Completed",
            workflow_name: "Deal alerts",
            status: "COMPLETED",
          },
        ]);
        const signature = raw.headers["x-cobalt-signature"];
        assert.equal(checkWebhookSignature(raw.rawBody, signature, e2e.emulator.apiKey).valid, true);
        const tampered = Buffer.from(raw.rawBody.toString().replace("wf_hs_deal_alerts", "wf_hs_contact_sync"));
        const check = checkWebhookSignature(tampered, signature, e2e.emulator.apiKey);
        assert.equal(check.valid ? "valid" : check.code, "signature_mismatch");
        // The example receiver refuses the tampered copy with the reason, and takes nothing from it.
        const answer = await fetch(receiverUrl, {
          method: "POST",
          body: tampered,
          headers: { "content-type": "application/json", "x-cobalt-signature": String(signature) },
        });
        assert.equal(answer.status, 401);
        assert.match(await answer.text(), /the signature does not match the body/);
        assert.equal(events.length, 1);
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(recorder.received.length, 1, "one run, one delivery: the refused run sent nothing");
      },
    );

    await step("the dashboard lists both deliveries, each with its attempt", async () => {
      await dashboard!.open("webhooks");
      const delivered = dashboard!.page.locator("#deliveries tbody tr[data-state=delivered]");
      await delivered.nth(1).waitFor();
      assert.equal(await delivered.count(), 2);
      // One attempt each: the recorder answers 200, the example receiver 204.
      assert.deepEqual((await delivered.locator(".attempts li .badge").allInnerTexts()).sort(), ["200", "204"]);
    });

    await step("the next up's audit lookup returns the run's entries, after the page's fault", async () => {
      await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      // The rule answered the up's first request, its audit lookup, which the provider retried.
      const [failed, retried] = e2e.emulator.requests.list(ruleSetAt);
      assert.deepEqual(
        [failed, retried].map((entry) => [entry.path, entry.status, entry.fault ?? null]),
        [
          ["/api/v2/public/audit/event-received", 503, "status"],
          ["/api/v2/public/audit/event-received", 200, null],
        ],
      );
      assert.equal(e2e.emulator.faults.list()[0].remaining, 0);
      await dashboard!.open("journal");
      await dashboard!.page.locator(`#journal tbody tr.fault[data-seq="${failed.seq}"]`).waitFor();
      const output = await e2e.stack.ok(["stack", "output", "audit", "--json"]);
      const audit = JSON.parse(output.stdout) as {
        event_type: string;
        resource_id: string;
        workflow_id: string;
        auth: string;
      }[];
      const ofRun = audit.filter((entry) => entry.resource_id === started.instance_id);
      assert.deepEqual(
        ofRun.map((entry) => [entry.event_type, entry.workflow_id, entry.auth]),
        [
          ["WORKFLOW_RUN_COMPLETED", "wf_hs_deal_alerts", "platform"],
          ["WORKFLOW_RUN_STARTED", "wf_hs_deal_alerts", "platform"],
        ],
      );
      assert.ok(
        !audit.some(
          (entry) => entry.event_type.startsWith("WORKFLOW_RUN") && entry.workflow_id === "wf_hs_contact_sync",
        ),
      );
    });

    await step("destroy", () => e2e.stack.ok(["destroy", "--yes", "--skip-preview"]));

    await step("the rate limit and a reset, from the page", async () => {
      await dashboard!.setRateLimit("10/5");
      assert.equal(e2e.emulator.rateLimit.get().rateLimit, "10/5");
      assert.equal(e2e.emulator.webhooks.deliveries().length, 2);
      await dashboard!.reset();
      assert.deepEqual(e2e.emulator.webhooks.deliveries(), [], "the reset forgot the deliveries");
    });

    await step("no encrypted value and no credential ever reached the page", async () => {
      const secret = e2e.emulator.store.envVariables.valueFor(CRM_API_TOKEN, "acme", null)!.value;
      const html = await dashboard!.page.content();
      const received = await dashboard!.received();
      assert.ok(received.length > 20, `the page's answers were kept (${received.length})`);
      for (const [what, value] of [
        ["the encrypted CRM_API_TOKEN", secret],
        ["the API key", e2e.emulator.apiKey],
        ["the bearer token", e2e.emulator.token],
      ]) {
        assert.ok(!html.includes(value), `${what} is in the page's DOM`);
        assert.ok(!received.some((body) => body.includes(value)), `${what} reached the page`);
      }
    });
  });
});

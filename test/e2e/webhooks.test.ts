// Workflow runs and webhooks through the real CLI, at the emulator's default (the platform's
// documented) rate limit: a program enables one workflow and disables another; a run of each is
// asked for; only the enabled one runs, and the example receiver (examples/webhook-receiver) gets
// its signed webhook, which the exported check accepts, and refuses a tampered copy; the
// program's audit lookup, on the next `pulumi up`, returns the run's entries.
import * as assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createWebhookReceiver } from "../../examples/webhook-receiver/receiver";
import { checkWebhookSignature, type WebhookPayload } from "../../provider/webhooks";
import { Stack } from "../../harness/engine";
import { writeProgram } from "../../harness/program";
import { startReceiver, type TestReceiver } from "../support/receiver";
import { step, useEmulatorStack } from "../../harness/e2e";

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

  before(async () => {
    receiver = createWebhookReceiver({ apiKey: e2e.emulator.apiKey, onEvent: (event) => void events.push(event) });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    // A second receiver that records the raw bytes, to check them with the exported function too.
    recorder = await startReceiver(() => 200);
  });
  after(async () => {
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

    await step("up: one workflow enabled, one disabled", () => e2e.stack.ok(["up", "--yes", "--skip-preview"]));
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

    await step("the next up's audit lookup returns the run's entries", async () => {
      await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
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
  });
});

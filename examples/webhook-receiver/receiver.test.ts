// A receiver's test against the emulator, as a user's CI runs one: the emulator delivers a real,
// signed "Workflow Completed" to the receiver, which must take it; a forged one it must refuse.
// Run with `npx mocha -r ts-node/register receiver.test.ts`.
import { strict as assert } from "node:assert";
import type { AddressInfo } from "node:net";
import { startEmulator, type RunningEmulator } from "pulumi-integration-platform/emulator";
import type { WebhookPayload } from "pulumi-integration-platform/webhooks";
import { createWebhookReceiver } from "./receiver";

describe("the webhook receiver", () => {
  const events: WebhookPayload[] = [];
  const receiver = createWebhookReceiver({ apiKey: "tk_emulator", onEvent: (event) => void events.push(event) });
  let emulator: RunningEmulator;
  let url: string;

  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    // Short retries, so that a failing receiver fails the test fast; deliveries are signed with tk_emulator.
    emulator = await startEmulator({
      quiet: true,
      apiKey: "tk_emulator",
      webhooks: { receivers: [url], backoffMs: 50 },
    });
  });
  after(async () => {
    await emulator.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("takes a signed event from the platform", async () => {
    // The workflow must be enabled for the config, as the deployed WorkflowToggle makes it.
    const config = emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
    emulator.store.configs.workflowState(config, "wf_hs_contact_sync").enabled = true;
    const run = await emulator.runs.start({
      linked_account_id: "acme",
      slug: "hubspot",
      workflow_id: "wf_hs_contact_sync",
      outcome: "completed",
    });
    while (emulator.webhooks.pending > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const [delivery] = run.deliveries.map((id) => emulator.webhooks.delivery(id)!);
    assert.equal(delivery.state, "delivered");
    assert.deepEqual(
      delivery.attempts.map((a) => a.status),
      [204],
    );
    assert.deepEqual(events, [{ ...delivery.payload }]);
  });

  it("refuses a body that was not signed with the key", async () => {
    const body = JSON.stringify({
      linked_account_id: "acme",
      instance_id: "forged",
      workflow_id: "wf",
      config_id: "acme",
      event: "Workflow Completed",
      workflow_name: "x",
      status: "COMPLETED",
    });
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-cobalt-signature": "0".repeat(64) },
    });
    assert.equal(response.status, 401);
    assert.match(await response.text(), /the signature does not match the body/);
    assert.ok(!events.some((e) => e.instance_id === "forged"));
  });
});

import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { assertError, ok, useEmulatorClients } from "../support/emulatorClients";

describe("emulator: PUT|PATCH /slug/:slug/config/:configId/workflows/:workflowId", () => {
  const h = useEmulatorClients();
  const toggle = (method: "put" | "patch", path: string, body: unknown, linkedAccountId?: string) =>
    h.api.request({
      method,
      url: `/slug/${path}`,
      data: body,
      headers: linkedAccountId === undefined ? {} : { linked_account_id: linkedAccountId },
    });
  const enabledIn = (linkedAccountId: string, slug: string, workflowId: string) =>
    h.emulator.store.configs
      .find({ linkedAccountId, slug, configId: linkedAccountId })!
      .workflows.find((w) => w.id === workflowId)?.enabled;

  it("PUT enables a workflow and returns the config's published workflows", async () => {
    const res = ok(await toggle("put", "hubspot/config/acme/workflows/wf_hs_deal_alerts", { enabled: true }, "acme"));
    assert.deepEqual(res, {
      workflows: [
        {
          id: "wf_hs_contact_sync",
          name: "Sync contacts",
          description: "Copies new contacts into the CRM.",
          enabled: true,
        },
        {
          id: "wf_hs_deal_alerts",
          name: "Deal alerts",
          description: "Posts an alert when a deal is won.",
          enabled: true,
        },
      ],
    });
    assert.equal(enabledIn("acme", "hubspot", "wf_hs_deal_alerts"), true);
  });

  it("PATCH disables a workflow", async () => {
    const res = ok(
      await toggle("patch", "hubspot/config/acme/workflows/wf_hs_contact_sync", { enabled: false }, "acme"),
    );
    assert.equal(res.workflows.find((w: { id: string }) => w.id === "wf_hs_contact_sync").enabled, false);
    assert.equal(enabledIn("acme", "hubspot", "wf_hs_contact_sync"), false);
  });

  it("writes WORKFLOW_ENABLED / WORKFLOW_DISABLED on every successful toggle", async () => {
    ok(await toggle("put", "slack/config/globex/workflows/wf_slack_notify", { enabled: true }, "globex"));
    ok(await toggle("put", "slack/config/globex/workflows/wf_slack_notify", { enabled: true }, "globex"));
    ok(await toggle("patch", "slack/config/globex/workflows/wf_slack_notify", { enabled: false }, "globex"));
    const docs = ok(await h.api.get("/audit/event-received")).docs;
    assert.deepEqual(
      docs.map((d: { event_type: string }) => d.event_type),
      ["WORKFLOW_DISABLED", "WORKFLOW_ENABLED", "WORKFLOW_ENABLED"],
    );
    assert.deepEqual(
      { ...docs[0], _id: 0, createdAt: 0 },
      {
        _id: 0,
        event_type: "WORKFLOW_DISABLED",
        linked_account_id: "globex",
        slug: "slack",
        config_id: "globex",
        workflow_id: "wf_slack_notify",
        resource_id: "wf_slack_notify",
        auth: "api_key",
        createdAt: 0,
      },
    );
  });

  it("finds the config without linked_account_id when its id is unique, and asks for it when ambiguous", async () => {
    ok(await toggle("put", "slack/config/initech/workflows/wf_slack_notify", { enabled: true }));
    assert.equal(enabledIn("initech", "slack", "wf_slack_notify"), true);

    for (const account of ["acme", "globex"]) {
      ok(
        await h.api.post(
          "/config",
          { slug: "slack", config_id: "shared" },
          { headers: { linked_account_id: account } },
        ),
      );
    }
    const res = await toggle("put", "slack/config/shared/workflows/wf_slack_notify", { enabled: true });
    assertError(res, 400, "VALIDATION_ERROR", "linked_account_id");
    ok(await toggle("put", "slack/config/shared/workflows/wf_slack_notify", { enabled: true }, "globex"));
    const shared = h.emulator.store.configs.find({ linkedAccountId: "globex", slug: "slack", configId: "shared" })!;
    assert.equal(shared.workflows.find((w) => w.id === "wf_slack_notify")!.enabled, true);
  });

  it("400 naming enabled when it is missing or not a boolean", async () => {
    const path = "hubspot/config/acme/workflows/wf_hs_deal_alerts";
    assertError(
      await toggle("put", path, { enabled: "true" }, "acme"),
      400,
      "VALIDATION_ERROR",
      "enabled: expected boolean, received string",
    );
    assertError(await toggle("patch", path, {}, "acme"), 400, "VALIDATION_ERROR", "enabled: required");
  });

  it("404 'Config with config id <id> not found' for an unknown config, with or without the header", async () => {
    const path = "hubspot/config/nope/workflows/wf_hs_deal_alerts";
    assertError(
      await toggle("put", path, { enabled: true }, "acme"),
      404,
      "RESOURCE_NOT_FOUND",
      "Config with config id nope not found",
    );
    assertError(
      await toggle("put", path, { enabled: true }),
      404,
      "RESOURCE_NOT_FOUND",
      "Config with config id nope not found",
    );
  });

  it("404 'Workflow <id> not found' for an unknown workflow, including another app's", async () => {
    for (const workflowId of ["wf_nope", "wf_slack_notify"]) {
      const res = await toggle("put", `hubspot/config/acme/workflows/${workflowId}`, { enabled: true }, "acme");
      assertError(res, 404, "RESOURCE_NOT_FOUND", `Workflow ${workflowId} not found`);
    }
  });

  it("400 WORKFLOW_NOT_PUBLISHED for a draft workflow, and leaves it untouched", async () => {
    const res = await toggle("patch", "hubspot/config/acme/workflows/wf_hs_lead_scoring", { enabled: true }, "acme");
    assertError(res, 400, "WORKFLOW_NOT_PUBLISHED", "draft");
    assert.equal(enabledIn("acme", "hubspot", "wf_hs_lead_scoring"), false);
    assert.equal(h.emulator.store.state.audit.length, 0);
  });

  it("lets a published draft be toggled once the store publishes it out of band", async () => {
    await h.emulator.store.update(() => {
      h.emulator.store.applications.workflow("wf_hs_lead_scoring")!.workflow.published = true;
    });
    const res = ok(await toggle("put", "hubspot/config/acme/workflows/wf_hs_lead_scoring", { enabled: true }, "acme"));
    assert.deepEqual(
      res.workflows.map((w: { id: string }) => w.id),
      ["wf_hs_contact_sync", "wf_hs_deal_alerts", "wf_hs_lead_scoring"],
    );
  });
});

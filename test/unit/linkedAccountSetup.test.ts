// LinkedAccountSetup hands each entry's settings to its child unchanged, restoreOnDelete
// included: the import's generated programs declare what `pulumi destroy` puts back through it
// (test/unit/import.test.ts). Run against Pulumi's mocks, which record what each child registers.
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { LinkedAccountSetup } from "../../provider/components/linkedAccountSetup";
import { TYPE } from "../../harness/fixture";
import { registrations } from "../support/mocks";

describe("LinkedAccountSetup", () => {
  const config = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };

  it("passes a workflow's restoreOnDelete to its WorkflowToggle, and takes `enabled` alone as before", async () => {
    const registered = await registrations(() => {
      new LinkedAccountSetup("acme-hubspot", {
        linkedAccountId: "acme",
        slug: "hubspot",
        workflows: {
          wf_hs_contact_sync: true,
          wf_hs_deal_alerts: { enabled: true, restoreOnDelete: false },
          wf_hs_lead_scoring: pulumi.output(false),
        },
      });
    });
    const toggles = Object.fromEntries(
      registered.filter((r) => r.type === TYPE("WorkflowToggle")).map((r) => [r.name, r.inputs]),
    );
    assert.deepEqual(toggles, {
      "acme-hubspot/workflow/wf_hs_contact_sync": { ...config, workflowId: "wf_hs_contact_sync", enabled: true },
      "acme-hubspot/workflow/wf_hs_deal_alerts": {
        ...config,
        workflowId: "wf_hs_deal_alerts",
        enabled: true,
        restoreOnDelete: false,
      },
      "acme-hubspot/workflow/wf_hs_lead_scoring": { ...config, workflowId: "wf_hs_lead_scoring", enabled: false },
    });
  });

  it("passes a field's restoreOnDelete to its ConfigField", async () => {
    const registered = await registrations(() => {
      new LinkedAccountSetup("acme-hubspot", {
        linkedAccountId: "acme",
        slug: "hubspot",
        fields: [{ fieldId: "hs_pipeline", name: "Deals pipeline", restoreOnDelete: { name: "Sales pipeline" } }],
      });
    });
    const fields = registered.filter((r) => r.type === TYPE("ConfigField"));
    assert.deepEqual(
      fields.map((r) => [r.name, r.inputs]),
      [
        [
          "acme-hubspot/field/hs_pipeline",
          { ...config, fieldId: "hs_pipeline", name: "Deals pipeline", restoreOnDelete: { name: "Sales pipeline" } },
        ],
      ],
    );
  });
});

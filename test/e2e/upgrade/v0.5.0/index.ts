// Quickstart: one end user's setup, declared once with every resource of the package.
// Run it against the local emulator or your platform: see README.md beside this file.
import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-integration-platform";

const config = new pulumi.Config();
// The linked account (end user) to set up, and its HubSpot config (named after it by default).
const linkedAccountId = config.get("linkedAccountId") ?? "globex";
const configId = config.get("configId") ?? linkedAccountId;
const hubspot = { slug: "hubspot", linkedAccountId, configId };

// A global field of the app: its display name and the choices of a select field.
const pipeline = new platform.ConfigField("pipeline", {
  ...hubspot,
  fieldId: "hs_pipeline",
  name: "Sales pipeline",
  options: [
    { name: "Sales", value: "sales" },
    { name: "Partners", value: "partners" },
  ],
});

// A field that belongs to a workflow: it sits in workflows[{id, fields}].
new platform.ConfigField("contact-owner", {
  ...hubspot,
  workflowId: "wf_hs_contact_sync",
  fieldId: "hs_contact_owner",
  labels: [{ name: "team", value: "sales" }],
});

// Turn the contact sync on for this end user.
const contactSync = new platform.WorkflowToggle("contact-sync", {
  ...hubspot,
  workflowId: "wf_hs_contact_sync",
  enabled: config.getBoolean("contactSyncEnabled") ?? true,
});

// The response structure of the deal.won event. The API cannot read an event back, so what
// `pulumi destroy` restores is declared here.
const dealWon = new platform.ApplicationEvent("deal-won", {
  eventId: "64f0000000000000000000e2",
  name: "deal.won",
  response: { deal: { id: "d_1", amount: 1200, currency: "EUR" }, owner: "ada" },
  restoreOnDelete: { name: "deal.won", response: { deal: { id: "d_1", amount: 1200 }, owner: "ada" } },
});

// Env variable values: a linked-account value, an encrypted one, and a workflow one.
new platform.EnvVariableValue("account-quota", {
  definitionId: "64f0000000000000000000d6", // ACCOUNT_QUOTA, scope linked_account, format number
  linkedAccountId,
  // Read as a secret: every stack config value is copied into the state, in plaintext unless it is a secret.
  value: config.getSecret("accountQuota") ?? "250",
});
new platform.EnvVariableValue("crm-token", {
  definitionId: "64f0000000000000000000d4", // CRM_API_TOKEN, encrypted
  linkedAccountId,
  value: config.getSecret("crmToken") ?? pulumi.secret("demo-crm-token"),
});
new platform.EnvVariableValue("slack-webhook", {
  definitionId: "64f0000000000000000000d7", // WEBHOOK_URL, scope workflow, format url
  workflowId: config.get("webhookWorkflowId") ?? "wf_slack_notify",
  value: "https://hooks.example.com/slack/notify",
});

export const pipelineFieldType = pipeline.field.apply((f) => f.fieldType);
export const contactSyncEnabled = contactSync.enabled;
export const dealWonKeys = dealWon.declaredKeys.apply((keys) => keys.map((k) => k.key));

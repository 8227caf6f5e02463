"""Quickstart in Python: one end user's setup, declared with every resource of the native provider."""
import pulumi
import pulumi_integration_platform as platform

config = pulumi.Config()
# The linked account (end user) to set up, and its HubSpot config (named after it by default).
linked_account_id = config.get("linkedAccountId") or "globex"
hubspot = {"slug": "hubspot", "linked_account_id": linked_account_id, "config_id": linked_account_id}

# A global field of the app: its display name and the choices of a select field.
pipeline = platform.ConfigField(
    "pipeline",
    field_id=config.get("pipelineFieldId") or "hs_pipeline",
    name="Sales pipeline",
    options=[{"name": "Sales", "value": "sales"}, {"name": "Partners", "value": "partners"}],
    **hubspot,
)

# A field that belongs to a workflow: it sits in workflows[{id, fields}].
platform.ConfigField(
    "contact-owner",
    workflow_id="wf_hs_contact_sync",
    field_id="hs_contact_owner",
    labels=[{"name": "team", "value": "sales"}],
    **hubspot,
)

# Turn the contact sync on for this end user.
contact_sync = platform.WorkflowToggle("contact-sync", workflow_id="wf_hs_contact_sync", enabled=True, **hubspot)

# The response structure of the deal.won event. The API cannot read an event back, so what
# `pulumi destroy` restores is declared here.
platform.ApplicationEvent(
    "deal-won",
    event_id="64f0000000000000000000e2",
    name="deal.won",
    response={"deal": {"id": "d_1", "amount": 1200, "currency": "EUR"}, "owner": "ada"},
    restore_on_delete={"name": "deal.won", "response": {"deal": {"id": "d_1", "amount": 1200}, "owner": "ada"}},
)

# Env variable values: a linked-account value, an encrypted one, and a workflow one. Read the
# values as secrets: every stack config value is copied into the state.
platform.EnvVariableValue(
    "account-quota",
    definition_id="64f0000000000000000000d6",  # ACCOUNT_QUOTA, scope linked_account, format number
    linked_account_id=linked_account_id,
    value=config.get_secret("accountQuota") or "250",
)
platform.EnvVariableValue(
    "crm-token",
    definition_id="64f0000000000000000000d4",  # CRM_API_TOKEN, encrypted
    linked_account_id=linked_account_id,
    value=config.get_secret("crmToken") or pulumi.Output.secret("demo-crm-token"),
)
platform.EnvVariableValue(
    "slack-webhook",
    definition_id="64f0000000000000000000d7",  # WEBHOOK_URL, scope workflow, format url
    workflow_id="wf_slack_notify",
    value="https://hooks.example.com/slack/notify",
)

pulumi.export("pipelineFieldType", pipeline.field.field_type)
pulumi.export("contactSyncEnabled", contact_sync.enabled)

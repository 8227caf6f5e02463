"""A Python stack of the native provider, recorded by scripts/record-upgrade.ts --language python.

Every resource, a lookup and LinkedAccountSetup, so that the upgrade test previews each kind of
state the plugin writes. Keep it to what every recorded release supports.
"""
import pulumi
import pulumi_integration_platform as platform

config = pulumi.Config()
hubspot = {"slug": "hubspot", "linked_account_id": "globex", "config_id": "globex"}

pipeline = platform.ConfigField(
    "pipeline",
    field_id="hs_pipeline",
    name="Sales pipeline",
    options=[{"name": "Sales", "value": "sales"}, {"name": "Partners", "value": "partners"}],
    **hubspot,
)
platform.ConfigField(
    "contact-owner",
    workflow_id="wf_hs_contact_sync",
    field_id="hs_contact_owner",
    labels=[{"name": "team", "value": "sales"}],
    **hubspot,
)
platform.WorkflowToggle("contact-sync", workflow_id="wf_hs_contact_sync", enabled=True, **hubspot)
platform.ApplicationEvent(
    "deal-won",
    event_id="64f0000000000000000000e2",
    name="deal.won",
    response={"deal": {"id": "d_1", "amount": 1200, "currency": "EUR"}, "owner": "ada"},
    restore_on_delete={"name": "deal.won", "response": {"deal": {"id": "d_1", "amount": 1200}, "owner": "ada"}},
)
platform.EnvVariableValue(
    "account-quota",
    definition_id="64f0000000000000000000d6",
    linked_account_id="globex",
    value=config.require_secret("accountQuota"),
)
platform.EnvVariableValue(
    "crm-token",
    definition_id="64f0000000000000000000d4",
    linked_account_id="globex",
    value=config.require_secret("crmToken"),
)

# The component the plugin constructs, with its children.
platform.LinkedAccountSetup(
    "acme-hubspot",
    linked_account_id="acme",
    slug="hubspot",
    fields=[platform.SetupFieldArgs(field_id="hs_pipeline", name="Deals pipeline")],
    workflows={"wf_hs_deal_alerts": platform.SetupWorkflowArgs(enabled=True)},
    env_values=[platform.SetupEnvValueArgs(definition_id="64f0000000000000000000d5", value=config.require_secret("tier"))],
)

# Lookups: read at every preview, written nowhere.
pulumi.export("linkedAccounts", [a.account_id for a in platform.get_linked_accounts().linked_accounts])
pulumi.export("quotaDefinition", platform.get_env_definition(definition_id="64f0000000000000000000d6").name)
pulumi.export("pipelineFieldType", pipeline.field.field_type)

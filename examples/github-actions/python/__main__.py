"""The integration platform setup that pulumi.yml previews in pull requests and deploys on merge."""
import pulumi_integration_platform as platform

# One end user (a linked account) and its config of the HubSpot app. Each resource's name starts
# with the account's, so the change summary in a pull request lists it under that account.
globex = {"slug": "hubspot", "linked_account_id": "globex", "config_id": "globex"}

# A field global to the app: its display name.
platform.ConfigField("globex-pipeline", field_id="hs_pipeline", name="Sales pipeline", **globex)

# Turn the contact sync on for this end user.
platform.WorkflowToggle("globex-contact-sync", workflow_id="wf_hs_contact_sync", enabled=True, **globex)

# The account's quota, an env variable value (definition ACCOUNT_QUOTA, scope linked_account,
# format number). The provider stores it as a secret: the summary says it changes, never to what.
platform.EnvVariableValue(
    "globex-quota",
    definition_id="64f0000000000000000000d6",
    linked_account_id="globex",
    value="250",
)

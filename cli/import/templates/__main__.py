# The code of the __main__.py that `import --language python` writes, as a program Python checks
# (test/unit/importLanguages.test.ts compiles it and runs it on stand-ins of the SDK): renderPython
# (cli/import/languages.ts) copies what follows `##begin`, writes the data in place of each `##data`
# block's stand-ins, and leaves out an `##if` block whose condition the plan does not meet.
import json
import os

import pulumi
import pulumi_integration_platform as platform

##begin
##if secrets
config = pulumi.Config()


def secret(key):
    """An encrypted env value: the platform never shows it, so it comes from this stack's secret config (README.md)."""
    return config.require_secret(key)


##end
##if env
# The env variable definitions the values below use, by name.
DEFINITIONS = {
    ##data definitions
    "API_TOKEN": {"id": "64f0000000000000000000d4", "encrypted": True},
    ##end
}

##end
# One linked account's setup of one app, in its config named after the account: the fields whose
# name, options or labels differ from the app's own or that hold a value, the workflows enabled (the others are not
# managed), the account's own env values and its env values of this app's workflows, by workflow id.
SETUPS = [
    ##data setups
    {"linked_account_id": "acme", "slug": "hubspot", "workflows": ["wf_sync"], "env": {"API_TOKEN": secret("API_TOKEN-acme")}},
    ##end
]

##if env
# Env values of the org, the workspace, and workflows for every linked account: (definition, value, workflow id).
SHARED_ENV_VALUES = [
    ##data shared
    ("API_TOKEN", secret("API_TOKEN"), "wf_sync"),
    ##end
]

##end

def line_key(linked_account_id, slug):
    """A data line's key among found.json's records: its linked account and app."""
    return json.dumps([linked_account_id, slug])


# What the import found, frozen in found.json apart from the data above: `pulumi destroy`, or
# removing a line, a field or a workflow, puts it back however the data was changed since
# (README.md). Declaring it writes nothing.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "found.json"), encoding="utf-8") as file:
    FOUND = {line_key(was["linkedAccountId"], was["slug"]): was for was in json.load(file)}

# A field's properties that restoreOnDelete can hold (the same keys in the data and in found.json).
FIELD_VALUES = ("name", "options", "labels", "value")


def restore_field(field, was):
    """A field's restoreOnDelete: the value found of each of name, options, labels and value that it declares.

    None when it declares one that was not found (declared since): ConfigField then puts back what it
    recorded when it took each over.
    """
    then = next(
        (
            f
            for f in ((was or {}).get("fields") or [])
            if f["fieldId"] == field["field_id"] and f.get("workflowId") == field.get("workflow_id")
        ),
        None,
    )
    declared = [key for key in FIELD_VALUES if field.get(key) is not None]
    if then is None or any(then.get(key) is None for key in declared):
        return None
    return platform.ConfigFieldValuesArgs(**{key: then[key] for key in declared})


def restore_workflow(workflow_id, was):
    """A workflow's restoreOnDelete: whether it was found enabled; None for one its config did not list."""
    return was["workflows"].get(workflow_id) if was else None


##if env
def env_values(values, was, workflow_id=None):
    """Env values as LinkedAccountSetup takes them.

    Those the import found are kept on the platform by `pulumi destroy` (retain_on_delete), since
    end users' running workflows read them; an encrypted one is taken over as the platform holds it
    (adopt_encrypted_value: README.md). One the import did not find (added to the data since)
    declares no_value_before: destroy deletes it.
    """
    declared = []
    for name, value in (values or {}).items():
        definition = DEFINITIONS[name]
        key = f"{definition['id']}/{workflow_id}" if workflow_id else definition["id"]
        if was and was.get("env") is not None and key not in was["env"]:
            flags = {"no_value_before": True}
        else:
            flags = {"adopt_encrypted_value": definition["encrypted"], "retain_on_delete": True}
        declared.append(
            platform.SetupEnvValueArgs(definition_id=definition["id"], workflow_id=workflow_id, value=value, **flags)
        )
    return declared


##end
for setup in SETUPS:
    was = FOUND.get(line_key(setup["linked_account_id"], setup["slug"]))
    platform.LinkedAccountSetup(
        f"{setup['linked_account_id']}-{setup['slug']}",
        linked_account_id=setup["linked_account_id"],
        slug=setup["slug"],
        # What destroy puts back comes from found.json, not from the data.
        fields=[
            platform.SetupFieldArgs(
                field_id=field["field_id"],
                workflow_id=field.get("workflow_id"),
                name=field.get("name"),
                options=field.get("options"),
                labels=field.get("labels"),
                value=field.get("value"),
                restore_on_delete=restore_field(field, was),
            )
            for field in setup.get("fields", [])
        ],
        workflows={
            workflow_id: platform.SetupWorkflowArgs(enabled=True, restore_on_delete=restore_workflow(workflow_id, was))
            for workflow_id in setup.get("workflows", [])
        },
        ##if env
        env_values=[
            *env_values(setup.get("env"), was),
            *(
                value
                for workflow_id, values in setup.get("workflow_env", {}).items()
                for value in env_values(values, was, workflow_id)
            ),
        ],
        ##end
    )
##if env

for name, value, *workflow in SHARED_ENV_VALUES:
    definition = DEFINITIONS[name]
    workflow_id = workflow[0] if workflow else None
    platform.EnvVariableValue(
        f"env/{name}/{workflow_id}" if workflow_id else f"env/{name}",
        definition_id=definition["id"],
        workflow_id=workflow_id,
        value=value,
        adopt_encrypted_value=definition["encrypted"],
        opts=pulumi.ResourceOptions(retain_on_delete=True),
    )
##end

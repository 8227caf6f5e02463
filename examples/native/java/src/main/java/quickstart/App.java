// Quickstart in Java: one end user's setup, declared with every resource of the native provider.
package quickstart;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import io.github.pulumiintegrationplatform.integrationplatform.ApplicationEvent;
import io.github.pulumiintegrationplatform.integrationplatform.ApplicationEventArgs;
import io.github.pulumiintegrationplatform.integrationplatform.ConfigField;
import io.github.pulumiintegrationplatform.integrationplatform.ConfigFieldArgs;
import io.github.pulumiintegrationplatform.integrationplatform.EnvVariableValue;
import io.github.pulumiintegrationplatform.integrationplatform.EnvVariableValueArgs;
import io.github.pulumiintegrationplatform.integrationplatform.WorkflowToggle;
import io.github.pulumiintegrationplatform.integrationplatform.WorkflowToggleArgs;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.EventDefinitionArgs;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.NameValueArgs;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        // The linked account (end user) to set up, and its HubSpot config (named after it by default).
        var linkedAccountId = config.get("linkedAccountId").orElse("globex");

        // A global field of the app: its display name and the choices of a select field.
        var pipeline = new ConfigField("pipeline", ConfigFieldArgs.builder()
            .slug("hubspot").linkedAccountId(linkedAccountId).configId(linkedAccountId)
            .fieldId(config.get("pipelineFieldId").orElse("hs_pipeline"))
            .name("Sales pipeline")
            .options(
                NameValueArgs.builder().name("Sales").value("sales").build(),
                NameValueArgs.builder().name("Partners").value("partners").build())
            .build());

        // A field that belongs to a workflow: it sits in workflows[{id, fields}].
        new ConfigField("contact-owner", ConfigFieldArgs.builder()
            .slug("hubspot").linkedAccountId(linkedAccountId).configId(linkedAccountId)
            .workflowId("wf_hs_contact_sync")
            .fieldId("hs_contact_owner")
            .labels(NameValueArgs.builder().name("team").value("sales").build())
            .build());

        // Turn the contact sync on for this end user.
        var contactSync = new WorkflowToggle("contact-sync", WorkflowToggleArgs.builder()
            .slug("hubspot").linkedAccountId(linkedAccountId).configId(linkedAccountId)
            .workflowId("wf_hs_contact_sync")
            .enabled(true)
            .build());

        // The response structure of the deal.won event. The API cannot read an event back, so what
        // `pulumi destroy` restores is declared here.
        new ApplicationEvent("deal-won", ApplicationEventArgs.builder()
            .eventId("64f0000000000000000000e2")
            .name("deal.won")
            .response(Map.of("deal", Map.of("id", "d_1", "amount", 1200, "currency", "EUR"), "owner", "ada"))
            .restoreOnDelete(EventDefinitionArgs.builder()
                .name("deal.won")
                .response(Map.of("deal", Map.of("id", "d_1", "amount", 1200), "owner", "ada"))
                .build())
            .build());

        // Env variable values: a linked-account value, an encrypted one, and a workflow one. Read the
        // values as secrets: every stack config value is copied into the state.
        new EnvVariableValue("account-quota", EnvVariableValueArgs.builder()
            .definitionId("64f0000000000000000000d6") // ACCOUNT_QUOTA, scope linked_account, format number
            .linkedAccountId(linkedAccountId)
            .value(config.getSecret("accountQuota").applyValue(quota -> quota.orElse("250")))
            .build());
        new EnvVariableValue("crm-token", EnvVariableValueArgs.builder()
            .definitionId("64f0000000000000000000d4") // CRM_API_TOKEN, encrypted
            .linkedAccountId(linkedAccountId)
            .value(config.getSecret("crmToken").applyValue(token -> token.orElse("demo-crm-token")))
            .build());
        new EnvVariableValue("slack-webhook", EnvVariableValueArgs.builder()
            .definitionId("64f0000000000000000000d7") // WEBHOOK_URL, scope workflow, format url
            .workflowId("wf_slack_notify")
            .value("https://hooks.example.com/slack/notify")
            .build());

        ctx.export("pipelineFieldType", pipeline.field().applyValue(field -> field.fieldType()));
        ctx.export("contactSyncEnabled", contactSync.enabled());
    }
}

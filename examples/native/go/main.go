// Quickstart in Go: one end user's setup, declared with every resource of the native provider.
package main

import (
	ip "github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go/integrationplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		// The linked account (end user) to set up, and its HubSpot config (named after it by default).
		linkedAccountId := cfg.Get("linkedAccountId")
		if linkedAccountId == "" {
			linkedAccountId = "globex"
		}
		pipelineFieldId := cfg.Get("pipelineFieldId")
		if pipelineFieldId == "" {
			pipelineFieldId = "hs_pipeline"
		}
		slug, account, configId := pulumi.String("hubspot"), pulumi.String(linkedAccountId), pulumi.String(linkedAccountId)

		// A global field of the app: its display name and the choices of a select field.
		pipeline, err := ip.NewConfigField(ctx, "pipeline", &ip.ConfigFieldArgs{
			Slug: slug, LinkedAccountId: account, ConfigId: configId,
			FieldId: pulumi.String(pipelineFieldId),
			Name:    pulumi.String("Sales pipeline"),
			Options: ip.NameValueArray{
				ip.NameValueArgs{Name: pulumi.String("Sales"), Value: pulumi.String("sales")},
				ip.NameValueArgs{Name: pulumi.String("Partners"), Value: pulumi.String("partners")},
			},
		})
		if err != nil {
			return err
		}

		// A field that belongs to a workflow: it sits in workflows[{id, fields}].
		if _, err := ip.NewConfigField(ctx, "contact-owner", &ip.ConfigFieldArgs{
			Slug: slug, LinkedAccountId: account, ConfigId: configId,
			WorkflowId: pulumi.String("wf_hs_contact_sync"),
			FieldId:    pulumi.String("hs_contact_owner"),
			Labels:     ip.NameValueArray{ip.NameValueArgs{Name: pulumi.String("team"), Value: pulumi.String("sales")}},
		}); err != nil {
			return err
		}

		// Turn the contact sync on for this end user.
		contactSync, err := ip.NewWorkflowToggle(ctx, "contact-sync", &ip.WorkflowToggleArgs{
			Slug: slug, LinkedAccountId: account, ConfigId: configId,
			WorkflowId: pulumi.String("wf_hs_contact_sync"),
			Enabled:    pulumi.Bool(true),
		})
		if err != nil {
			return err
		}

		// The response structure of the deal.won event. The API cannot read an event back, so
		// what `pulumi destroy` restores is declared here.
		if _, err := ip.NewApplicationEvent(ctx, "deal-won", &ip.ApplicationEventArgs{
			EventId:  pulumi.String("64f0000000000000000000e2"),
			Name:     pulumi.String("deal.won"),
			Response: pulumi.Map{"deal": pulumi.Map{"id": pulumi.String("d_1"), "amount": pulumi.Int(1200), "currency": pulumi.String("EUR")}, "owner": pulumi.String("ada")},
			RestoreOnDelete: ip.EventDefinitionArgs{
				Name:     pulumi.String("deal.won"),
				Response: pulumi.Map{"deal": pulumi.Map{"id": pulumi.String("d_1"), "amount": pulumi.Int(1200)}, "owner": pulumi.String("ada")},
			},
		}); err != nil {
			return err
		}

		// Env variable values: a linked-account value, an encrypted one, and a workflow one. Read
		// the values as secrets: every stack config value is copied into the state.
		quota := secretOr(cfg, "accountQuota", "250")
		crmToken := secretOr(cfg, "crmToken", "demo-crm-token")
		values := []struct {
			name string
			args *ip.EnvVariableValueArgs
		}{
			// ACCOUNT_QUOTA, scope linked_account, format number
			{"account-quota", &ip.EnvVariableValueArgs{DefinitionId: pulumi.String("64f0000000000000000000d6"), LinkedAccountId: account, Value: quota}},
			// CRM_API_TOKEN, encrypted
			{"crm-token", &ip.EnvVariableValueArgs{DefinitionId: pulumi.String("64f0000000000000000000d4"), LinkedAccountId: account, Value: crmToken}},
			// WEBHOOK_URL, scope workflow, format url
			{"slack-webhook", &ip.EnvVariableValueArgs{DefinitionId: pulumi.String("64f0000000000000000000d7"), WorkflowId: pulumi.String("wf_slack_notify"), Value: pulumi.String("https://hooks.example.com/slack/notify")}},
		}
		for _, v := range values {
			if _, err := ip.NewEnvVariableValue(ctx, v.name, v.args); err != nil {
				return err
			}
		}

		ctx.Export("pipelineFieldType", pipeline.Field.FieldType())
		ctx.Export("contactSyncEnabled", contactSync.Enabled)
		return nil
	})
}

// secretOr reads a config value as a secret, or makes `fallback` one when it is not set.
func secretOr(cfg *config.Config, key, fallback string) pulumi.StringOutput {
	if value, err := cfg.TrySecret(key); err == nil {
		return value
	}
	return pulumi.ToSecret(pulumi.String(fallback)).(pulumi.StringOutput)
}

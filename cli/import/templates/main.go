// The code of the main.go that `import --language go` writes, as a program the Go compiler checks
// against the SDK (test/unit/importLanguages.test.ts runs `go vet` on it): renderGo (cli/import/go.ts)
// copies what follows `//#begin`, writes the data in place of each `//#data` block's stand-ins, and
// leaves out an `//#if` block whose condition the plan does not meet.
//#begin
package main

import (
	"encoding/json"
	"fmt"
	"os"

	ip "github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go/integrationplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

//#if env
// definitions are the env variable definitions the values below use, by name.
var definitions = map[string]definition{
	//#data definitions
	"API_TOKEN": {ID: "64f0000000000000000000d4", Encrypted: true},
	//#end
}

//#end
// setups are one linked account's setup of one app each, in its config named after the account: the
// fields whose name, options or labels differ from the app's own or that hold a value, the workflows enabled (the others
// are not managed), the account's own env values and its env values of this app's workflows.
var setups = []setup{
	//#data setups
	{LinkedAccountID: "acme", Slug: "hubspot", Workflows: []string{"wf_sync"}, Env: []env{{"API_TOKEN", secret("API_TOKEN-acme")}}},
	//#end
}

//#if env
// sharedEnvValues are the env values of the org, the workspace, and workflows for every linked account.
var sharedEnvValues = []shared{
	//#data shared
	{"API_TOKEN", secret("API_TOKEN"), "wf_sync"},
	//#end
}

//#end
type definition struct {
	ID        string
	Encrypted bool
}

type nameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// field is a field as a data line declares it, and as found.json holds what was found of it.
type field struct {
	FieldID    string       `json:"fieldId"`
	WorkflowID *string      `json:"workflowId,omitempty"`
	Name       *string      `json:"name,omitempty"`
	Options    *[]nameValue `json:"options,omitempty"`
	Labels     *[]nameValue `json:"labels,omitempty"`
	// Value is the field's value: a string, a number (float64) or a map of strings; nil for none.
	Value interface{} `json:"value,omitempty"`
}

// value is an env value: its text, or the stack config key of an encrypted one.
type value struct {
	text, secretKey string
}

type env struct {
	Definition string
	Value      value
}

type workflowEnv struct {
	WorkflowID string
	Env        []env
}

type setup struct {
	LinkedAccountID string
	Slug            string
	Fields          []field
	Workflows       []string
	Env             []env
	WorkflowEnv     []workflowEnv
}

type shared struct {
	Definition string
	Value      value
	WorkflowID string
}

// found is what the import found in one data line's config: found.json holds one per line.
type found struct {
	LinkedAccountID string          `json:"linkedAccountId"`
	Slug            string          `json:"slug"`
	Fields          []field         `json:"fields"`
	Workflows       map[string]bool `json:"workflows"`
	Env             *[]string       `json:"env"`
}

func str(s string) *string { return &s }

// list is options or labels as declared: none given is an empty list, which clears them.
func list(items ...nameValue) *[]nameValue {
	if items == nil {
		items = []nameValue{}
	}
	return &items
}

func text(s string) value { return value{text: s} }

// secret is an encrypted env value: the platform never shows it, so it comes from this stack's
// secret config (README.md).
func secret(key string) value { return value{secretKey: key} }

func (v value) input(ctx *pulumi.Context) pulumi.StringInput {
	if v.secretKey != "" {
		return config.RequireSecret(ctx, v.secretKey)
	}
	return pulumi.String(v.text)
}

func lineKey(linkedAccountID, slug string) string {
	key, _ := json.Marshal([]string{linkedAccountID, slug})
	return string(key)
}

// readFound reads what the import found, frozen in found.json apart from the data above: `pulumi
// destroy`, or removing a line, a field or a workflow, puts it back however the data was changed
// since (README.md). Declaring it writes nothing.
func readFound() (map[string]found, error) {
	data, err := os.ReadFile("found.json")
	if err != nil {
		return nil, err
	}
	var records []found
	if err := json.Unmarshal(data, &records); err != nil {
		return nil, fmt.Errorf("found.json: %w", err)
	}
	byLine := map[string]found{}
	for _, record := range records {
		byLine[lineKey(record.LinkedAccountID, record.Slug)] = record
	}
	return byLine, nil
}

func nameValues(items *[]nameValue) ip.NameValueArrayInput {
	if items == nil {
		return nil
	}
	array := ip.NameValueArray{}
	for _, item := range *items {
		array = append(array, ip.NameValueArgs{Name: pulumi.String(item.Name), Value: pulumi.String(item.Value)})
	}
	return array
}

// anyValue is a field's value as an input, nil for none.
func anyValue(v interface{}) pulumi.Input {
	if v == nil {
		return nil
	}
	return pulumi.Any(v)
}

func stringPtr(s *string) pulumi.StringPtrInput {
	if s == nil {
		return nil
	}
	return pulumi.String(*s)
}

// restoreField is a field's restoreOnDelete: the value found of each of name, options, labels and
// value that it declares. None when it declares one that was not found (declared since): ConfigField then puts
// back what it recorded when it took each over.
func restoreField(f field, was *found) ip.ConfigFieldValuesPtrInput {
	if was == nil {
		return nil
	}
	for _, then := range was.Fields {
		if then.FieldID != f.FieldID || (then.WorkflowID == nil) != (f.WorkflowID == nil) ||
			(then.WorkflowID != nil && *then.WorkflowID != *f.WorkflowID) {
			continue
		}
		if (f.Name != nil && then.Name == nil) || (f.Options != nil && then.Options == nil) ||
			(f.Labels != nil && then.Labels == nil) || (f.Value != nil && then.Value == nil) {
			return nil
		}
		restore := ip.ConfigFieldValuesArgs{}
		if f.Name != nil {
			restore.Name = pulumi.String(*then.Name)
		}
		if f.Options != nil {
			restore.Options = nameValues(then.Options)
		}
		if f.Labels != nil {
			restore.Labels = nameValues(then.Labels)
		}
		if f.Value != nil {
			restore.Value = anyValue(then.Value)
		}
		return restore
	}
	return nil
}

// restoreWorkflow is a workflow's restoreOnDelete: whether it was found enabled; none for one its
// config did not list.
func restoreWorkflow(workflowID string, was *found) pulumi.BoolPtrInput {
	if was == nil {
		return nil
	}
	if enabled, ok := was.Workflows[workflowID]; ok {
		return pulumi.Bool(enabled)
	}
	return nil
}

//#if env
// envValues are env values as LinkedAccountSetup takes them. Those the import found are kept on the
// platform by `pulumi destroy` (RetainOnDelete), since end users' running workflows read them; an
// encrypted one is taken over as the platform holds it (AdoptEncryptedValue: README.md). One the
// import did not find (added to the data since) declares NoValueBefore: destroy deletes it.
func envValues(ctx *pulumi.Context, values []env, was *found, workflowID string) ip.SetupEnvValueArray {
	declared := ip.SetupEnvValueArray{}
	for _, v := range values {
		d := definitions[v.Definition]
		key := d.ID
		var workflow pulumi.StringPtrInput
		if workflowID != "" {
			key, workflow = d.ID+"/"+workflowID, pulumi.String(workflowID)
		}
		args := ip.SetupEnvValueArgs{DefinitionId: pulumi.String(d.ID), WorkflowId: workflow, Value: v.Value.input(ctx)}
		if was != nil && was.Env != nil && !contains(*was.Env, key) {
			args.NoValueBefore = pulumi.Bool(true)
		} else {
			args.AdoptEncryptedValue, args.RetainOnDelete = pulumi.Bool(d.Encrypted), pulumi.Bool(true)
		}
		declared = append(declared, args)
	}
	return declared
}

func contains(items []string, item string) bool {
	for _, i := range items {
		if i == item {
			return true
		}
	}
	return false
}

//#end
func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		byLine, err := readFound()
		if err != nil {
			return err
		}
		for _, s := range setups {
			var was *found
			if record, ok := byLine[lineKey(s.LinkedAccountID, s.Slug)]; ok {
				was = &record
			}
			// What destroy puts back comes from found.json, not from the data.
			fields := ip.SetupFieldArray{}
			for _, f := range s.Fields {
				fields = append(fields, ip.SetupFieldArgs{
					FieldId: pulumi.String(f.FieldID), WorkflowId: stringPtr(f.WorkflowID), Name: stringPtr(f.Name),
					Options: nameValues(f.Options), Labels: nameValues(f.Labels), Value: anyValue(f.Value),
					RestoreOnDelete: restoreField(f, was),
				})
			}
			workflows := ip.SetupWorkflowMap{}
			for _, workflowID := range s.Workflows {
				workflows[workflowID] = ip.SetupWorkflowArgs{
					Enabled: pulumi.Bool(true), RestoreOnDelete: restoreWorkflow(workflowID, was),
				}
			}
			args := &ip.LinkedAccountSetupArgs{
				LinkedAccountId: pulumi.String(s.LinkedAccountID), Slug: pulumi.String(s.Slug),
				Fields: fields, Workflows: workflows,
			}
			//#if env
			values := envValues(ctx, s.Env, was, "")
			for _, w := range s.WorkflowEnv {
				values = append(values, envValues(ctx, w.Env, was, w.WorkflowID)...)
			}
			args.EnvValues = values
			//#end
			if _, err := ip.NewLinkedAccountSetup(ctx, s.LinkedAccountID+"-"+s.Slug, args); err != nil {
				return err
			}
		}
		//#if env
		for _, v := range sharedEnvValues {
			d := definitions[v.Definition]
			name := "env/" + v.Definition
			var workflow pulumi.StringPtrInput
			if v.WorkflowID != "" {
				name, workflow = name+"/"+v.WorkflowID, pulumi.String(v.WorkflowID)
			}
			if _, err := ip.NewEnvVariableValue(ctx, name, &ip.EnvVariableValueArgs{
				DefinitionId: pulumi.String(d.ID), WorkflowId: workflow, Value: v.Value.input(ctx),
				AdoptEncryptedValue: pulumi.Bool(d.Encrypted),
			}, pulumi.RetainOnDelete(true)); err != nil {
				return err
			}
		}
		//#end
		return nil
	})
}

// The code of the index.ts that `import` writes, as a program the compiler checks: renderProgram
// (program.ts) copies what follows `//#begin`, writes the data in place of each `//#data` block's
// stand-ins, and leaves out an `//#if` block whose condition the plan does not meet. It is never
// loaded: it would declare its stand-in data. The build copies it beside program.js in dist/.
import * as pulumi from "@pulumi/pulumi";
import * as platform from "../../provider";

//#begin
//#if secrets
const config = new pulumi.Config();
/** An encrypted env value: the platform never shows it, so it comes from this stack's secret config (README.md). */
const secret = (key: string) => config.requireSecret(key);

//#end
//#if env
/** The env variable definitions the values below use, by name. */
const definitions = {
  //#data definitions
  API_TOKEN: { id: "64f0000000000000000000d4", encrypted: true },
  //#end
};
type DefinitionName = keyof typeof definitions;
/** Env values by definition name: the text, or `secret(key)` for an encrypted one. */
type EnvValues = { [name in DefinitionName]?: string | pulumi.Output<string> };

//#end
/** One linked account's setup of one app, in its config named after the account. */
interface Setup {
  linkedAccountId: string;
  slug: string;
  /** Field names, options and labels this config holds that differ from the app's own, and field values. */
  fields?: platform.SetupField[];
  /** Workflows enabled in this config; the others are not managed. */
  workflows?: string[];
  //#if env
  //#data envComment
  /** The linked account's own env values (scope linked_account); they go with its hubspot setup. */
  //#end
  env?: EnvValues;
  /** The linked account's env values of workflows of this app, by workflow id. */
  workflowEnv?: Record<string, EnvValues>;
  //#end
}

const setups: Setup[] = [
  //#data setups
  { linkedAccountId: "acme", slug: "hubspot", workflows: ["wf_sync"], env: { API_TOKEN: secret("API_TOKEN-acme") } },
  //#end
];

/** What the import found in one data line's config: found.json holds one per line, as read. */
interface Found {
  linkedAccountId: string;
  slug: string;
  /** The fields as the line declared them, with the name, options, labels and value found. */
  fields?: platform.SetupField[];
  /** Whether each workflow of the config was enabled. */
  workflows: Record<string, boolean>;
  /**
   * The linked account's env values found, by definition id (`definition/workflow` for a
   * workflow's); absent in older imports.
   */
  env?: string[];
}

/** A data line's key in `found`: its linked account and app. */
const lineKey = (line: { linkedAccountId: string; slug: string }) => JSON.stringify([line.linkedAccountId, line.slug]);

/**
 * What the import found, frozen in found.json apart from the data above: `pulumi destroy`, or
 * removing a line, a field or a workflow, puts it back however the data was changed since
 * (README.md). Declaring it writes nothing.
 */
const found = new Map((require("./found.json") as Found[]).map((was) => [lineKey(was), was]));

/**
 * A field's restoreOnDelete: the value found of each of name, options, labels and value that it declares.
 * None when it declares one that was not found (declared since): ConfigField then puts back what
 * it recorded when it took each over.
 */
function restoreField(field: platform.SetupField, was?: Found): platform.SetupField["restoreOnDelete"] {
  const then = was?.fields?.find((f) => f.fieldId === field.fieldId && f.workflowId === field.workflowId);
  const declared = (["name", "options", "labels", "value"] as const).filter((key) => field[key] !== undefined);
  if (!then || declared.some((key) => then[key] === undefined)) return undefined;
  return Object.fromEntries(declared.map((key) => [key, then[key]]));
}

/** A workflow's restoreOnDelete: whether it was found enabled; none for one its config did not list. */
function restoreWorkflow(workflowId: string, was?: Found): boolean | undefined {
  return was && Object.hasOwn(was.workflows, workflowId) ? was.workflows[workflowId] : undefined;
}

//#if env
/** Env values of the org, the workspace, and workflows for every linked account: [definition, value, workflow id]. */
const sharedEnvValues: [DefinitionName, string | pulumi.Output<string>, string?][] = [
  //#data shared
  ["API_TOKEN", secret("API_TOKEN"), "wf_sync"],
  //#end
];

/**
 * Env values as LinkedAccountSetup takes them. Those the import found are kept on the platform by
 * `pulumi destroy` (retainOnDelete), since end users' running workflows read them; an encrypted one
 * is taken over as the platform holds it (adoptEncryptedValue: README.md). One the import did not
 * find (added to the data since) declares noValueBefore: destroy deletes it.
 */
function envValues(values: EnvValues = {}, was?: Found, workflowId?: string): platform.SetupEnvValue[] {
  return Object.entries(values).map(([name, value]) => {
    const definition = definitions[name as DefinitionName];
    const key = workflowId ? `${definition.id}/${workflowId}` : definition.id;
    const declared = { definitionId: definition.id, workflowId, value: value! };
    if (was?.env && !was.env.includes(key)) return { ...declared, noValueBefore: true };
    return { ...declared, adoptEncryptedValue: definition.encrypted, retainOnDelete: true };
  });
}

//#end
for (const setup of setups) {
  const was = found.get(lineKey(setup));
  new platform.LinkedAccountSetup(`${setup.linkedAccountId}-${setup.slug}`, {
    linkedAccountId: setup.linkedAccountId,
    slug: setup.slug,
    // What destroy puts back comes from found.json, not from the data (a restoreOnDelete written in the data wins).
    fields: setup.fields?.map((field) => ({ restoreOnDelete: restoreField(field, was), ...field })),
    workflows: Object.fromEntries(
      (setup.workflows ?? []).map((workflowId) => [
        workflowId,
        { enabled: true, restoreOnDelete: restoreWorkflow(workflowId, was) },
      ]),
    ),
    //#if env
    envValues: [
      ...envValues(setup.env, was),
      ...Object.entries(setup.workflowEnv ?? {}).flatMap(([workflowId, values]) => envValues(values, was, workflowId)),
    ],
    //#end
  });
}
//#if env

for (const [name, value, workflowId] of sharedEnvValues) {
  const definition = definitions[name];
  new platform.EnvVariableValue(
    workflowId ? `env/${name}/${workflowId}` : `env/${name}`,
    { definitionId: definition.id, workflowId, value, adoptEncryptedValue: definition.encrypted },
    { retainOnDelete: true },
  );
}
//#end

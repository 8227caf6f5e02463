// The generated project's README.md, and the secret commands it shares with the command's report:
// how to adopt, what `destroy` does, and what was not brought in.
import { plural, printable } from "../text";
import type { ImportPlan } from "./plan";
import type { ProjectMeta } from "./projectMeta";

/** The `pulumi config set --secret` lines to run, one per encrypted value, without values: each prompts. */
export function secretCommands(plan: ImportPlan): string[] {
  const width = Math.max(0, ...plan.secrets.map((s) => s.key.length));
  return plan.secrets.map((s) => {
    const where = [
      s.linkedAccountId && `linked account ${s.linkedAccountId}`,
      s.workflowId && `workflow ${s.workflowId}`,
    ]
      .filter(Boolean)
      .join(", ");
    const about = printable(`${s.definition}${where ? `, ${where}` : ""}`);
    return `pulumi config set --secret ${s.key.padEnd(width)}   # ${about}`;
  });
}

/** The README's opening: what the project holds, and what it declares. */
function intro(plan: ImportPlan, meta: ProjectMeta): string[] {
  const accounts = `${plural(plan.accountsRead, "linked account")} (${plan.slugs.join(", ")})`;
  return [
    `# ${meta.project}`,
    "",
    `The integration platform setup of ${accounts}, brought in from the live`,
    `workspace by \`${meta.command}\`. \`index.ts\` holds the data, one line per linked account`,
    `and app (${plural(plan.setups.length, "line")}), and the loops that declare it. ` +
      "Review it; it is yours to keep and change.",
    "`found.json` holds what the import found there, for `pulumi destroy` to put back: keep it as it is.",
    "",
    `It declares ${plural(plan.counts.fields, "field")} ` +
      "(only a name, options or labels that differ from the app's own),",
    `${plural(plan.counts.workflows, "enabled workflow")} (disabled ones are not declared, so not managed) and`,
    `${plural(plan.counts.envValues, "env value")}, ${plan.counts.encrypted} of them encrypted.`,
    "",
  ];
}

/** "Adopt it": the commands from install to the first `up`, with one secret command per encrypted value. */
function adoptSection(plan: ImportPlan, meta: ProjectMeta): string[] {
  const secrets = secretCommands(plan);
  const tarball = `/path/to/pulumi-integration-platform-${meta.versions.package.replace(/^\^/, "")}.tgz`;
  return [
    "## Adopt it",
    "",
    "```sh",
    `npm install ${tarball}   # until the package is on the npm registry; then: npm install`,
    "pulumi stack init <stack>",
    "pulumi config set integration-platform:baseUrl https://<your platform host>",
    "pulumi config set --secret integration-platform:apiKey        " +
      "# prompts for the key (or export INTEGRATION_PLATFORM_API_KEY)",
    ...(secrets.length > 0
      ? ["# Encrypted env values: each command prompts for its value (or pipe it in)", ...secrets]
      : []),
    "pulumi up                            # takes every object over: no write to the platform",
    "pulumi preview --expect-no-changes   # the program and the platform agree",
    "```",
    "",
    "The first `up` shows every resource as a create (`+`): the stack has no record of them yet. Each",
    "create reads what the platform holds and, finding the declared values there, writes nothing.",
    "",
  ];
}

/** "Encrypted env values": why they come from the stack's secret config, and what adopting them trusts. */
const ENCRYPTED_SECTION = [
  "## Encrypted env values",
  "",
  'The platform never shows an encrypted value (it reads back as `"[REDACTED]"`), so the import',
  "could not write it here. The program reads each from this stack's secret config",
  "(`config.requireSecret`): set them with the commands above before `pulumi up`, to what the",
  "platform holds. They are declared with `adoptEncryptedValue: true`: the first `up` takes the",
  "value the platform holds over without writing, and trusts the secret you set to equal it, since",
  "it cannot be read to compare. A later change of the secret is written to the platform.",
  "",
];

/** "What `pulumi destroy` does": fields and workflows put back as found, env values kept. */
const DESTROY_SECTION = [
  "## What `pulumi destroy` does",
  "",
  "It leaves the platform as the import found it. That is deliberate: this stack took over a",
  "running setup, and removing it must neither break it nor lose what was there.",
  "",
  "- **Fields and workflow toggles** put back what the import found. `found.json` holds it, one",
  "  line per data line: each field as the line declared it then (the name, options and labels",
  "  found) and whether each workflow of the config was enabled. `index.ts` declares it as each",
  "  resource's `restoreOnDelete`, only for the properties the field declares, so that what",
  "  `destroy` puts back never moves with the data: change a name in `index.ts`, `pulumi up`, and",
  "  `destroy` still puts back the name found. Removing a field, a workflow or a line from the data",
  "  puts it back too. Declaring `restoreOnDelete` writes nothing (it acts at delete), so the first",
  "  `up` still writes nothing. Leave `found.json` as it is: it is the record of the platform before",
  "  this stack. A property you declare later that the import did not find (a field's name where",
  "  only its labels were declared, a field or a line added) has nothing there: such a field puts",
  "  back what it recorded when this stack took it over, a workflow whether it was enabled then.",
  "- **Env values** are declared with `retainOnDelete: true`: `destroy`, or removing one from the",
  "  program, drops it from the stack and leaves it on the platform, since end users' running",
  "  workflows read it. To delete one on the platform, set `retainOnDelete: false` for it and run",
  "  `pulumi up` first, then remove it and run `pulumi up` again. An env value you add to a data",
  "  line that the import did not find at that linked account (`found.json` lists those it found)",
  "  declares `noValueBefore: true` instead: `destroy` deletes it.",
  "",
];

/** "Not brought in", how fields were chosen, and importing again. */
function notBroughtInSection(plan: ImportPlan): string[] {
  return [
    "## Not brought in",
    "",
    ...plan.notBroughtIn.map((line) => `- ${printable(line)}`),
    "",
    "How fields were chosen:",
    "",
    ...plan.fieldNotes.map((line) => `- ${printable(line)}`),
    "",
    "To bring the workspace in again, run the same command with `--force`: it rewrites these files",
    "and keeps everything else here (`node_modules`, `Pulumi.<stack>.yaml`). It keeps every record",
    "`found.json` holds, and adds records only for new data lines, because once this stack has",
    "changed something, the platform holds the stack's values, not the ones found first. To record",
    "what the platform holds then instead, delete `found.json` before importing again.",
    "",
  ];
}

/** The project's README: how to adopt, what `destroy` does, and what was not brought in. */
export function renderReadme(plan: ImportPlan, meta: ProjectMeta): string {
  return [
    ...intro(plan, meta),
    ...adoptSection(plan, meta),
    ...(plan.counts.encrypted > 0 ? ENCRYPTED_SECTION : []),
    ...DESTROY_SECTION,
    ...notBroughtInSection(plan),
  ].join("\n");
}

// The generated project's README.md, and the secret commands it shares with the command's report:
// how to adopt, what `destroy` does, and what was not brought in.
import { plural, printable } from "../text";
import type { Language } from "./language";
import type { ImportPlan } from "./plan";
import type { ProjectMeta } from "./projectMeta";

/** What the README says differently per language: the program's file, the install steps, names in its code. */
interface LanguageWords {
  /** The file that holds the data and the code. */
  program: string;
  /** Shell lines before `pulumi stack init`. */
  install: (meta: ProjectMeta) => string[];
  /** How the program reads a secret from the stack's config. */
  secretRead: string;
  /** A schema property (camelCase) as the program names it. */
  prop: (name: string) => string;
  /** A boolean property set to true, as the program writes it. */
  set: (name: string) => string;
}

/** The SDK version a native project depends on: the package's own. */
const sdkVersion = (meta: ProjectMeta) => meta.versions.package.replace(/^\^/, "");

/** Each language's words. */
const WORDS: Record<Language, LanguageWords> = {
  typescript: {
    program: "index.ts",
    install: (meta) => [
      "npm install   # the package from the npm registry; " +
        `offline: npm install ./pulumi-integration-platform-${sdkVersion(meta)}.tgz, the release's file`,
    ],
    secretRead: "`config.requireSecret`",
    prop: (name) => name,
    set: (name) => `${name}: true`,
  },
  python: {
    program: "__main__.py",
    install: () => [
      "python3 -m venv venv",
      "venv/bin/pip install -r requirements.txt   # pulumi, pulumi_integration_platform",
    ],
    secretRead: "`config.require_secret`",
    prop: (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    set: (name) => `${WORDS.python.prop(name)}=True`,
  },
  go: {
    program: "main.go",
    install: () => ["go mod tidy   # fetches the Pulumi and integration platform SDKs, writes go.sum"],
    secretRead: "`config.RequireSecret`",
    prop: (name) => name[0].toUpperCase() + name.slice(1),
    set: (name) => `${WORDS.go.prop(name)}: pulumi.Bool(true)`,
  },
  yaml: {
    program: "Pulumi.yaml",
    install: (meta) => [
      `pulumi plugin install resource integration-platform ${sdkVersion(meta)} ` +
        "--server github://api.github.com/pulumi-integration-platform   # no SDK names it for YAML",
    ],
    secretRead: "`${key}`, declared under `config:` with `secret: true`",
    prop: (name) => name,
    set: (name) => `${name}: true`,
  },
  java: {
    program: "src/main/java/platform/App.java",
    install: (meta) => [
      "mvn compile   # the SDK from Maven Central; offline, first: " +
        `mvn install:install-file -Dfile=integration-platform-${sdkVersion(meta)}.jar ` +
        `-DpomFile=integration-platform-${sdkVersion(meta)}.pom (the release's files)`,
    ],
    secretRead: "`ctx.config().requireSecret`",
    prop: (name) => name,
    set: (name) => `.${name}(true)`,
  },
};

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
function intro(plan: ImportPlan, meta: ProjectMeta, words: LanguageWords): string[] {
  const accounts = `${plural(plan.accountsRead, "linked account")} (${plan.slugs.join(", ")})`;
  const holds =
    meta.language === "yaml"
      ? `\`${words.program}\` is the program: one resource per linked account and app`
      : `\`${words.program}\` holds the data, one entry per linked account and app`;
  return [
    `# ${meta.project}`,
    "",
    `The integration platform setup of ${accounts}, brought in from the live`,
    `workspace by \`${meta.command}\`. ${holds}`,
    `(${plural(plan.setups.length, "entry", "entries")})` +
      `${meta.language === "yaml" ? "" : ", and the loops that declare it"}. ` +
      "Review it; it is yours to keep and change.",
    "`found.json` holds what the import found there, for `pulumi destroy` to put back: keep it as it is.",
    "",
    `It declares ${plural(plan.counts.fields, "field")} ` +
      "(a name, options or labels that differ from the app's own, and the value each field holds;",
    "remove the values the end users set themselves: a declared value is the team's to keep),",
    `${plural(plan.counts.workflows, "enabled workflow")} (disabled ones are not declared, so not managed) and`,
    `${plural(plan.counts.envValues, "env value")}, ${plan.counts.encrypted} of them encrypted.`,
    "",
  ];
}

/** "Adopt it": the commands from install to the first `up`, with one secret command per encrypted value. */
function adoptSection(plan: ImportPlan, meta: ProjectMeta, words: LanguageWords): string[] {
  const secrets = secretCommands(plan);
  return [
    "## Adopt it",
    "",
    "```sh",
    ...words.install(meta),
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
const encryptedSection = (words: LanguageWords) => [
  "## Encrypted env values",
  "",
  'The platform never shows an encrypted value (it reads back as `"[REDACTED]"`), so the import',
  "could not write it here. The program reads each from this stack's secret config",
  `(${words.secretRead}): set them with the commands above before \`pulumi up\`, to what the`,
  `platform holds. They are declared with \`${words.set("adoptEncryptedValue")}\`: the first \`up\` takes the`,
  "value the platform holds over without writing, and trusts the secret you set to equal it, since",
  "it cannot be read to compare. A later change of the secret is written to the platform.",
  "",
];

/** How a program that reads found.json declares what destroy puts back. */
const fromFound = (words: LanguageWords) => [
  "- **Fields and workflow toggles** put back what the import found. `found.json` holds it, one",
  "  record per data entry: each field as the entry declared it then (the name, options, labels and value",
  `  found) and whether each workflow of the config was enabled. \`${words.program}\` declares it as each`,
  `  resource's \`${words.prop("restoreOnDelete")}\`, only for the properties the field declares, so that what`,
  `  \`destroy\` puts back never moves with the data: change a name in \`${words.program}\`, \`pulumi up\`, and`,
  "  `destroy` still puts back the name found. Removing a field, a workflow or an entry from the data",
  "  puts it back too. Declaring it writes nothing (it acts at delete), so the first",
  "  `up` still writes nothing. Leave `found.json` as it is: it is the record of the platform before",
  "  this stack. A property you declare later that the import did not find (a field's name where",
  "  only its labels were declared, a field or an entry added) has nothing there: such a field puts",
  "  back what it recorded when this stack took it over, a workflow whether it was enabled then.",
];

/** How the YAML program declares what destroy puts back: inline, since Pulumi YAML cannot read a file. */
const YAML_INLINE = [
  "- **Fields and workflow toggles** put back what the import found. Pulumi YAML can neither read",
  "  a file nor loop, so the import wrote what it found inline: each field's and each workflow's",
  "  `restoreOnDelete` in `Pulumi.yaml` is the value `found.json` held at import. Change a field's",
  "  name and leave its `restoreOnDelete` as it is: `pulumi up` writes the new name, and `destroy`",
  "  still puts back the name found. Removing a field, a workflow or a resource puts it back too.",
  "  Declaring it writes nothing (it acts at delete), so the first `up` still writes nothing. A field",
  "  or a workflow you add has no `restoreOnDelete`: it puts back what it recorded when this stack",
  "  took it over. `found.json` is kept as the record: importing again with `--force` writes these",
  "  values from it, not from what the platform holds by then.",
];

/** "What `pulumi destroy` does": fields and workflows put back as found, env values kept. */
const destroySection = (language: Language, words: LanguageWords) => [
  "## What `pulumi destroy` does",
  "",
  "It leaves the platform as the import found it. That is deliberate: this stack took over a",
  "running setup, and removing it must neither break it nor lose what was there.",
  "",
  ...(language === "yaml" ? YAML_INLINE : fromFound(words)),
  `- **Env values** are declared with \`${words.set("retainOnDelete")}\`: \`destroy\`, or removing one from the`,
  "  program, drops it from the stack and leaves it on the platform, since end users' running",
  `  workflows read it. To delete one on the platform, set \`${words.prop("retainOnDelete")}\` to false for it and run`,
  "  `pulumi up` first, then remove it and run `pulumi up` again. " +
    (language === "yaml"
      ? `An env value you add declares nothing of the kind: give it \`noValueBefore: true\` if the platform held`
      : "An env value you add to a data"),
  ...(language === "yaml"
    ? ["  none there before, so that `destroy` deletes it."]
    : [
        "  entry that the import did not find at that linked account (`found.json` lists those it found)",
        `  declares \`${words.set("noValueBefore")}\` instead: \`destroy\` deletes it.`,
      ]),
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
    "and keeps everything else here (installed packages, `Pulumi.<stack>.yaml`). It keeps every record",
    "`found.json` holds, and adds records only for new data lines, because once this stack has",
    "changed something, the platform holds the stack's values, not the ones found first. To record",
    "what the platform holds then instead, delete `found.json` before importing again.",
    "",
  ];
}

/** The project's README: how to adopt, what `destroy` does, and what was not brought in. */
export function renderReadme(plan: ImportPlan, meta: ProjectMeta): string {
  const words = WORDS[meta.language];
  return [
    ...intro(plan, meta, words),
    ...adoptSection(plan, meta, words),
    ...(plan.counts.encrypted > 0 ? encryptedSection(words) : []),
    ...destroySection(meta.language, words),
    ...notBroughtInSection(plan),
  ].join("\n");
}

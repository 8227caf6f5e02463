// `pulumi-integration-platform import` against an in-process emulator: the project it writes
// (read back from disk), what it prints, what it asks of the platform, and every way it refuses
// to run, each of which must leave no file behind. The e2e suite (test/e2e/import.test.ts) runs
// the written project through the real CLI.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { main } from "../../cli/main";
import { useResetEmulator } from "../support/emulator";
import { FIXTURE, TYPE } from "../../harness/fixture";
import { registrations } from "../support/mocks";

const REPO = path.resolve(__dirname, "../..");

/** What one run of the command line printed, and its exit status. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The files a project directory holds, by name, with their text. */
function filesIn(dir: string): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  return Object.fromEntries(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name), "utf8")]));
}

/** The data lines of a generated index.ts: one per linked account and app. */
const dataLines = (program: string) => program.split("\n").filter((line) => line.startsWith("  { linkedAccountId: "));

/**
 * Runs a generated project's index.ts under Pulumi's mocks, with this repository's sources as the
 * package it imports, and returns the ConfigFields' and WorkflowToggles' inputs by resource name.
 */
async function declaredBy(
  dir: string,
  config: Record<string, string> = {},
): Promise<Record<string, Record<string, unknown>>> {
  const modules = path.join(dir, "node_modules");
  if (!fs.existsSync(modules)) {
    fs.mkdirSync(path.join(modules, "pulumi-integration-platform"), { recursive: true });
    fs.writeFileSync(
      path.join(modules, "pulumi-integration-platform/index.js"),
      `module.exports = require(${JSON.stringify(path.join(REPO, "provider/index.ts"))});\n`,
    );
    fs.symlinkSync(path.join(REPO, "node_modules/@pulumi"), path.join(modules, "@pulumi"), "dir");
  }
  // The program runs on every require, as on every `pulumi up`, and reads found.json afresh.
  for (const file of ["index.ts", "found.json"]) delete require.cache[fs.realpathSync(path.join(dir, file))];
  const registered = await registrations(() => require(path.join(dir, "index.ts")), config);
  return Object.fromEntries(
    registered
      .filter((r) => [TYPE("ConfigField"), TYPE("WorkflowToggle"), TYPE("EnvVariableValue")].includes(r.type))
      .map((r) => [r.name, r.inputs]),
  );
}

/** Every value the emulator stores for an encrypted definition: what must never reach a file or the output. */
function encryptedValues(emulator: RunningEmulator): string[] {
  const state = emulator.store.snapshot();
  const encrypted = new Set(state.envDefinitions.filter((d) => d.encrypted).map((d) => d._id));
  return state.envValues.filter((v) => encrypted.has(v.variable_definition_id)).map((v) => v.value);
}

describe("pulumi-integration-platform import", function () {
  const ctx = useResetEmulator();
  let tmp: string;
  let out: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-import-"));
    out = path.join(tmp, "platform");
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Runs the command line in-process, with the emulator's address and API key in its environment. */
  async function cli(args: string[], options: { env?: Record<string, string>; tty?: boolean } = {}): Promise<Run> {
    const run = { stdout: "", stderr: "" };
    const code = await main(args, {
      stdout: (text) => (run.stdout += text),
      stderr: (text) => (run.stderr += text),
      readStdin: async () => "",
      env: {
        INTEGRATION_PLATFORM_BASE_URL: ctx.emulator.url,
        INTEGRATION_PLATFORM_API_KEY: ctx.emulator.apiKey,
        ...options.env,
      },
      stderrIsTTY: options.tty ?? false,
    });
    return { code, ...run };
  }

  const writes = () => ctx.emulator.requests.list().filter((r) => r.method !== "GET");

  describe("from the default fixture", () => {
    it("writes a project that declares each account's setup as one data line, and nothing secret", async () => {
      const run = await cli(["import", "--slug", "hubspot", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
      const files = filesIn(out);
      assert.deepEqual(Object.keys(files).sort(), [
        ".gitignore",
        "Pulumi.yaml",
        "README.md",
        "found.json",
        "index.ts",
        "package.json",
        "tsconfig.json",
      ]);

      // The data: each account's field values, enabled workflows and env values, the encrypted one from the stack's config.
      assert.deepEqual(dataLines(files["index.ts"]), [
        '  { linkedAccountId: "acme", slug: "hubspot", fields: [{ fieldId: "hs_api_domain", value: "api.hubapi.com" }], workflows: ["wf_hs_contact_sync"], env: { CRM_API_TOKEN: secret("CRM_API_TOKEN-acme"), ACCOUNT_TIER: "enterprise" }, workflowEnv: { wf_hs_contact_sync: { BATCH_SIZE: "50" } } },',
        '  { linkedAccountId: "globex", slug: "hubspot", workflows: ["wf_hs_deal_alerts"], env: { ACCOUNT_TIER: "growth" } },',
        '  { linkedAccountId: "initech", slug: "hubspot", env: { ACCOUNT_TIER: "enterprise" } },',
      ]);
      const program = files["index.ts"];
      assert.match(program, /const secret = \(key: string\) => config\.requireSecret\(key\);/);
      assert.match(program, /CRM_API_TOKEN: \{ id: "64f0000000000000000000d4", encrypted: true \}/);
      assert.match(program, /ACCOUNT_TIER: \{ id: "64f0000000000000000000d5", encrypted: false \}/);
      // Org, workspace and whole-workflow values: a small list, each declared once, kept on destroy.
      const shared = program.slice(
        program.indexOf("const sharedEnvValues"),
        program.indexOf("];", program.indexOf("const sharedEnvValues")),
      );
      assert.deepEqual(shared.split("\n").slice(1).filter(Boolean), [
        '  ["API_BASE_URL", "https://api.example.com"],',
        '  ["MAX_RETRIES", "3"],',
        '  ["WORKSPACE_REGION", "eu-west-1"],',
        '  ["WEBHOOK_URL", "https://hooks.example.com/contacts", "wf_hs_contact_sync"],',
      ]);
      assert.match(program, /adoptEncryptedValue: definition\.encrypted, retainOnDelete: true/);
      assert.match(program, /\{ retainOnDelete: true \}/);
      // No field's name, options or labels differ from the app's own: only acme's one value is declared.
      assert.equal(program.match(/fields: \[\{/g)?.length, 1);

      // What destroy puts back: what was found, frozen in found.json, one line per data line, which
      // the program reads for restoreOnDelete; the data lines do not hold it.
      assert.equal(
        files["found.json"],
        [
          "[",
          '  { "linkedAccountId": "acme", "slug": "hubspot", "fields": [{ "fieldId": "hs_api_domain", "value": "api.hubapi.com" }], "workflows": { "wf_hs_contact_sync": true, "wf_hs_deal_alerts": false }, "env": ["64f0000000000000000000d4", "64f0000000000000000000d5", "64f0000000000000000000d8/wf_hs_contact_sync"] },',
          '  { "linkedAccountId": "globex", "slug": "hubspot", "workflows": { "wf_hs_contact_sync": false, "wf_hs_deal_alerts": true }, "env": ["64f0000000000000000000d5"] },',
          '  { "linkedAccountId": "initech", "slug": "hubspot", "workflows": { "wf_hs_contact_sync": false, "wf_hs_deal_alerts": false }, "env": ["64f0000000000000000000d5"] }',
          "]",
          "",
        ].join("\n"),
      );
      assert.match(program, /const found = new Map\(\(require\("\.\/found\.json"\) as Found\[\]\)/);
      assert.match(program, /\{ enabled: true, restoreOnDelete: restoreWorkflow\(workflowId, was\) \}/);
      assert.match(program, /\{ restoreOnDelete: restoreField\(field, was\), \.\.\.field \}/);
      for (const line of dataLines(program)) assert.doesNotMatch(line, /restoreOnDelete/);
      assert.match(files["README.md"], /`found\.json` holds it[^]*?declares it as each\s+resource's `restoreOnDelete`/);
      // The package from the npm registry, at this version; offline, the release's tarball (README, "Install").
      const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
      assert.equal(JSON.parse(files["package.json"]).dependencies["pulumi-integration-platform"], `^${version}`);
      assert.ok(
        files["README.md"].includes(
          `npm install   # the package from the npm registry; offline: npm install ./pulumi-integration-platform-${version}.tgz`,
        ),
        "the README installs from the registry, the tarball offline",
      );

      // The secret: never in a file or the output; the command to set it, without a value.
      for (const secret of [...encryptedValues(ctx.emulator), ctx.emulator.apiKey]) {
        for (const [name, text] of Object.entries(files)) assert.ok(!text.includes(secret), `${name} holds a secret`);
        assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), "the output holds a secret");
      }
      assert.match(
        run.stdout,
        /^  pulumi config set --secret CRM_API_TOKEN-acme   # CRM_API_TOKEN, linked account acme$/m,
      );
      assert.match(
        files["README.md"],
        /^pulumi config set --secret CRM_API_TOKEN-acme   # CRM_API_TOKEN, linked account acme$/m,
      );
      assert.doesNotMatch(program, /\[REDACTED\]/);

      // The project around it.
      assert.equal(files["Pulumi.yaml"].split("\n")[0], "name: platform");
      const manifest = JSON.parse(files["package.json"]);
      assert.equal(manifest.main, "index.ts");
      assert.match(manifest.dependencies["pulumi-integration-platform"], /^\^\d+\.\d+\.\d+$/);
      assert.ok(manifest.dependencies["@pulumi/pulumi"]);
      assert.deepEqual(JSON.parse(files["tsconfig.json"]).files, ["index.ts"]);

      // What it could not bring in, and why, in the output and in the README.
      for (const text of [run.stdout, files["README.md"]]) {
        assert.match(text, /Application events: the API has no operation that reads an event.*`restoreOnDelete`/);
        // A value of a shape ConfigField takes is brought in, not listed.
        assert.doesNotMatch(text, /Field values/);
        assert.match(text, /Config labels \(acme's hubspot config\)/);
      }
      assert.match(files["README.md"], /retainOnDelete: true/);
      assert.match(files["README.md"], /`adoptEncryptedValue: true`[^]*?trusts the secret you set to equal it/);
      assert.match(
        run.stdout,
        /^Brought in 3 linked accounts \(hubspot\) as 3 setups: 1 field, 2 enabled workflows, 9 env values \(1 encrypted\), read with 12 API calls/m,
      );

      // Reads only, the documented ones, and exactly as many as it says.
      assert.deepEqual(writes(), []);
      assert.equal(ctx.emulator.requests.list().length, 12);
    });

    /** Gives each fixture account's hubspot config one field of its own: acme a name, globex labels, initech options. */
    async function customizeOneFieldPerAccount(): Promise<void> {
      await ctx.emulator.store.update(() => {
        const config = (account: string) =>
          ctx.emulator.store.configs.find({ linkedAccountId: account, slug: "hubspot", configId: account })!;
        Object.assign(ctx.emulator.store.configs.fieldState(config("acme"), null, "hs_pipeline"), {
          name: "Deals pipeline",
        });
        Object.assign(
          ctx.emulator.store.configs.fieldState(config("globex"), "wf_hs_contact_sync", "hs_contact_owner"),
          {
            labels: [{ name: "team", value: "emea" }],
          },
        );
        Object.assign(
          ctx.emulator.store.configs.fieldState(config("initech"), "wf_hs_contact_sync", "hs_sync_direction"),
          { options: [{ name: "One way", value: "one_way" }] },
        );
      });
    }

    it("declares a field only where its config differs from what most configs hold, the app's own", async () => {
      await customizeOneFieldPerAccount();
      const run = await cli(["import", "--slug", "hubspot", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
      const lines = dataLines(filesIn(out)["index.ts"]);
      assert.match(
        lines[0],
        /^  \{ linkedAccountId: "acme", slug: "hubspot", fields: \[\{ fieldId: "hs_api_domain", value: "api\.hubapi\.com" \}, \{ fieldId: "hs_pipeline", name: "Deals pipeline" \}\], workflows/,
      );
      assert.match(
        lines[1],
        /fields: \[\{ fieldId: "hs_contact_owner", workflowId: "wf_hs_contact_sync", labels: \[\{ name: "team", value: "emea" \}\] \}\]/,
      );
      assert.match(
        lines[2],
        /fields: \[\{ fieldId: "hs_sync_direction", workflowId: "wf_hs_contact_sync", options: \[\{ name: "One way", value: "one_way" \}\] \}\]/,
      );
      assert.match(run.stdout, /as 3 setups: 4 fields,/);
    });

    it("declares what it found as restoreOnDelete, from found.json: edits of the data do not move it", async () => {
      await customizeOneFieldPerAccount();
      const run = await cli(["import", "--slug", "hubspot", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
      const found = JSON.parse(filesIn(out)["found.json"]);
      assert.deepEqual(found[0], {
        linkedAccountId: "acme",
        slug: "hubspot",
        fields: [
          { fieldId: "hs_api_domain", value: "api.hubapi.com" },
          { fieldId: "hs_pipeline", name: "Deals pipeline" },
        ],
        workflows: { wf_hs_contact_sync: true, wf_hs_deal_alerts: false },
        env: ["64f0000000000000000000d4", "64f0000000000000000000d5", "64f0000000000000000000d8/wf_hs_contact_sync"],
      });
      const config = { "project:CRM_API_TOKEN-acme": "not the real one" };
      const workflowField = { workflowId: "wf_hs_contact_sync", slug: "hubspot" };

      // As generated: each field and enabled workflow restores exactly what was found.
      const asImported = await declaredBy(out, config);
      assert.deepEqual(asImported["acme-hubspot/field/hs_pipeline"].restoreOnDelete, { name: "Deals pipeline" });
      assert.deepEqual(asImported["globex-hubspot/field/wf_hs_contact_sync/hs_contact_owner"].restoreOnDelete, {
        labels: [{ name: "team", value: "emea" }],
      });
      assert.deepEqual(asImported["initech-hubspot/field/wf_hs_contact_sync/hs_sync_direction"].restoreOnDelete, {
        options: [{ name: "One way", value: "one_way" }],
      });
      assert.equal(asImported["acme-hubspot/workflow/wf_hs_contact_sync"].restoreOnDelete, true);
      assert.equal(asImported["globex-hubspot/workflow/wf_hs_deal_alerts"].restoreOnDelete, true);

      // The data edited: a name changed, a property declared that was not found, a workflow enabled
      // that was found disabled. What destroy puts back stays what was found.
      const program = path.join(out, "index.ts");
      fs.writeFileSync(
        program,
        fs
          .readFileSync(program, "utf8")
          .replace('name: "Deals pipeline"', 'name: "Edited pipeline"')
          .replace(
            'labels: [{ name: "team", value: "emea" }] }',
            'labels: [{ name: "team", value: "apac" }], name: "Owner" }',
          )
          .replace(
            '{ linkedAccountId: "initech", slug: "hubspot", ',
            '{ linkedAccountId: "initech", slug: "hubspot", workflows: ["wf_hs_deal_alerts"], workflowEnv: { wf_hs_contact_sync: { BATCH_SIZE: "25" } }, ',
          ),
      );
      const edited = await declaredBy(out, config);
      assert.deepEqual(edited["acme-hubspot/field/hs_pipeline"], {
        slug: "hubspot",
        linkedAccountId: "acme",
        configId: "acme",
        fieldId: "hs_pipeline",
        name: "Edited pipeline",
        restoreOnDelete: { name: "Deals pipeline" },
      });
      // A name the import did not find: none to declare, so ConfigField puts back what it recorded on taking each property over.
      assert.deepEqual(edited["globex-hubspot/field/wf_hs_contact_sync/hs_contact_owner"], {
        ...workflowField,
        linkedAccountId: "globex",
        configId: "globex",
        fieldId: "hs_contact_owner",
        labels: [{ name: "team", value: "apac" }],
        name: "Owner",
      });
      assert.deepEqual(edited["initech-hubspot/workflow/wf_hs_deal_alerts"], {
        slug: "hubspot",
        linkedAccountId: "initech",
        configId: "initech",
        workflowId: "wf_hs_deal_alerts",
        enabled: true,
        restoreOnDelete: false,
      });
      assert.deepEqual(edited["initech-hubspot/field/wf_hs_contact_sync/hs_sync_direction"].restoreOnDelete, {
        options: [{ name: "One way", value: "one_way" }],
      });
      // An env value the import did not find at the account: destroy deletes it (and create needs no read).
      const { value: added, ...addedInputs } =
        edited["initech-hubspot/env/64f0000000000000000000d8/wf_hs_contact_sync"];
      assert.deepEqual(addedInputs, {
        definitionId: "64f0000000000000000000d8",
        workflowId: "wf_hs_contact_sync",
        linkedAccountId: "initech",
        noValueBefore: true,
      });
      assert.equal((added as { value: string }).value, "25", "the value, as a secret");
      // One it found stays on the platform at destroy, as imported.
      assert.equal(edited["initech-hubspot/env/64f0000000000000000000d5"].noValueBefore, undefined);
      assert.deepEqual(writes(), []);
    });

    it("brings in only the linked accounts named, and reads a few other configs to tell the app's own fields", async () => {
      await ctx.emulator.store.update(() => {
        const acme = ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
        Object.assign(ctx.emulator.store.configs.fieldState(acme, null, "hs_pipeline"), { name: "Deals pipeline" });
      });
      const run = await cli(["import", "--slug", "hubspot", "--linked-account", "acme", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
      const lines = dataLines(filesIn(out)["index.ts"]);
      assert.equal(lines.length, 1);
      assert.match(
        lines[0],
        /^  \{ linkedAccountId: "acme", slug: "hubspot", fields: \[\{ fieldId: "hs_api_domain", value: "api\.hubapi\.com" \}, \{ fieldId: "hs_pipeline", name: "Deals pipeline" \}\], workflows: \["wf_hs_contact_sync"\]/,
      );
      const configReads = ctx.emulator.requests
        .list()
        .filter((r) => r.path.startsWith("/api/v2/public/slug/hubspot/config/"));
      assert.deepEqual(
        configReads.map((r) => r.path.split("/").pop()).sort(),
        FIXTURE.accounts,
        "globex's and initech's configs are read, not declared",
      );
      assert.match(
        run.stdout,
        /Brought in 1 linked account \(hubspot\) as 1 setup: 2 fields, 1 enabled workflow, 7 env values/,
      );
      assert.deepEqual(writes(), []);
    });

    it("brings in several apps: the account's own env values go with the first app's setup", async () => {
      const run = await cli(["import", "--slug", "hubspot", "--slug", "slack", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
      const lines = dataLines(filesIn(out)["index.ts"]);
      assert.deepEqual(
        lines.map((line) =>
          line
            .match(/^  \{ linkedAccountId: "(\w+)", slug: "(\w+)"/)!
            .slice(1)
            .join("-"),
        ),
        ["acme-hubspot", "acme-slack", "globex-hubspot", "initech-hubspot"],
      );
      assert.match(lines[1], /^  \{ linkedAccountId: "acme", slug: "slack", workflows: \["wf_slack_notify"\] \},$/);
      assert.match(run.stdout, /as 4 setups/);
    });
  });

  describe("progress", () => {
    it("reports linked accounts read so far, of the total, on stderr only", async () => {
      const run = await cli(["import", "--slug", "hubspot", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stderr.split("\n");
      assert.deepEqual(
        lines.filter((line) => /^Read \d/.test(line)).map((line) => line.replace(/ \(\d+ s\)$/, "")),
        ["Read 1 of 3 linked accounts", "Read 2 of 3 linked accounts", "Read 3 of 3 linked accounts"],
      );
      assert.ok(lines.includes("Reading 3 linked accounts: their configs and env values..."));
      assert.doesNotMatch(run.stdout, /Read \d of/);
    });

    it("updates one line in place on a terminal", async () => {
      const run = await cli(["import", "--slug", "hubspot", "--out", out], { tty: true });
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stderr,
        /\rRead 0 of 3 linked accounts \(\d+ s\)\rRead 1 of 3 linked accounts \(\d+ s\)\rRead 2 of 3 .*\rRead 3 of 3 linked accounts \(\d+ s\)\n/,
      );
    });

    it("reports a tenth of the accounts at a time when there are many", async () => {
      await ctx.emulator.store.update(() => {
        for (let i = 0; i < 37; i++)
          ctx.emulator.store.linkedAccounts.add({ account_id: `tenant-${i}`, name: `Tenant ${i}` });
      });
      const run = await cli(["import", "--slug", "hubspot", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
      const counts = run.stderr
        .split("\n")
        .filter((line) => /^Read \d/.test(line))
        .map((line) => Number(line.split(" ")[1]));
      assert.deepEqual(counts, [4, 8, 12, 16, 20, 24, 28, 32, 36, 40]);
    });
  });

  describe("refuses, says what to fix, and writes nothing", () => {
    /** Runs the command and checks the refusal: exit 2, the message, no output, and no file in `dir`. */
    async function refused(
      args: string[],
      message: RegExp,
      options: { env?: Record<string, string>; dir?: string; usage?: boolean } = {},
    ): Promise<Run> {
      const dir = options.dir ?? out;
      const before = filesIn(dir);
      const run = await cli(args, options);
      assert.equal(run.code, 2, `exit status; stderr: ${run.stderr}`);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, message);
      assert.deepEqual(filesIn(dir), before, "the directory is as it was");
      if (options.dir === undefined) assert.equal(fs.existsSync(out), false, "the directory was not made");
      if (options.usage) assert.match(run.stderr, /Run `pulumi-integration-platform import --help` for usage\.\n$/);
      else assert.match(run.stderr, /\nNothing was written to .*\.\n$/);
      assert.deepEqual(writes(), [], "nothing was written to the platform either");
      return run;
    }

    it("a refused API key, which it never prints", async () => {
      const key = "tk_wrong_key_4711";
      const run = await refused(
        ["import", "--slug", "hubspot", "--out", out],
        /^pulumi-integration-platform import: 401 from GET \/linked-account: Invalid Credentials: the API key was refused; check `INTEGRATION_PLATFORM_API_KEY`\n/m,
        { env: { INTEGRATION_PLATFORM_API_KEY: key } },
      );
      assert.ok(!run.stderr.includes(key));
      assert.doesNotMatch(
        run.stderr,
        /integration-platform:/,
        "import reads no stack config: its messages name environment variables only",
      );
      assert.equal(ctx.emulator.requests.list().length, 1, "it stops at the first call");
    });

    it("no connection settings in the environment", async () => {
      await refused(
        ["import", "--slug", "hubspot", "--out", out],
        /import reads its connection from the environment; set INTEGRATION_PLATFORM_BASE_URL and INTEGRATION_PLATFORM_API_KEY/,
        { env: { INTEGRATION_PLATFORM_BASE_URL: "", INTEGRATION_PLATFORM_API_KEY: "" } },
      );
      assert.equal(ctx.emulator.requests.list().length, 0);
    });

    it("an unknown slug", async () => {
      await refused(
        ["import", "--slug", "hubspt", "--out", out],
        /^pulumi-integration-platform import: unknown slug "hubspt": none of the 3 linked accounts read has a config of that app \(the platform answered 404 for each\)\. Check --slug/m,
      );
    });

    it("an unknown linked account", async () => {
      await refused(
        [
          "import",
          "--slug",
          "hubspot",
          "--linked-account",
          "acme",
          "--linked-account",
          "Acme Corporation",
          "--out",
          out,
        ],
        /unknown linked account "Acme Corporation": the workspace's 3 linked accounts do not include it\. Check --linked-account: it takes the account's id/,
      );
    });

    it("a directory that cannot be made (its parent is a file), before any request", async () => {
      const file = path.join(tmp, "a-file");
      fs.writeFileSync(file, "x");
      await refused(
        ["import", "--slug", "hubspot", "--out", path.join(file, "platform")],
        /cannot create --out .*a-file\/platform: .*a-file is a file, not a directory/,
        { dir: tmp },
      );
      assert.equal(fs.readFileSync(file, "utf8"), "x");
      assert.equal(ctx.emulator.requests.list().length, 0);
    });

    it("--out naming a file", async () => {
      const file = path.join(tmp, "a-file");
      fs.writeFileSync(file, "x");
      await refused(
        ["import", "--slug", "hubspot", "--out", file],
        /--out .*a-file is a file, not a directory: name a new or empty directory/,
        { dir: tmp },
      );
    });

    it("a directory that is not empty, without --force", async () => {
      fs.mkdirSync(out);
      fs.writeFileSync(path.join(out, "index.ts"), "// mine\n");
      await refused(
        ["import", "--slug", "hubspot", "--out", out],
        /--out .*platform is not empty \(1 entry, e\.g\. index\.ts\): name a new or empty directory, or pass --force/,
        { dir: out },
      );
      assert.equal(ctx.emulator.requests.list().length, 0, "it refuses before reading");
    });

    it("a read that fails half-way: the reads already started finish before it reports, and no file is written", async () => {
      // acme's and initech's config reads start beside globex's and are answered only after it failed.
      ctx.emulator.faults.add([
        { path: "^/api/v2/public/slug/hubspot/config/globex$", action: { status: 500 } },
        { path: "^/api/v2/public/slug/hubspot/config/(acme|initech)$", action: { delayMs: 1000 } },
      ]);
      await refused(
        ["import", "--slug", "hubspot", "--out", out],
        /^pulumi-integration-platform import: 500 from GET \/slug\/hubspot\/config\/globex: .*the platform failed; run again later/m,
        { env: { INTEGRATION_PLATFORM_MAX_RETRIES: "0" } },
      );
      // The log records a request once it is answered: read as the command returned.
      const [first, ...then] = ctx.emulator.requests
        .list()
        .filter((r) => r.path.startsWith("/api/v2/public/slug/hubspot/config/"))
        .map((r) => `${r.path.split("/").pop()} ${r.status}`);
      assert.deepEqual(
        [first, ...then.sort()],
        ["globex 500", "acme 200", "initech 200"],
        "the failure is answered first, and the reads in flight then were answered before the command reported it",
      );
    });

    const usage: [string, string[], RegExp][] = [
      ["no --slug", ["import", "--out", "x"], /import needs --slug: name the app to bring in, e\.g\. --slug hubspot/],
      [
        "no --out",
        ["import", "--slug", "hubspot"],
        /import needs --out: name a new or empty directory for the project, e\.g\. --out platform/,
      ],
      [
        "an empty --linked-account",
        ["import", "--slug", "hubspot", "--linked-account", "", "--out", "x"],
        /--linked-account must not be empty/,
      ],
      ["an unknown option", ["import", "--slug", "hubspot", "--out", "x", "--all"], /unknown option '--all'/],
      ["--out without a value", ["import", "--slug", "hubspot", "--out"], /--out needs a value: --out <dir>/],
      [
        "a stray argument",
        ["import", "hubspot", "--out", "x"],
        /import takes no arguments besides its options; got "hubspot"/,
      ],
    ];
    for (const [what, args, message] of usage) {
      it(`bad usage: ${what}`, async () => {
        await refused(args, message, { usage: true, dir: tmp });
        assert.equal(ctx.emulator.requests.list().length, 0);
      });
    }
  });

  it("--force rewrites the project's files in a directory that is not empty, and keeps the others", async () => {
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "index.ts"), "// an earlier import\n");
    fs.writeFileSync(path.join(out, "Pulumi.dev.yaml"), "config: {}\n");
    const run = await cli(["import", "--slug", "hubspot", "--out", out, "--force"]);
    assert.equal(run.code, 0, run.stderr);
    const files = filesIn(out);
    assert.equal(files["Pulumi.dev.yaml"], "config: {}\n");
    assert.equal(dataLines(files["index.ts"]).length, 3);
  });

  describe("--force into an earlier import's directory keeps what the first import found", () => {
    /** found.json's records, one per line, without the separating commas. */
    const foundLines = () => {
      const found = filesIn(out)["found.json"];
      return found
        .split("\n")
        .filter((line) => line.startsWith("  {"))
        .map((line) => line.replace(/,$/, ""));
    };

    it("keeps found.json's records whole, even where the platform changed since, and adds records for new data lines", async () => {
      const first = await cli([
        "import",
        "--slug",
        "hubspot",
        "--linked-account",
        "acme",
        "--linked-account",
        "globex",
        "--out",
        out,
      ]);
      assert.equal(first.code, 0, first.stderr);
      const earlier = foundLines();
      assert.equal(earlier.length, 2);
      // What a deployed stack would have done since: acme's pipeline renamed, its contact sync disabled.
      await ctx.emulator.store.update(() => {
        const acme = ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
        Object.assign(ctx.emulator.store.configs.fieldState(acme, null, "hs_pipeline"), { name: "Set by the stack" });
        ctx.emulator.store.configs.workflowState(acme, "wf_hs_contact_sync").enabled = false;
      });

      const again = await cli(["import", "--slug", "hubspot", "--out", out, "--force"]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(
        again.stdout,
        /Kept the 2 records of the earlier found\.json \(what destroy puts back: what the first import found\) and added 1 record for new data lines; delete found\.json before importing to record what the platform holds now instead\./,
      );
      const lines = foundLines();
      assert.deepEqual(lines.slice(0, 2), earlier, "the earlier records, unchanged");
      assert.equal(lines.length, 3);
      assert.deepEqual(JSON.parse(lines[2]), {
        linkedAccountId: "initech",
        slug: "hubspot",
        workflows: { wf_hs_contact_sync: false, wf_hs_deal_alerts: false },
        env: ["64f0000000000000000000d5"],
      });
      // The data line has the stack's values now; destroy still puts back the first import's.
      assert.match(
        dataLines(filesIn(out)["index.ts"])[0],
        /fields: \[\{ fieldId: "hs_api_domain", value: "api\.hubapi\.com" \}, \{ fieldId: "hs_pipeline", name: "Set by the stack" \}\]/,
      );
      assert.deepEqual(JSON.parse(lines[0]).workflows, { wf_hs_contact_sync: true, wf_hs_deal_alerts: false });
      // The README says what --force does with found.json.
      assert.match(
        filesIn(out)["README.md"],
        /It keeps every record\n`found\.json` holds, and adds records only for new data lines/,
      );
      assert.deepEqual(writes(), []);
    });

    it("records what the platform holds now when found.json was deleted first", async () => {
      assert.equal((await cli(["import", "--slug", "hubspot", "--out", out])).code, 0);
      await ctx.emulator.store.update(() => {
        const acme = ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
        ctx.emulator.store.configs.workflowState(acme, "wf_hs_contact_sync").enabled = false;
      });
      fs.rmSync(path.join(out, "found.json"));
      const again = await cli(["import", "--slug", "hubspot", "--out", out, "--force"]);
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(again.stdout, /Kept the/);
      assert.deepEqual(JSON.parse(foundLines()[0]).workflows, { wf_hs_contact_sync: false, wf_hs_deal_alerts: false });
    });

    for (const [what, text, reason] of [
      ["not JSON", "[{", /not JSON: /],
      [
        "a record without its linked account",
        '[{ "slug": "hubspot", "workflows": {} }]',
        /`\[0\]\.linkedAccountId` is missing; it should be text/,
      ],
      [
        "a workflow state that is not a boolean",
        '[{ "linkedAccountId": "acme", "slug": "hubspot", "workflows": { "wf_hs_contact_sync": "yes" } }]',
        /`\[0\]\.workflows\.wf_hs_contact_sync` is text; it should be true or false/,
      ],
    ] as const) {
      it(`refuses before any request when found.json is ${what}, and leaves the directory as it was`, async () => {
        fs.mkdirSync(out);
        fs.writeFileSync(path.join(out, "found.json"), text);
        fs.writeFileSync(path.join(out, "index.ts"), "// an earlier import\n");
        const before = filesIn(out);
        const run = await cli(["import", "--slug", "hubspot", "--out", out, "--force"]);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /found\.json is not what import writes \(/);
        assert.match(run.stderr, reason);
        assert.doesNotMatch(
          run.stderr,
          /Invalid input|expected|received|Unexpected/,
          "in the product's words, not zod's or the JSON parser's",
        );
        assert.match(
          run.stderr,
          /it holds what destroy puts back, so it is kept on --force: restore it from version control, or delete it to record what the platform holds now/,
        );
        assert.deepEqual(filesIn(out), before);
        assert.deepEqual(ctx.emulator.requests.list(), [], "no request");
      });
    }
  });

  it("--help describes import", async () => {
    const run = await cli(["import", "--help"]);
    assert.equal(run.code, 0);
    assert.match(
      run.stdout,
      /^Usage: pulumi-integration-platform import --slug <slug> \[--slug <slug> \.\.\.\]\n +\[--linked-account <id> \.\.\.\] --out <dir> \[--fixture <file>\] \[--language <language>\] \[--force\]\n/,
    );
    assert.match(run.stdout, /--fixture <file>\s+Also write an emulator fixture of what was read to\s+<file>/);
    assert.match(run.stdout, /INTEGRATION_PLATFORM_BASE_URL and\s+INTEGRATION_PLATFORM_API_KEY/);
    assert.match(run.stdout, /--language <language>\s+The project's language: typescript, python, go, yaml,\s+java\./);
  });
});

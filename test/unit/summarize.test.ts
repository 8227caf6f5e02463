// The change summary and its command line. The main input is real: the preview JSON that the e2e
// suite (test/e2e/previewDiff.test.ts) saved from the CLI, with every op for every resource type.
// Hand-made inputs cover what that run cannot show: empty and no-op previews, bad input, secrets.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../provider/cli/main";
import { parsePreview, PreviewJsonError, summarize } from "../../provider/cli/summarize";
import { TYPE, type Kind } from "../support/fixture";

const GOLDEN = path.join(__dirname, "../e2e/golden");
const BIN = path.join(__dirname, "../../dist/provider/cli/main.js");
const URN = (type: string, name: string) => `urn:pulumi:dev::demo::${type}::${name}`;

type Step = { op: string; urn: string; oldState?: State; newState?: State; replaceReasons?: string[] };
type State = { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown>; additionalSecretOutputs?: string[] };

function realPreview(): { steps: Step[]; [key: string]: unknown } {
  return JSON.parse(fs.readFileSync(path.join(GOLDEN, "preview.json"), "utf8"));
}

/** A one-step preview of a platform resource. */
function step(op: string, type: Kind, name: string, states: { old?: Record<string, unknown>; new?: Record<string, unknown> }, extra: Partial<Step> = {}): Step {
  return {
    op,
    urn: URN(TYPE(type), name),
    ...(states.old ? { oldState: { type: TYPE(type), inputs: states.old, outputs: states.old } } : {}),
    ...(states.new ? { newState: { type: TYPE(type), inputs: states.new } } : {}),
    ...extra,
  };
}

/** The sections of a summary: heading, then its lines up to the next heading. */
function sections(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  let heading = "";
  for (const line of markdown.split("\n")) {
    if (line.startsWith("#")) heading = line;
    else found.set(heading, `${found.get(heading) ?? ""}${line}\n`);
  }
  return found;
}

/** Runs the compiled bin, as `npx pulumi-integration-platform` does. */
function bin(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
    child.stdin!.end(stdin ?? "");
  });
}

describe("summarize: the change summary of a pull request", () => {
  const golden = fs.readFileSync(path.join(GOLDEN, "summary.md"), "utf8");

  describe("on the real preview JSON", () => {
    const summary = summarize(realPreview());

    it("equals the golden summary the e2e suite checked against the CLI", () => {
      assert.equal(summary, golden);
    });

    it("groups by linked account, then app, with shared objects after every account", () => {
      const headings = summary.split("\n").filter((line) => line.startsWith("#"));
      assert.deepEqual(headings, [
        "## Integration platform changes",
        "### Linked account `acme`",
        "#### App `hubspot`",
        "#### App `slack`",
        "### Linked account `globex`",
        "#### App `hubspot`",
        "#### App `slack`",
        "#### Env values",
        "### Linked account `initech`",
        "#### App `hubspot`",
        "#### Env values",
        "### Not tied to a linked account",
        "#### Application events",
        "#### Env values (org, workspace and workflow scope)",
      ]);
      assert.match(summary, /^17 changes to integration platform objects \(5 to create, 4 to update, 4 to replace, 4 to delete\) for 3 linked accounts: `acme`, `globex`, `initech`\.$/m);
    });

    it("names the changed properties with old → new values, and what replace and delete put back", () => {
      assert.match(summary, /- \*\*update\*\* field `hs_pipeline`: resource `globex-pipeline`\n  - `name`: `"Sales pipeline"` → `"Deals pipeline"`\n  - `options`: adds `\{"name":"Renewals","value":"renewals"\}`\n/);
      assert.match(summary, /  - `fieldId`: `"hs_sync_limit"` → `"hs_batch_size"` \(replaces\)\n  - `workflowId`: \(none\) → `"wf_hs_contact_sync"` \(replaces\)\n  - the old field `hs_sync_limit` is released: `name` goes back to `"Sync limit"`\n/);
      assert.match(summary, /- \*\*update\*\* workflow `wf_hs_contact_sync` \(Sync contacts\): resource `globex-contact-sync`\n  - `enabled`: `true` → `false`\n/);
      assert.match(summary, /- \*\*update\*\* event `deal.won` \(id `64f0000000000000000000e2`\): resource `deal-won`\n  - `response.deal.currency`: \(none\) → `"EUR"`\n/);
      assert.match(summary, /- \*\*delete\*\* workflow `wf_slack_notify` \(Notify channel\): resource `globex-slack-notify`\n  - `enabled` goes back to `false`\n/);
    });

    it("says that an env value changes, never what it is", () => {
      const globexEnv = sections(summary).get("#### Env values")!;
      assert.match(summary, /resource `globex-quota`\n  - `value`: changes \(secret, not shown\)\n/);
      assert.match(globexEnv, /\*\*delete\*\* env value of definition `64f0000000000000000000d4`/);
      assert.doesNotMatch(summary, /\[secret\]|4dabf18193072939515e22adb298388d|424242|737373|919191|hooks\.example\.com/);
    });

    it("does not depend on the order of the steps", () => {
      const preview = realPreview();
      preview.steps.reverse();
      assert.equal(summarize(preview), golden);
    });

    it("reads a replace shown as three steps (--show-replacement-steps) as one replace", () => {
      const preview = realPreview();
      preview.steps = preview.steps.flatMap((s) =>
        s.op === "replace"
          ? [{ ...s, op: "create-replacement" }, s, { op: "delete-replaced", urn: s.urn, oldState: s.oldState }]
          : [s],
      );
      assert.equal(summarize(preview), golden);
    });
  });

  describe("on hand-made previews", () => {
    it("an empty preview, and a new stack with no resources, change nothing", () => {
      const none = "## Integration platform changes\n\nNo changes to integration platform objects.\n\n";
      assert.ok(summarize({ steps: [] }).startsWith(none));
      const newStack = { steps: [{ op: "create", urn: URN("pulumi:pulumi:Stack", "demo-dev"), newState: { type: "pulumi:pulumi:Stack" } }], changeSummary: { create: 1 } };
      assert.ok(summarize(newStack).startsWith(none));
      assert.doesNotMatch(summarize(newStack), /###/);
    });

    it("a no-op preview (every step `same`) changes nothing", () => {
      const preview = realPreview();
      preview.steps = preview.steps.filter((s) => s.oldState).map((s) => ({ ...s, op: "same", newState: s.oldState }));
      const summary = summarize(preview);
      assert.match(summary, /^No changes to integration platform objects\.$/m);
      assert.doesNotMatch(summary, /###|\*\*/);
    });

    it("never prints a secret: masked, a signature object, plaintext marked secret, or inside a list", () => {
      const signature = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"hunter2-field"' };
      const summary = summarize({
        steps: [
          step("update", "EnvVariableValue", "token", {
            old: { definitionId: "d4", linkedAccountId: "acme", value: "hunter2-old" },
            new: { definitionId: "d4", linkedAccountId: "acme", value: "hunter2-new" },
          }),
          step("update", "ConfigField", "labels", {
            old: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "f", name: signature, labels: [] },
            new: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "f", name: "[secret]", labels: [{ name: "key", value: "[secret]" }] },
          }),
          step("create", "ConfigField", "created", { new: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "g", name: signature } }),
        ],
        diagnostics: [{ urn: URN(TYPE("EnvVariableValue"), "token"), severity: "error", message: "property value value {&{{hunter2-diag}}} has a problem" }],
      });
      assert.doesNotMatch(summary, /hunter2|\[secret\]|4dabf18193072939515e22adb298388d|1b47061264138c4ac30d75fd1eb44270/);
      assert.match(summary, /resource `token`\n  - `value`: changes \(secret, not shown\)\n/);
      // Masked on both sides, `name` cannot be compared; the visible change to `labels` explains the update.
      assert.match(summary, /resource `labels`\n  - `labels`: changes \(secret, not shown\)\n\n/);
      assert.match(summary, /resource `created`\n  - `name`: set \(secret, not shown\)\n/);
      assert.match(summary, /> \*\*The preview failed\*\* with 1 error \(`token`\)\./);
    });

    it("shows values known only after `up`, other providers' resources, and ids with backticks", () => {
      const summary = summarize({
        steps: [
          step("create", "ConfigField", "later", { new: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "odd`id", name: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" } }),
          { op: "create", urn: URN("aws:s3/bucket:Bucket", "archive"), newState: { type: "aws:s3/bucket:Bucket", inputs: {} } },
          { op: "discard", urn: URN(TYPE("WorkflowToggle"), "kept"), oldState: { type: TYPE("WorkflowToggle"), inputs: { slug: "slack", linkedAccountId: "acme", workflowId: "wf" } } },
        ],
      });
      assert.match(summary, /- \*\*create\*\* field ``odd`id``: resource `later`\n  - `name`: \(known after `up`\)\n/);
      assert.match(summary, /### Other resources\n\n- \*\*create\*\* `aws:s3\/bucket:Bucket` `archive`\n/);
      assert.match(summary, /- \*\*discard\*\* workflow `wf`: resource `kept`\n/, "an op this version does not know is still listed");
      assert.match(summary, /\(1 to create, 1 to discard\)/);
    });

    it("warns when one resource releases the object another takes over (a rename without aliases)", () => {
      const field = { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "hs_pipeline", name: "Sales pipeline" };
      const renamed = summarize({
        steps: [
          step("create", "ConfigField", "pipeline-b", { new: field }),
          step("delete", "ConfigField", "pipeline-a", { old: field }),
          step("delete", "ConfigField", "domain", { old: { ...field, fieldId: "hs_api_domain" } }),
        ],
      });
      assert.match(renamed, /> \*\*Warning: an object changes hands\.\*\*/);
      assert.match(renamed, /> - field `hs_pipeline`, linked account `acme`: `pipeline-a` releases it, `pipeline-b` takes it over\n>\n/);
      assert.doesNotMatch(renamed, /`domain` releases/);
      assert.doesNotMatch(summarize(realPreview()), /Warning/, "a replace releases one object and takes over another");
    });

    it("refuses input that is not preview JSON, naming the path", () => {
      assert.throws(() => summarize({}), (e: Error) => e instanceof PreviewJsonError && /^not the output of `pulumi preview --json`: steps: /.test(e.message));
      assert.throws(() => parsePreview({ steps: [{ op: 1, urn: "x" }] }), /steps\[0\]\.op: .*; steps\[0\]\.urn: must be a Pulumi URN/);
      assert.throws(() => summarize([]), /\(the whole document\): /);
    });
  });

  describe("the command line", () => {
    const file = path.join(GOLDEN, "preview.json");

    it("summarize <file> and summarize - (stdin) print the summary", async () => {
      const fromFile = await bin(["summarize", file]);
      assert.deepEqual([fromFile.code, fromFile.stderr], [0, ""]);
      assert.equal(fromFile.stdout, golden);
      const fromStdin = await bin(["summarize", "-"], fs.readFileSync(file, "utf8"));
      assert.equal(fromStdin.stdout, golden);
    });

    it("--help prints the usage and exits 0", async () => {
      const help = await bin(["--help"]);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /^Usage: pulumi-integration-platform summarize <preview\.json \| ->/);
    });

    const bad: [string, string[], string | undefined, RegExp][] = [
      ["no command", [], undefined, /missing command: summarize/],
      ["an unknown command", ["diff", file], undefined, /unknown command "diff": the commands are summarize and import/],
      ["an unknown option", ["summarize", "--json", file], undefined, /Unknown option '--json'/],
      ["no file", ["summarize"], undefined, /summarize takes one argument, the preview JSON file \(or - for standard input\); got 0/],
      ["a missing file", ["summarize", "nowhere.json"], undefined, /cannot read nowhere\.json: no such file/],
      ["empty input", ["summarize", "-"], "", /standard input is empty; pass what `pulumi preview --json` printed on standard output/],
      ["text that is not JSON", ["summarize", "-"], "Previewing update (dev):\n", /standard input is not JSON \(.*\); pass what `pulumi preview --json` printed on standard output, without stderr/],
      ["JSON that is not a preview", ["summarize", "-"], '{"deployment": {}}', /standard input is not the output of `pulumi preview --json`: steps: /],
    ];
    for (const [what, args, stdin, message] of bad) {
      it(`exits 2 with a clear message for ${what}`, async () => {
        const result = await bin(args, stdin);
        assert.equal(result.code, 2, result.stderr);
        assert.equal(result.stdout, "");
        assert.match(result.stderr, /^pulumi-integration-platform: /);
        assert.match(result.stderr, message);
        assert.match(result.stderr, /Run `pulumi-integration-platform --help` for usage\.\n$/);
      });
    }

    it("main() resolves to the exit status, for embedding", async () => {
      const out: string[] = [];
      const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t), readStdin: async () => "{}" };
      assert.equal(await main(["summarize", "-"], io), 2);
      assert.equal(await main(["-h"], io), 0);
    });
  });
});

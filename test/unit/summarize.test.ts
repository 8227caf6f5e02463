// The change summary and its command line. The main input is real: the preview JSON that the e2e
// suite (test/e2e/previewDiff.test.ts) saved from the CLI, with every op for every resource type.
// Hand-made inputs cover what that run cannot show: empty and no-op previews, bad input, secrets.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import {
  breaches,
  GatesFileError,
  mergePreviews,
  parseGates,
  parsePreview,
  PreviewJsonError,
  summarize,
  summarizeBounded,
} from "../../cli/summary";
import { TYPE, type Kind } from "../../harness/fixture";

const GOLDEN = path.join(__dirname, "../e2e/golden");
const BIN = path.join(__dirname, "../../dist/cli/main.js");
const URN = (type: string, name: string) => `urn:pulumi:dev::demo::${type}::${name}`;

type Step = { op: string; urn: string; oldState?: State; newState?: State; replaceReasons?: string[] };
type State = {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  additionalSecretOutputs?: string[];
};

function realPreview(): { steps: Step[]; [key: string]: unknown } {
  return JSON.parse(fs.readFileSync(path.join(GOLDEN, "preview.json"), "utf8"));
}

/** A one-step preview of a platform resource. */
function step(
  op: string,
  type: Kind,
  name: string,
  states: { old?: Record<string, unknown>; new?: Record<string, unknown> },
  extra: Partial<Step> = {},
): Step {
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

/** The folded blocks of a summary, `<details>` to `</details>`, in order. */
function blocks(markdown: string): string[] {
  return markdown.match(/^<details(?: open)?>\n[\s\S]*?^<\/details>\n/gm) ?? [];
}

/** A preview that creates three resources for each of `count` linked accounts, as onboarding many customers does. */
function tenantsPreview(
  count: number,
  idOf = (i: number) => `tenant-${String(i).padStart(4, "0")}`,
): { steps: Step[] } {
  const steps: Step[] = [];
  for (let i = 0; i < count; i++) {
    const account = { slug: "hubspot", linkedAccountId: idOf(i), configId: idOf(i) };
    steps.push(
      step("create", "ConfigField", `${idOf(i)}-pipeline`, {
        new: { ...account, fieldId: "hs_pipeline", name: `${idOf(i)} pipeline` },
      }),
    );
    steps.push(
      step("create", "WorkflowToggle", `${idOf(i)}-deal-alerts`, {
        new: { ...account, workflowId: "wf_hs_deal_alerts", enabled: true },
      }),
    );
    steps.push(
      step("create", "EnvVariableValue", `${idOf(i)}-quota`, {
        new: { definitionId: "d6", linkedAccountId: idOf(i), value: "500" },
      }),
    );
  }
  return { steps };
}

/** The closing line's counts, or undefined when there is none. */
function leftOutLine(
  markdown: string,
): { accounts: number; changes: number; shared: number; other: number } | undefined {
  const line = markdown.trimEnd().split("\n").pop()!;
  if (!line.startsWith("**… and ")) return undefined;
  const n = (pattern: RegExp) => Number(line.match(pattern)?.[1] ?? 0);
  return {
    accounts: n(/(\d+) more linked accounts? /),
    changes: n(/more linked accounts? \((\d+) changes?\)/),
    shared: n(/(\d+) changes? not tied to a linked account/),
    other: n(/(\d+) changes? of other resources/),
  };
}

/** The number of changes a block's summary line counts. */
function changesIn(block: string): number {
  return Number(block.match(/^<summary>.*: (\d+) changes? \(/m)![1]);
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

/** Runs the command line in-process, as cli.test.ts does: what the source does now, without a build. */
async function cli(args: string[], stdin = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = { stdout: "", stderr: "" };
  const code = await main(args, {
    stdout: (text) => (run.stdout += text),
    stderr: (text) => (run.stderr += text),
    readStdin: async () => stdin,
  });
  return { code, ...run };
}

describe("summarize: the change summary of a pull request", () => {
  const golden = fs.readFileSync(path.join(GOLDEN, "summary.md"), "utf8");

  describe("on the real preview JSON", () => {
    const summary = summarize(realPreview());

    it("equals the golden summary the e2e suite checked against the CLI", () => {
      assert.equal(summary, golden);
    });

    it("folds each linked account into a block, its changes by app, with shared objects after every account", () => {
      const outline = summary.split("\n").filter((line) => /^(#|<summary>)/.test(line));
      assert.deepEqual(outline, [
        "## Integration platform changes in stack `dev` of project `pr-preview`",
        "<summary><b>Linked account <code>acme</code></b>: 2 changes (1 to replace, 1 to delete)</summary>",
        "#### App `hubspot`",
        "#### App `slack`",
        "<summary><b>Linked account <code>globex</code></b>: 6 changes (3 to update, 1 to replace, 2 to delete)</summary>",
        "#### App `hubspot`",
        "#### App `slack`",
        "#### Env values",
        "<summary><b>Linked account <code>initech</code></b>: 3 changes (3 to create)</summary>",
        "#### App `hubspot`",
        "#### Env values",
        "<summary><b>Not tied to a linked account</b>: 6 changes (2 to create, 1 to update, 2 to replace, 1 to delete)</summary>",
        "#### Application events",
        "#### Env values (org, workspace and workflow scope)",
      ]);
      // Folded: GitHub renders the Markdown inside only after a blank line, and each block closes before the next opens.
      assert.equal(blocks(summary).length, 4);
      for (const block of blocks(summary))
        assert.match(block, /^<details>\n<summary>.*<\/summary>\n\n[\s\S]*\n\n<\/details>\n$/);
      assert.match(
        summary,
        /^17 changes to integration platform objects \(5 to create, 4 to update, 4 to replace, 4 to delete\) for 3 linked accounts: `acme`, `globex`, `initech`\.$/m,
      );
    });

    it("names the changed properties with old → new values, and what replace and delete put back", () => {
      assert.match(
        summary,
        /- \*\*update\*\* field `hs_pipeline`: resource `globex-pipeline`\n  - `name`: `"Sales pipeline"` → `"Deals pipeline"`\n  - `options`: adds `\{"name":"Renewals","value":"renewals"\}`\n/,
      );
      assert.match(
        summary,
        /  - `fieldId`: `"hs_sync_limit"` → `"hs_batch_size"` \(replaces\)\n  - `workflowId`: \(none\) → `"wf_hs_contact_sync"` \(replaces\)\n  - the old field `hs_sync_limit` is released: `name` goes back to `"Sync limit"`\n/,
      );
      assert.match(
        summary,
        /- \*\*update\*\* workflow `wf_hs_contact_sync` \(Sync contacts\): resource `globex-contact-sync`\n  - `enabled`: `true` → `false`\n/,
      );
      assert.match(
        summary,
        /- \*\*update\*\* event `deal.won` \(id `64f0000000000000000000e2`\): resource `deal-won`\n  - `response.deal.currency`: \(none\) → `"EUR"`\n/,
      );
      assert.match(
        summary,
        /- \*\*delete\*\* workflow `wf_slack_notify` \(Notify channel\): resource `globex-slack-notify`\n  - `enabled` goes back to `false`\n/,
      );
    });

    it("shows a create's declared restoreOnDelete, so the reviewer of the first preview can check what destroy puts back", () => {
      const ids = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
      const summary = summarize({
        steps: [
          step("create", "ConfigField", "pipeline", {
            new: { ...ids, fieldId: "hs_pipeline", name: "Managed", restoreOnDelete: { name: "Pipeline", labels: [] } },
          }),
          step("create", "WorkflowToggle", "alerts", {
            new: { ...ids, workflowId: "wf_a", enabled: true, restoreOnDelete: false },
          }),
          step("create", "EnvVariableValue", "quota", {
            new: { definitionId: "d6", linkedAccountId: "acme", value: "[secret]", restoreOnDelete: "[secret]" },
          }),
        ],
      });
      assert.match(
        summary,
        /resource `pipeline`\n  - `name`: `"Managed"`\n  - `restoreOnDelete`: `\{"name":"Pipeline","labels":\[\]\}`\n/,
      );
      assert.match(summary, /resource `alerts`\n  - `enabled`: `true`\n  - `restoreOnDelete`: `false`\n/);
      assert.match(
        summary,
        /resource `quota`\n  - `restoreOnDelete`: set \(secret, not shown\)\n  - `value`: set \(secret, not shown\)\n/,
      );
    });

    it("says what delete puts back when restoreOnDelete is declared, and what an env value's delete does, never a value", () => {
      const ids = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
      const quota = { definitionId: "d6", linkedAccountId: "acme", value: "[secret]", scope: "linked_account" };
      const preview = {
        steps: [
          step("delete", "ConfigField", "pipeline", {
            old: {
              ...ids,
              fieldId: "hs_pipeline",
              name: "Managed",
              restoreOnDelete: { name: "Pipeline" },
              previous: { name: "Managed" },
            },
          }),
          step("delete", "WorkflowToggle", "alerts", {
            old: { ...ids, workflowId: "wf_a", enabled: true, restoreOnDelete: false, previousEnabled: true },
          }),
          step("delete", "EnvVariableValue", "declared", { old: { ...quota, restoreOnDelete: "[secret]" } }),
          step("delete", "EnvVariableValue", "replaced", {
            old: { ...quota, definitionId: "d5", previousValue: "[secret]", foundExisting: true },
          }),
          step("delete", "EnvVariableValue", "encrypted", {
            old: { ...quota, definitionId: "d4", foundExisting: true },
          }),
          step("delete", "EnvVariableValue", "new", { old: { ...quota, definitionId: "d7" } }),
        ],
      };
      const text = summarize(preview);
      assert.match(text, /resource `pipeline`\n  - `name` goes back to `"Pipeline"` \(`restoreOnDelete`\)\n/);
      assert.match(text, /resource `alerts`\n  - `enabled` goes back to `false` \(`restoreOnDelete`\)\n/);
      assert.match(text, /resource `declared`\n  - the value is set to `restoreOnDelete`\n/);
      assert.match(text, /resource `replaced`\n  - the value it replaced is put back\n/);
      assert.match(
        text,
        /resource `encrypted`\n  - the value stays on the platform \(it replaced an encrypted value that could not be read\)\n/,
      );
      assert.match(text, /resource `new`\n  - the value is deleted from the platform\n/);
    });

    it("says that an env value changes, never what it is", () => {
      const globexEnv = sections(summary).get("#### Env values")!;
      assert.match(summary, /resource `globex-quota`\n  - `value`: changes \(secret, not shown\)\n/);
      assert.match(globexEnv, /\*\*delete\*\* env value of definition `64f0000000000000000000d4`/);
      assert.doesNotMatch(
        summary,
        /\[secret\]|4dabf18193072939515e22adb298388d|424242|737373|919191|hooks\.example\.com/,
      );
    });

    it("does not depend on the order of the steps", () => {
      const preview = realPreview();
      preview.steps.reverse();
      assert.equal(summarize(preview), golden);
    });

    it("reads the native provider's resources as it reads the dynamic ones, and a stack being moved with both", () => {
      // The same preview with every type token (and URN) of the native family: integration-platform:index:<Type>.
      const text = JSON.stringify(realPreview());
      const native = text.replaceAll("pulumi-nodejs:dynamic/integration-platform:", "integration-platform:index:");
      assert.notEqual(native, text);
      assert.equal(summarize(JSON.parse(native)), golden);
      // Half of each family: a stack in the middle of its move lists every resource once.
      const preview = realPreview();
      const nativeSteps = (JSON.parse(native) as { steps: Step[] }).steps;
      preview.steps = preview.steps.map((s, i) => (i % 2 === 0 ? s : nativeSteps[i]));
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
    it("an empty preview, and a new stack with no resources, change nothing; the title names the stack when the preview does", () => {
      const none = "No changes to integration platform objects.\n\n";
      assert.ok(summarize({ steps: [] }).startsWith(`## Integration platform changes\n\n${none}`));
      const newStack = {
        steps: [
          { op: "create", urn: URN("pulumi:pulumi:Stack", "demo-dev"), newState: { type: "pulumi:pulumi:Stack" } },
        ],
        changeSummary: { create: 1 },
      };
      assert.ok(
        summarize(newStack).startsWith(
          `## Integration platform changes in stack \`dev\` of project \`demo\`\n\n${none}`,
        ),
      );
      assert.doesNotMatch(summarize(newStack), /###/);
    });

    it("a no-op preview (every step `same`) changes nothing", () => {
      const preview = realPreview();
      preview.steps = preview.steps.filter((s) => s.oldState).map((s) => ({ ...s, op: "same", newState: s.oldState }));
      const summary = summarize(preview);
      assert.match(summary, /^No changes to integration platform objects\.$/m);
      assert.doesNotMatch(summary, /###|\*\*/);
    });

    it("shows a field value's change per account: a number, a map's key, and a secret one as not shown", () => {
      const account = (id: string, fieldId: string) => ({
        slug: "hubspot",
        linkedAccountId: id,
        configId: id,
        fieldId,
      });
      const summary = summarize({
        steps: [
          step("update", "ConfigField", "limit", {
            old: { ...account("acme", "hs_sync_limit"), value: 250 },
            new: { ...account("acme", "hs_sync_limit"), value: 300 },
          }),
          step("update", "ConfigField", "map", {
            old: { ...account("globex", "hs_property_map"), value: { contact_email: "email" } },
            new: { ...account("globex", "hs_property_map"), value: { contact_email: "firstname" } },
          }),
          step("update", "ConfigField", "domain", {
            old: { ...account("acme", "hs_api_domain"), value: "[secret]" },
            new: { ...account("acme", "hs_api_domain"), value: "[secret]" },
          }),
        ],
      });
      const [acme, globex] = [
        blocks(summary).find((b) => b.includes("<code>acme</code>"))!,
        blocks(summary).find((b) => b.includes("<code>globex</code>"))!,
      ];
      assert.match(acme, /resource `limit`\n  - `value`: `250` → `300`\n/);
      assert.match(acme, /resource `domain`\n  - `value`: changes \(secret, not shown\)\n/);
      assert.match(globex, /resource `map`\n  - `value.contact_email`: `"email"` → `"firstname"`\n/);
    });

    it("never prints a secret: masked, a signature object, plaintext marked secret, or inside a list", () => {
      const signature = {
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        plaintext: '"hunter2-field"',
      };
      const summary = summarize({
        steps: [
          step("update", "EnvVariableValue", "token", {
            old: { definitionId: "d4", linkedAccountId: "acme", value: "hunter2-old" },
            new: { definitionId: "d4", linkedAccountId: "acme", value: "hunter2-new" },
          }),
          step("update", "ConfigField", "labels", {
            old: {
              slug: "hubspot",
              linkedAccountId: "acme",
              configId: "acme",
              fieldId: "f",
              name: signature,
              labels: [],
            },
            new: {
              slug: "hubspot",
              linkedAccountId: "acme",
              configId: "acme",
              fieldId: "f",
              name: "[secret]",
              labels: [{ name: "key", value: "[secret]" }],
            },
          }),
          step("create", "ConfigField", "created", {
            new: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "g", name: signature },
          }),
        ],
        diagnostics: [
          {
            urn: URN(TYPE("EnvVariableValue"), "token"),
            severity: "error",
            message: "property value value {&{{hunter2-diag}}} has a problem",
          },
        ],
      });
      assert.doesNotMatch(
        summary,
        /hunter2|\[secret\]|4dabf18193072939515e22adb298388d|1b47061264138c4ac30d75fd1eb44270/,
      );
      assert.match(summary, /resource `token`\n  - `value`: changes \(secret, not shown\)\n/);
      // Masked on both sides, `name` cannot be compared; the visible change to `labels` explains the update.
      assert.match(summary, /resource `labels`\n  - `labels`: changes \(secret, not shown\)\n\n/);
      assert.match(summary, /resource `created`\n  - `name`: set \(secret, not shown\)\n/);
      assert.match(summary, /> \*\*The preview failed\*\* with 1 error \(`token`\)\./);
    });

    it("shows values known only after `up`, other providers' resources, and ids with backticks", () => {
      const summary = summarize({
        steps: [
          step("create", "ConfigField", "later", {
            new: {
              slug: "hubspot",
              linkedAccountId: "acme",
              configId: "acme",
              fieldId: "odd`id",
              name: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
            },
          }),
          {
            op: "create",
            urn: URN("aws:s3/bucket:Bucket", "archive"),
            newState: { type: "aws:s3/bucket:Bucket", inputs: {} },
          },
          {
            op: "discard",
            urn: URN(TYPE("WorkflowToggle"), "kept"),
            oldState: {
              type: TYPE("WorkflowToggle"),
              inputs: { slug: "slack", linkedAccountId: "acme", workflowId: "wf" },
            },
          },
        ],
      });
      assert.match(summary, /- \*\*create\*\* field ``odd`id``: resource `later`\n  - `name`: \(known after `up`\)\n/);
      assert.match(
        summary,
        /<summary><b>Other resources<\/b>: 1 change \(1 to create\)<\/summary>\n\n- \*\*create\*\* `aws:s3\/bucket:Bucket` `archive`\n/,
      );
      assert.match(
        summary,
        /- \*\*discard\*\* workflow `wf`: resource `kept`\n/,
        "an op this version does not know is still listed",
      );
      assert.match(summary, /\(1 to create, 1 to discard\)/);
    });

    it("warns when one resource releases the object another takes over (a rename without aliases)", () => {
      const field = {
        slug: "hubspot",
        linkedAccountId: "acme",
        configId: "acme",
        fieldId: "hs_pipeline",
        name: "Sales pipeline",
      };
      const renamed = summarize({
        steps: [
          step("create", "ConfigField", "pipeline-b", { new: field }),
          step("delete", "ConfigField", "pipeline-a", { old: field }),
          step("delete", "ConfigField", "domain", { old: { ...field, fieldId: "hs_api_domain" } }),
        ],
      });
      assert.match(renamed, /> \*\*Warning: an object changes hands\.\*\*/);
      assert.match(
        renamed,
        /> - field `hs_pipeline`, linked account `acme`: `pipeline-a` releases it, `pipeline-b` takes it over\n>\n/,
      );
      assert.doesNotMatch(renamed, /`domain` releases/);
      assert.doesNotMatch(summarize(realPreview()), /Warning/, "a replace releases one object and takes over another");
    });

    it("refuses input that is not preview JSON, naming the path in words", () => {
      assert.throws(
        () => summarize({}),
        (e: Error) =>
          e instanceof PreviewJsonError &&
          e.message === "not the output of `pulumi preview --json`: `steps` is missing; it should be a list",
      );
      assert.throws(
        () => parsePreview({ steps: [{ op: 1, urn: "x" }] }),
        /`steps\[0\]\.op` is a number; it should be text; `steps\[0\]\.urn` should start with "urn:pulumi:"/,
      );
      assert.throws(() => summarize([]), /the document is a list; it should be an object/);
    });
  });

  describe("bounded to a pull request comment (summarizeBounded, --max-chars)", () => {
    it("is the full summary when that fits, with no closing line", () => {
      const { bounded, full, leftOut } = summarizeBounded(realPreview());
      assert.equal(full, golden);
      assert.equal(bounded, golden);
      assert.deepEqual(leftOut, { linkedAccounts: 0, accountChanges: 0, sharedChanges: 0, otherChanges: 0 });
      assert.equal(leftOutLine(bounded), undefined);
    });

    it("never exceeds the bound, keeps whole blocks in order, and counts honestly what it leaves out", () => {
      const preview = tenantsPreview(1000);
      const full = summarize(preview);
      const fullBlocks = blocks(full);
      assert.equal(fullBlocks.length, 1000);
      for (const maxChars of [1000, 1001, 2500, 10_000, 60_000, 123_457]) {
        const { bounded, leftOut } = summarizeBounded(preview, maxChars);
        assert.ok(bounded.length <= maxChars, `${bounded.length} characters for a bound of ${maxChars}`);
        const kept = blocks(bounded);
        // A prefix of the full summary's blocks, each one whole: nothing is cut inside a block.
        assert.deepEqual(kept, fullBlocks.slice(0, kept.length), `bound ${maxChars}`);
        assert.equal((bounded.match(/<details/g) ?? []).length, (bounded.match(/<\/details>/g) ?? []).length);
        assert.ok(
          bounded.startsWith(full.slice(0, full.indexOf("<details>"))),
          "the head (title and count line) stays whole",
        );
        assert.match(
          bounded,
          /^3000 changes to integration platform objects \(3000 to create\) for 1000 linked accounts: /m,
        );
        const closing = leftOutLine(bounded)!;
        assert.deepEqual(closing, {
          accounts: 1000 - kept.length,
          changes: 3000 - kept.reduce((n, b) => n + changesIn(b), 0),
          shared: 0,
          other: 0,
        });
        assert.deepEqual(leftOut, {
          linkedAccounts: closing.accounts,
          accountChanges: closing.changes,
          sharedChanges: 0,
          otherChanges: 0,
        });
        assert.ok(kept.length > 0 || maxChars < 1100, `bound ${maxChars} keeps some accounts`);
        assert.ok(
          maxChars - bounded.length < fullBlocks[kept.length].length + 300,
          `bound ${maxChars}: the next block really did not fit`,
        );
        assert.match(bounded, new RegExp(`are left out here, to keep this summary within ${maxChars} characters\\.`));
      }
    });

    it("stops at the first linked account that does not fit, so the ones left out are the last of the list", () => {
      const preview = tenantsPreview(50);
      const big = preview.steps.find((s) => s.urn.endsWith("::tenant-0005-pipeline"))!;
      big.newState!.inputs!.name = "x".repeat(20_000);
      const { bounded, leftOut } = summarizeBounded(preview, 10_000);
      // Smaller accounts after the big one would fit, but "… and 45 more" must mean the last 45.
      assert.deepEqual(
        blocks(bounded).map((b) => b.match(/<code>(.*?)<\/code>/)![1]),
        ["tenant-0000", "tenant-0001", "tenant-0002", "tenant-0003", "tenant-0004"],
      );
      assert.deepEqual(leftOut, { linkedAccounts: 45, accountChanges: 135, sharedChanges: 0, otherChanges: 0 });
    });

    it("keeps the changes tied to no linked account and other resources before more accounts", () => {
      const preview = tenantsPreview(300);
      preview.steps.push(
        step("update", "EnvVariableValue", "max-retries", {
          old: { definitionId: "d2", value: "4" },
          new: { definitionId: "d2", value: "5" },
        }),
        {
          op: "create",
          urn: URN("aws:s3/bucket:Bucket", "archive"),
          newState: { type: "aws:s3/bucket:Bucket", inputs: {} },
        },
      );
      const { bounded } = summarizeBounded(preview, 10_000);
      const kept = blocks(bounded);
      assert.match(kept[kept.length - 2], /^<details>\n<summary><b>Not tied to a linked account<\/b>: 1 change/);
      assert.match(kept[kept.length - 1], /^<details>\n<summary><b>Other resources<\/b>: 1 change/);
      assert.deepEqual(leftOutLine(bounded), {
        accounts: 300 - (kept.length - 2),
        changes: 3 * (300 - (kept.length - 2)),
        shared: 0,
        other: 0,
      });
    });

    it("names every kind of block it leaves out", () => {
      const preview = tenantsPreview(2);
      preview.steps.push(
        step("update", "EnvVariableValue", "max-retries", {
          old: { definitionId: "d2", value: "4" },
          new: { definitionId: "d2", value: "5" },
        }),
        {
          op: "create",
          urn: URN("aws:s3/bucket:Bucket", "archive"),
          newState: { type: "aws:s3/bucket:Bucket", inputs: {} },
        },
      );
      // Every block made too long for the bound: a long field name, an account's and the shared block's.
      for (const s of preview.steps) if (s.newState?.inputs?.name) s.newState.inputs.name = "x".repeat(2000);
      preview.steps.push(
        step("create", "ApplicationEvent", "big", {
          new: { eventId: "e9", name: "big", response: { text: "y".repeat(2000) } },
        }),
      );
      preview.steps.push(
        ...Array.from({ length: 100 }, (_, i) => ({
          op: "create",
          urn: URN("aws:s3/bucket:Bucket", `bucket-${i}-${"z".repeat(30)}`),
          newState: { type: "aws:s3/bucket:Bucket", inputs: {} },
        })),
      );
      const { bounded, leftOut } = summarizeBounded(preview, 1500);
      assert.ok(bounded.length <= 1500);
      assert.equal(blocks(bounded).length, 0);
      assert.deepEqual(leftOut, { linkedAccounts: 2, accountChanges: 6, sharedChanges: 2, otherChanges: 101 });
      assert.match(
        bounded,
        /\*\*… and 2 more linked accounts \(6 changes\), and 2 changes not tied to a linked account, and 101 changes of other resources\*\* are left out here/,
      );
    });

    it("says where the full summary is: a link, a file, or how to write one", () => {
      const preview = tenantsPreview(100);
      assert.match(
        summarizeBounded(preview, 5000, {
          link: "https://github.com/acme/setup/actions/runs/42 (summary)",
          file: "full.md",
        }).bounded,
        /\[The full summary\]\(https:\/\/github\.com\/acme\/setup\/actions\/runs\/42%20%28summary%29\) lists every change\.\n$/,
      );
      assert.match(
        summarizeBounded(preview, 5000, { file: "out/summary-full.md" }).bounded,
        /The full summary, with every change, is in `out\/summary-full\.md`\.\n$/,
      );
      assert.match(
        summarizeBounded(preview, 5000).bounded,
        /Run `pulumi-integration-platform summarize --full <file>` to write the full summary to a file\.\n$/,
      );
      assert.throws(
        () => summarizeBounded(preview, 5000, { link: "javascript:alert(1)" }),
        /is not an http\(s\) address: give an absolute URL/,
      );
    });

    it("lists at most 10 linked accounts in the count line, and shortens a long clash warning", () => {
      const twelve = summarize(tenantsPreview(12, (i) => `tenant-${i}`));
      // In natural order, as the blocks are: tenant-2 before tenant-10.
      assert.match(twelve, /for 12 linked accounts: `tenant-0`, `tenant-1`, `tenant-2`, .*, `tenant-9` and 2 more\.\n/);
      assert.deepEqual(
        blocks(twelve).map((b) => b.match(/<code>(.*?)<\/code>/)![1]),
        Array.from({ length: 12 }, (_, i) => `tenant-${i}`),
      );
      const field = (i: number) => ({
        slug: "hubspot",
        linkedAccountId: "acme",
        configId: "acme",
        fieldId: `f${i}`,
        name: "Name",
      });
      const steps = Array.from({ length: 30 }, (_, i) => [
        step("create", "ConfigField", `new-${i}`, { new: field(i) }),
        step("delete", "ConfigField", `old-${i}`, { old: field(i) }),
      ]).flat();
      steps.push(...tenantsPreview(200).steps);
      const { bounded, full } = summarizeBounded({ steps }, 20_000);
      assert.equal(full.match(/^> - field `f\d+`/gm)!.length, 30, "the full summary lists every pair");
      assert.equal(bounded.match(/^> - field `f\d+`/gm)!.length, 10);
      assert.match(bounded, /^> - … and 20 more, left out here to keep this summary short$/m);
      assert.ok(bounded.length <= 20_000);
    });

    it("falls back to the counts alone when even the head does not fit", () => {
      const long = (i: number) => `${"account-with-a-very-long-id-".repeat(12)}${i}`;
      const { bounded, leftOut } = summarizeBounded(tenantsPreview(12, long), 1000);
      assert.ok(bounded.length <= 1000, `${bounded.length}`);
      assert.match(
        bounded,
        /^## Integration platform changes in stack `dev` of project `demo`\n\n36 changes to integration platform objects \(36 to create\) for 12 linked accounts\.\n\n/,
      );
      assert.deepEqual(leftOut, { linkedAccounts: 12, accountChanges: 36, sharedChanges: 0, otherChanges: 0 });
      assert.doesNotMatch(bounded, /<details>/);
    });

    it("shows a lone block open, and ids in the block's line as HTML text", () => {
      const odd = '<img src=x onerror=alert(1)>&"';
      const one = summarize(tenantsPreview(1, () => odd));
      assert.equal(blocks(one).length, 1);
      assert.match(
        one,
        /^<details open>\n<summary><b>Linked account <code>&#60;img src=x onerror=alert\(1\)&#62;&#38;&#34;<\/code><\/b>: 3 changes \(3 to create\)<\/summary>\n\n/m,
      );
      // Elsewhere the id is in code spans, which Markdown shows as text.
      assert.doesNotMatch(
        one.split("\n").find((line) => line.startsWith("<summary>"))!,
        /<img/,
      );
    });

    it("never shows a secret, in the kept blocks or the full summary", () => {
      const preview = tenantsPreview(400);
      for (const s of preview.steps) if (s.newState?.inputs?.value) s.newState.inputs.value = "[secret]";
      const { bounded, full } = summarizeBounded(preview, 8000);
      for (const text of [bounded, full]) {
        assert.doesNotMatch(text, /\[secret\]/);
        assert.match(text, /`value`: set \(secret, not shown\)/);
      }
    });

    it("refuses a bound below 1000 characters", () => {
      assert.throws(
        () => summarizeBounded(realPreview(), 999),
        (e: Error) => e instanceof RangeError && /at least 1000/.test(e.message),
      );
      assert.throws(() => summarizeBounded(realPreview(), 1500.5), RangeError);
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

    it("--max-chars bounds what it prints, and --full writes every change to a file", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "summarize-"));
      try {
        const preview = path.join(dir, "preview.json");
        fs.writeFileSync(preview, JSON.stringify(tenantsPreview(300)));
        const full = path.join(dir, "summary-full.md");
        const run = await bin([
          "summarize",
          preview,
          "--max-chars",
          "20000",
          "--full",
          full,
          "--full-link",
          "https://github.com/acme/setup/actions/runs/42",
        ]);
        assert.deepEqual([run.code, run.stderr], [0, ""]);
        assert.ok(run.stdout.length <= 20_000, `${run.stdout.length} characters`);
        assert.match(
          run.stdout,
          /\*\*… and \d+ more linked accounts \(\d+ changes\)\*\* are left out here, to keep this summary within 20000 characters\. \[The full summary\]\(https:\/\/github\.com\/acme\/setup\/actions\/runs\/42\) lists every change\.\n$/,
        );
        assert.equal(fs.readFileSync(full, "utf8"), summarize(tenantsPreview(300)));
        // The default bound: 300 accounts take more than 60,000 characters.
        const byDefault = await bin(["summarize", "-"], JSON.stringify(tenantsPreview(300)));
        assert.ok(
          byDefault.stdout.length <= 60_000 && byDefault.stdout.length > 50_000,
          `${byDefault.stdout.length} characters`,
        );
        assert.match(
          byDefault.stdout,
          /within 60000 characters\. Run `pulumi-integration-platform summarize --full <file>` to write the full summary to a file\.\n$/,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("summarize --help prints summarize's usage and exits 0", async () => {
      const help = await bin(["summarize", "--help"]);
      assert.deepEqual([help.code, help.stderr], [0, ""]);
      assert.match(
        help.stdout,
        /^Usage: pulumi-integration-platform summarize <preview\.json \.\.\. \| ->\n +\[--drift \| --drift-against-program\] \[--max-chars <n>\]\n +\[--full <file>\] \[--full-link <url>\]\n/,
      );
      assert.equal((await bin(["summarize", "-h"])).stdout, help.stdout);
    });

    const bad: [string, string[], string | undefined, RegExp][] = [
      ["no command", [], undefined, /missing command: the commands are summarize, import, shards and webhook/],
      [
        "an unknown command",
        ["diff", file],
        undefined,
        /unknown command "diff": the commands are summarize, import, shards and webhook/,
      ],
      ["an unknown option", ["summarize", "--json", file], undefined, /unknown option '--json'/],
      [
        "no file",
        ["summarize"],
        undefined,
        /summarize needs the preview JSON file \(or - for standard input\), or several files, one per stack/,
      ],
      [
        "standard input among files",
        ["summarize", file, "-"],
        undefined,
        /summarize reads standard input \(-\) only as its one input; pass several previews as files/,
      ],
      [
        "shards without a command",
        ["shards", "--shards", "2"],
        undefined,
        /shards needs a command: up, preview, refresh, destroy or move; got none/,
      ],
      [
        "shards without --shards",
        ["shards", "up"],
        undefined,
        /--shards is required: the number of shards \(stacks\), e\.g\. --shards 4/,
      ],
      [
        "shards with a bad rate",
        ["shards", "up", "--shards", "2", "--requests-per-second", "fast"],
        undefined,
        /--requests-per-second must be a number above 0, at most 1000 \(the API key's limit in all\); got "fast"/,
      ],
      [
        "shards move without --to",
        ["shards", "move", "--from", "4"],
        undefined,
        /--to is required: the number of shards \(stacks\), e\.g\. --to 5/,
      ],
      [
        "a move option given to shards",
        ["shards", "up", "--shards", "2", "--from", "4"],
        undefined,
        /unknown option '--from'/,
      ],
      [
        "shards with a bad count",
        ["shards", "up", "--shards", "0"],
        undefined,
        /--shards must be a whole number of shards from 1 to 1000; got "0"/,
      ],
      [
        "shards with a stack name not ending in the shard",
        ["shards", "up", "--shards", "2", "--stack", "{shard}-prod"],
        undefined,
        /--stack must end with \{shard\}/,
      ],
      ["a missing file", ["summarize", "nowhere.json"], undefined, /cannot read nowhere\.json: no such file/],
      [
        "empty input",
        ["summarize", "-"],
        "",
        /standard input is empty; pass what `pulumi preview --json` printed on standard output/,
      ],
      [
        "text that is not JSON",
        ["summarize", "-"],
        "Previewing update (dev):\n",
        /standard input is not JSON \(it starts with "Previewing update \(dev\):"\); pass what `pulumi preview --json` printed on standard output, without stderr: `pulumi preview --json > preview\.json`/,
      ],
      [
        "JSON cut short",
        ["summarize", "-"],
        '{"steps": [',
        /standard input is not JSON \(it ends before the JSON does: the file was cut short\)/,
      ],
      [
        "JSON that is not a preview",
        ["summarize", "-"],
        '{"deployment": {}}',
        /standard input is not the output of `pulumi preview --json`: `steps` is missing; it should be a list\. Run `pulumi preview --json > preview\.json` and pass that file/,
      ],
      [
        "JSON that is not a refresh, for --drift",
        ["summarize", "--drift", "-"],
        "[]",
        /standard input is not the output of `pulumi refresh --preview-only --json`: the document is a list; it should be an object\. Run `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json > refresh\.json` and pass that file/,
      ],
      [
        "JSON that is not a refreshed preview, for --drift-against-program",
        ["summarize", "--drift-against-program", "-"],
        '{"steps": 3}',
        /standard input is not the output of `pulumi preview --refresh --json`: `steps` is a number; it should be a list\. Run `pulumi preview --refresh --expect-no-changes --json > preview\.json` and pass that file/,
      ],
      [
        "a bound that is not a number",
        ["summarize", "--max-chars", "60k", file],
        undefined,
        /--max-chars must be a whole number of characters, at least 1000 \(default 60000\); got "60k"/,
      ],
      [
        "a bound too small for the counts",
        ["summarize", "--max-chars", "999", file],
        undefined,
        /--max-chars must be a whole number of characters, at least 1000 \(default 60000\); got "999"/,
      ],
      [
        "--max-chars without a value",
        ["summarize", file, "--max-chars"],
        undefined,
        /--max-chars needs a value: --max-chars <n>/,
      ],
      [
        "a link that is not http(s)",
        ["summarize", "--full-link", "javascript:alert(1)", file],
        undefined,
        /--full-link "javascript:alert\(1\)" is not an http\(s\) address: give an absolute URL, e\.g\. the CI run's page/,
      ],
      [
        "--full naming the preview itself",
        ["summarize", "--full", file, file],
        undefined,
        /--full names the preview file .*preview\.json itself; give another file, e\.g\. --full summary-full\.md/,
      ],
      [
        "--full in a directory that does not exist",
        ["summarize", "--full", "/nonexistent-dir/full.md", file],
        undefined,
        /cannot write the full summary to \/nonexistent-dir\/full\.md: its directory does not exist; give a file in a directory that exists and can be written/,
      ],
    ];
    for (const [what, args, stdin, message] of bad) {
      it(`exits 2 with a clear message for ${what}`, async () => {
        const result = await bin(args, stdin);
        assert.equal(result.code, 2, result.stderr);
        assert.equal(result.stdout, "");
        assert.match(result.stderr, /^pulumi-integration-platform: /);
        assert.match(result.stderr, message);
        // The hint names the help of the command the problem concerns: `shards move --help`, or the overview's.
        const command = ["summarize", "import", "shards"].includes(args[0])
          ? args[0] === "shards" && args[1] === "move"
            ? "shards move "
            : `${args[0]} `
          : "";
        assert.ok(
          result.stderr.endsWith(`\nRun \`pulumi-integration-platform ${command}--help\` for usage.\n`),
          result.stderr,
        );
        // Neither zod's nor Node's parser's words reach the user.
        assert.doesNotMatch(
          result.stderr,
          /Invalid input|expected|received|To specify a positional argument|ERR_PARSE_ARGS|^error: /m,
        );
      });
    }

    it("main() resolves to the exit status, for embedding", async () => {
      const out: string[] = [];
      const io = {
        stdout: (t: string) => out.push(t),
        stderr: (t: string) => out.push(t),
        readStdin: async () => "{}",
      };
      assert.equal(await main(["summarize", "-"], io), 2);
      assert.equal(await main(["-h"], io), 0);
    });
  });
});

// The drift report reads `pulumi preview --refresh --json`: each resource's refresh step, then the
// step comparing what the refresh found (the old side) with the program (the new side). The
// shapes below are those of a real run (v3.259): see test/e2e/drift.test.ts for the run itself.
describe("summarize --drift-against-program: the platform against the program", () => {
  const account = (id: string) => ({ slug: "hubspot", linkedAccountId: id, configId: id });
  const field = (id: string, name: string) => ({ ...account(id), fieldId: "hs_pipeline", name });
  const toggle = (id: string, enabled: boolean) => ({ ...account(id), workflowId: "wf_hs_deal_alerts", enabled });
  const quota = (id: string, value: unknown) => ({
    definitionId: "d6",
    linkedAccountId: id,
    scope: "linked_account",
    encrypted: false,
    value,
  });
  /** A refreshed preview: a refresh step per resource, then `same` or the drift's op. */
  function refreshed(
    resources: {
      type: Kind;
      name: string;
      platform: Record<string, unknown>;
      declared?: Record<string, unknown>;
      op?: string;
    }[],
  ): { steps: Step[] } {
    const steps: Step[] = resources.map((r) => step("refresh", r.type, r.name, { old: r.platform, new: r.platform }));
    for (const r of resources)
      steps.push(step(r.op ?? "same", r.type, r.name, { old: r.platform, new: r.declared ?? r.platform }));
    return { steps };
  }
  const drifted = refreshed([
    {
      type: "ConfigField",
      name: "t1-pipeline",
      platform: field("t1", "Renamed by hand"),
      declared: field("t1", "t1 pipeline"),
      op: "update",
    },
    {
      type: "WorkflowToggle",
      name: "t2-deal-alerts",
      platform: toggle("t2", false),
      declared: toggle("t2", true),
      op: "update",
    },
    {
      type: "EnvVariableValue",
      name: "t3-quota",
      platform: quota("t3", "[secret]"),
      declared: quota("t3", "[secret]"),
      op: "update",
    },
    { type: "ConfigField", name: "t3-pipeline", platform: field("t3", "t3 pipeline") },
    { type: "ApplicationEvent", name: "signup", platform: { eventId: "e1", name: "Signup" } },
    {
      type: "EnvVariableValue",
      name: "t3-token",
      platform: { ...quota("t3", "[secret]"), definitionId: "d4", encrypted: true },
    },
  ]);

  it("lists, per linked account and app, what the platform holds against what the program declares", () => {
    const report = summarize(drifted, "programDrift");
    assert.match(
      report,
      /^## Integration platform drift in stack `dev` of project `demo`\n\n3 objects on the platform differ from what the program declares \(3 changed\) for 3 linked accounts: `t1`, `t2`, `t3`\.\n/,
    );
    const [t1, t2, t3] = blocks(report);
    assert.match(t1, /<b>Linked account <code>t1<\/code><\/b>: 1 drifted object \(1 changed\)/);
    assert.match(
      t1,
      /#### App `hubspot`\n\n- \*\*changed\*\* field `hs_pipeline`: resource `t1-pipeline`\n  - `name`: the platform holds `"Renamed by hand"`, the program declares `"t1 pipeline"`\n/,
    );
    assert.match(
      t2,
      /- \*\*changed\*\* workflow `wf_hs_deal_alerts`: resource `t2-deal-alerts`\n  - `enabled`: the platform holds `false`, the program declares `true`\n/,
    );
    assert.match(
      t3,
      /#### Env values\n\n- \*\*changed\*\* env value of definition `d6`, scope `linked_account`: resource `t3-quota`\n  - `value`: \[secret\] changed\n/,
    );
    assert.doesNotMatch(report, /t3-pipeline|t3-token|signup/, "objects without drift are not listed");
  });

  it("says what it could not check: events have no read, encrypted values read back redacted", () => {
    assert.match(
      summarize(drifted, "programDrift"),
      /\nNot checked: 1 application event \(the API has no read operation for events\); and the values of 1 encrypted env value \(the platform reads them back redacted; only whether they exist is checked\)\.\n/,
    );
  });

  it("never prints a secret, even from a state file's plaintext secret objects", () => {
    const plaintext = (value: string) => ({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      plaintext: JSON.stringify(value),
    });
    const report = summarize(
      refreshed([
        {
          type: "EnvVariableValue",
          name: "t3-quota",
          platform: quota("t3", plaintext("hunter2")),
          declared: quota("t3", plaintext("correct horse")),
          op: "update",
        },
      ]),
      "programDrift",
    );
    assert.match(report, /`value`: \[secret\] changed/);
    assert.doesNotMatch(report, /hunter2|correct horse/);
  });

  it("an object gone from the platform is missing; one the program no longer declares is named as such", () => {
    const report = summarize(
      {
        steps: [
          step("refresh", "ConfigField", "t4-pipeline", { old: field("t4", "x"), new: field("t4", "x") }),
          step("create", "ConfigField", "t5-pipeline", { new: field("t5", "t5 pipeline") }),
          step("delete", "WorkflowToggle", "t4-deal-alerts", {
            old: { ...toggle("t4", true), restoreOnDelete: false },
          }),
        ],
      },
      "programDrift",
    );
    assert.match(
      report,
      /- \*\*missing\*\* field `hs_pipeline`: resource `t5-pipeline`\n  - not on the platform: `up` creates it as declared\n/,
    );
    assert.match(
      report,
      /- \*\*not declared\*\* workflow `wf_hs_deal_alerts`: resource `t4-deal-alerts`\n  - in the stack but no longer in the program: `up` releases it \(`enabled` goes back to `false` \(`restoreOnDelete`\)\)\n/,
    );
    assert.match(report, /\(1 missing, 1 not declared\)/);
  });

  it("makes one report of several stacks' refreshed previews (the shards of one program)", () => {
    // t1's objects in one stack, the rest in another, as two shards' previews.
    const inStack = (name: string, steps: Step[]) => ({
      steps: steps.map((s) => ({ ...s, urn: s.urn.replace(/^urn:pulumi:[^:]+::/, `urn:pulumi:${name}::`) })),
    });
    const first = inStack(
      "prod-0",
      drifted.steps.filter((s) => s.urn.includes("t1-")),
    );
    const second = inStack(
      "prod-1",
      drifted.steps.filter((s) => !s.urn.includes("t1-")),
    );
    const report = summarize(mergePreviews([parsePreview(first), parsePreview(second)]), "programDrift");
    assert.match(
      report,
      /^## Integration platform drift in 2 stacks \(`prod-0`, `prod-1`\) of project `demo`\n\n3 objects on the platform differ from what the program declares \(3 changed\) for 3 linked accounts: `t1`, `t2`, `t3`\.\n/,
    );
  });

  it("reports no drift when every refreshed object is as declared", () => {
    const report = summarize(
      refreshed([{ type: "ConfigField", name: "t3-pipeline", platform: field("t3", "t3 pipeline") }]),
      "programDrift",
    );
    assert.match(
      report,
      /\n\nNo drift: the platform holds what the program declares, for every object it could read\.\n/,
    );
    assert.equal(blocks(report).length, 0);
  });

  it("refuses a preview without --refresh: it cannot show drift", () => {
    assert.throws(
      () =>
        summarize(
          { steps: [step("same", "ConfigField", "t3-pipeline", { old: field("t3", "x"), new: field("t3", "x") })] },
          "programDrift",
        ),
      (e: Error) =>
        e instanceof PreviewJsonError &&
        /a preview without --refresh, which cannot show drift: run `pulumi preview --refresh --expect-no-changes --json`/.test(
          e.message,
        ),
    );
  });

  it("is bounded like the pull request summary, counting drifted objects", () => {
    const steps: Step[] = [];
    for (let i = 0; i < 400; i++)
      steps.push(
        step("refresh", "ConfigField", `t${i}-pipeline`, { old: field(`t${i}`, "x"), new: field(`t${i}`, "x") }),
        step("update", "ConfigField", `t${i}-pipeline`, {
          old: field(`t${i}`, "Renamed"),
          new: field(`t${i}`, `t${i} pipeline`),
        }),
      );
    const { bounded, full, leftOut, changes } = summarizeBounded({ steps }, 20_000, {}, "programDrift");
    assert.equal(changes, 400);
    assert.ok(bounded.length <= 20_000 && full.length > 20_000);
    assert.equal(blocks(bounded).length + leftOut.linkedAccounts, 400);
    assert.match(
      bounded,
      new RegExp(
        `\\*\\*… and ${leftOut.linkedAccounts} more linked accounts \\(${leftOut.accountChanges} drifted objects\\)\\*\\* are left out here, to keep this summary within 20000 characters\\. Run \`pulumi-integration-platform summarize --drift-against-program --full <file>\` to write the full summary to a file\\.\n$`,
      ),
    );
  });

  describe("its exit status, through the bin", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-"));
    const write = (name: string, data: unknown) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, JSON.stringify(data));
      return file;
    };
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("exits 1 when it finds drift, printing the report", async () => {
      const result = await bin(["summarize", "--drift-against-program", write("drift.json", drifted)]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /^## Integration platform drift/);
      assert.equal(result.stderr, "");
    });

    it("exits 0 when it finds none", async () => {
      const result = await bin([
        "summarize",
        "--drift-against-program",
        write("none.json", refreshed([{ type: "ConfigField", name: "a", platform: field("t3", "x") }])),
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /No drift/);
    });

    it("exits 2 when the preview failed, so drift could not be checked in full", async () => {
      const failed = {
        ...drifted,
        diagnostics: [{ urn: URN(TYPE("ConfigField"), "t9-pipeline"), severity: "error", message: "boom" }],
      };
      const result = await bin(["summarize", "--drift-against-program", write("failed.json", failed)]);
      assert.equal(result.code, 2);
      assert.match(
        result.stdout,
        /> \*\*The preview failed\*\* with 1 error \(`t9-pipeline`\)\. The drift below is incomplete/,
      );
      assert.match(result.stderr, /the preview failed with 1 error, so drift could not be checked in full/);
    });

    it("exits 2 for a preview without --refresh, and for empty input", async () => {
      const unrefreshed = await bin([
        "summarize",
        "--drift-against-program",
        write("plain.json", {
          steps: [step("same", "ConfigField", "a", { old: field("t3", "x"), new: field("t3", "x") })],
        }),
      ]);
      assert.equal(unrefreshed.code, 2);
      assert.match(unrefreshed.stderr, /is a preview without --refresh, which cannot show drift/);
      const empty = await bin(["summarize", "--drift-against-program", "-"], "");
      assert.equal(empty.code, 2);
      assert.match(empty.stderr, /when it printed nothing, the preview failed: its log says why/);
    });
  });
});

describe("summarize --drift: the platform against the last deployment (pulumi refresh --preview-only)", () => {
  const state = (type: Kind, name: string, inputs: Record<string, unknown>) => ({
    type: TYPE(type),
    urn: URN(TYPE(type), name),
    inputs,
    outputs: inputs,
  });
  const toggle = (account: string, enabled: boolean) => ({
    slug: "hubspot",
    linkedAccountId: account,
    configId: account,
    workflowId: "wf_hs_deal_alerts",
    enabled,
  });
  /** A refresh's streamed engine events: every object refreshed, and `drifted` ones with the platform's state. */
  function events(
    objects: { name: string; deployed: Record<string, unknown>; platform?: Record<string, unknown> | "gone" }[],
    diagnostics: Record<string, unknown>[] = [],
  ): string {
    const lines: Record<string, unknown>[] = [{ preludeEvent: { config: {} } }];
    for (const { name, deployed, platform } of objects) {
      const old = state("WorkflowToggle", name, deployed);
      const now = platform === "gone" ? undefined : state("WorkflowToggle", name, platform ?? deployed);
      lines.push({ resourcePreEvent: { metadata: { op: "refresh", urn: old.urn, type: old.type, old, new: old } } });
      lines.push({
        resOutputsEvent: {
          metadata: {
            op: platform === "gone" ? "delete" : platform ? "update" : "same",
            urn: old.urn,
            type: old.type,
            old,
            new: now,
          },
        },
      });
    }
    for (const diagnosticEvent of diagnostics) lines.push({ diagnosticEvent });
    lines.push({ summaryEvent: { resourceChanges: {} } });
    return lines.map((line, sequence) => JSON.stringify({ sequence, timestamp: 1, ...line })).join("\n") + "\n";
  }
  const write = (text: string) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "refresh-")), "refresh.json");
    fs.writeFileSync(file, text);
    return file;
  };

  it("lists what changed or went on the platform since the last deployment, per linked account, and exits 1", async () => {
    const result = await bin([
      "summarize",
      "--drift",
      write(
        events([
          { name: "acme-deal-alerts", deployed: toggle("acme", true), platform: toggle("acme", false) },
          { name: "globex-deal-alerts", deployed: toggle("globex", true), platform: "gone" },
          { name: "initech-deal-alerts", deployed: toggle("initech", true) },
        ]),
      ),
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^2 objects on the platform differ from the last deployment \(1 changed, 1 gone\) for 2 linked accounts/m,
    );
    assert.match(
      result.stdout,
      /- \*\*changed\*\* workflow `wf_hs_deal_alerts`: resource `acme-deal-alerts`\n  - `enabled`: the platform holds `false`, the last deployment set `true`\n/,
    );
    assert.match(
      result.stdout,
      /- \*\*gone\*\* workflow `wf_hs_deal_alerts`: resource `globex-deal-alerts`\n  - gone from the platform/,
    );
    assert.doesNotMatch(result.stdout, /initech/);
  });

  it("reads a native stack's refresh as a dynamic one's", async () => {
    const dynamic = events([
      { name: "acme-deal-alerts", deployed: toggle("acme", true), platform: toggle("acme", false) },
      { name: "globex-deal-alerts", deployed: toggle("globex", true), platform: "gone" },
    ]);
    const native = dynamic.replaceAll("pulumi-nodejs:dynamic/integration-platform:", "integration-platform:index:");
    assert.notEqual(native, dynamic);
    const [fromDynamic, fromNative] = [
      await bin(["summarize", "--drift", write(dynamic)]),
      await bin(["summarize", "--drift", write(native)]),
    ];
    assert.equal(fromNative.code, 1, fromNative.stderr);
    assert.equal(fromNative.stdout, fromDynamic.stdout);
    assert.match(fromNative.stdout, /^2 objects on the platform differ from the last deployment/m);
  });

  it("reports no drift, exit 0, when every object is as deployed", async () => {
    const result = await bin([
      "summarize",
      "--drift",
      write(events([{ name: "acme-deal-alerts", deployed: toggle("acme", true) }])),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /No drift: the platform holds what was last deployed/);
  });

  it("never says 'no drift' for the single JSON document, which counts drift without saying where: it gives the count and exits 1", async () => {
    // What `pulumi refresh --preview-only --json` prints without streaming (v3.259): every step a refresh, its new side the old one.
    const old = state("WorkflowToggle", "acme-deal-alerts", toggle("acme", true));
    const document = {
      steps: [{ op: "refresh", urn: old.urn, oldState: old, newState: old }],
      changeSummary: { same: 1, update: 1 },
    };
    const result = await bin(["summarize", "--drift", write(JSON.stringify(document))]);
    assert.equal(result.code, 1, result.stdout);
    assert.match(
      result.stdout,
      /\*\*1 object on the platform differs from the last deployment\*\*, but the output of `pulumi refresh --preview-only --json` does not say which\. Run it with `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true`/,
    );
    assert.doesNotMatch(result.stdout, /No drift/);
  });

  it("exits 2 for a failed refresh, and for the output of a preview (which compares the program, not the platform)", async () => {
    const failed = await bin([
      "summarize",
      "--drift",
      write(
        events(
          [{ name: "acme-deal-alerts", deployed: toggle("acme", true) }],
          [{ severity: "error", message: "error: boom\n" }],
        ),
      ),
    ]);
    assert.equal(failed.code, 2);
    const preview = {
      steps: [
        step("same", "WorkflowToggle", "acme-deal-alerts", { old: toggle("acme", true), new: toggle("acme", true) }),
      ],
    };
    const wrong = await bin(["summarize", "--drift", write(JSON.stringify(preview))]);
    assert.equal(wrong.code, 2);
    assert.match(
      wrong.stderr,
      /the output of `pulumi preview`, which compares the program with the stack: for drift from the last deployment, run `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json`; for drift from the program, pass this output with --drift-against-program/,
    );
  });

  it("refuses --drift with --drift-against-program", async () => {
    const result = await bin(["summarize", "--drift", "--drift-against-program", "x.json"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--drift and --drift-against-program are two reports/);
  });
});

describe("summarize: resources refused at preview (validation)", () => {
  const failure = (type: string, name: string, reason: string) => ({
    urn: URN(TYPE(type as Kind), name),
    severity: "error",
    message: `error: ${TYPE(type as Kind)} resource '${name}' has a problem: ${reason}\n`,
  });

  it("lists each under its linked account and app with the reason, and other diagnostics only by count", () => {
    const preview = {
      steps: [
        step("update", "ConfigField", "acme-pipeline", {
          old: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "hs_pipeline", name: "a" },
          new: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "hs_pipeline", name: "b" },
        }),
      ],
      diagnostics: [
        failure(
          "ConfigField",
          "typo",
          'fieldId: config "acme" (app "hubspot", linked account "acme") has no field "hs_pipline" global to the app: check fieldId and workflowId',
        ),
        failure(
          "EnvVariableValue",
          "quota",
          'definitionId: no env variable definition has the id "64f0000000000000000000dd"',
        ),
        {
          urn: URN("pulumi:pulumi:Stack", "demo-dev"),
          severity: "error",
          message: "error: an unhandled error with a s3cr3t in it\n",
        },
      ],
    };
    const report = summarize(preview);
    assert.match(
      report,
      /> \*\*The preview failed\*\* with 3 errors .* 2 resources refused at preview are listed below with the reason, under their linked account and app\./,
    );
    assert.match(
      report,
      /<summary><b>Linked account <code>acme<\/code><\/b>: 1 refused at preview, 1 change \(1 to update\)<\/summary>/,
    );
    assert.match(
      report,
      /#### App `hubspot`\n\n- \*\*Refused at preview\*\* `typo` \(ConfigField\): fieldId: config "acme" \(app "hubspot", linked account "acme"\) has no field "hs\\_pipline"/,
    );
    assert.match(
      report,
      /#### Refused at preview\n\n- \*\*Refused at preview\*\* `quota` \(EnvVariableValue\): definitionId: no env variable definition/,
    );
    assert.doesNotMatch(report, /s3cr3t/, "only this package's own check failures are quoted");
  });
});

// Gates on a pull request's reach. The real preview changes 3 linked accounts (acme, globex,
// initech), deletes 4 objects (in acme and globex, and 1 event tied to none) and replaces 4 (in
// acme and globex, and 2 tied to none): the counts each limit is tried at, under and over.
describe("summarize: gates on a pull request's reach (--max-linked-accounts, --max-deletes, --max-replaces, --gates)", () => {
  const golden = fs.readFileSync(path.join(GOLDEN, "summary.md"), "utf8");
  const file = path.join(GOLDEN, "preview.json");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gates-"));
  const write = (name: string, data: unknown) => {
    const written = path.join(dir, name);
    fs.writeFileSync(written, typeof data === "string" ? data : JSON.stringify(data));
    return written;
  };
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The lines before the title: what the gates say. */
  const gateHead = (markdown: string) => markdown.slice(0, markdown.indexOf("## Integration platform changes"));

  /** One stack's preview of a sharded program: a toggle updated in each of its accounts, a field deleted in its first. */
  function shardPreview(stack: string, accounts: string[]): { steps: Step[] } {
    const toggle = (id: string, enabled: boolean) => ({
      slug: "hubspot",
      linkedAccountId: id,
      configId: id,
      workflowId: "wf_hs_deal_alerts",
      enabled,
    });
    const steps = accounts.map((id) =>
      step("update", "WorkflowToggle", `${id}-alerts`, { old: toggle(id, false), new: toggle(id, true) }),
    );
    const first = accounts[0];
    steps.push(
      step("delete", "ConfigField", `${first}-pipeline`, {
        old: { slug: "hubspot", linkedAccountId: first, configId: first, fieldId: "hs_pipeline", name: "Pipeline" },
      }),
    );
    for (const s of steps) s.urn = s.urn.replace("urn:pulumi:dev::", `urn:pulumi:${stack}::`);
    return { steps };
  }

  const each = [
    { limit: "maxLinkedAccounts", option: "--max-linked-accounts", count: 3 },
    { limit: "maxDeletes", option: "--max-deletes", count: 4 },
    { limit: "maxReplaces", option: "--max-replaces", count: 4 },
  ] as const;
  for (const { limit, option, count } of each) {
    it(`${option}: at the limit and under it the change passes, over it is a breach (${count} counted)`, () => {
      for (const [max, over] of [
        [count, false],
        [count + 1, false],
        [count - 1, true],
        [0, true],
      ] as const) {
        const {
          bounded,
          full,
          breaches: found,
        } = summarizeBounded(realPreview(), undefined, {}, "changes", {
          [limit]: max,
        });
        assert.deepEqual(
          found.map((b) => [b.limit, b.option, b.count, b.max]),
          over ? [[limit, option, count, max]] : [],
          `${option} ${max}`,
        );
        const head = gateHead(full);
        if (over)
          assert.match(
            head,
            new RegExp(`^> \\*\\*Over the limits set for this change\\*\\* \\(\`${option} ${max}\`\\):\n> - `),
          );
        else
          assert.match(
            head,
            new RegExp(`^\\*\\*Within the limits set for this change\\*\\* \\(\`${option} ${max}\`\\): `),
          );
        // The gate's lines come first; the summary after them is the one without limits.
        assert.equal(full.slice(head.length), golden);
        assert.equal(bounded, full);
      }
    });
  }

  it("names, first, each limit crossed, its count, its limit and the first linked accounts", () => {
    const limits = { maxLinkedAccounts: 2, maxDeletes: 0, maxReplaces: 0 };
    const { full, breaches: found } = summarizeBounded(realPreview(), undefined, {}, "changes", limits);
    assert.equal(
      gateHead(full),
      [
        "> **Over the limits set for this change** (`--max-linked-accounts 2`, `--max-deletes 0`, `--max-replaces 0`):",
        "> - **3 linked accounts** would change, over the limit of 2 (`--max-linked-accounts`): `acme`, `globex`, `initech`.",
        "> - **4 platform objects to delete**, over the limit of 0 (`--max-deletes`), in 2 linked accounts: `acme`, `globex`; and 1 tied to no linked account.",
        "> - **4 platform objects to replace**, over the limit of 0 (`--max-replaces`), in 2 linked accounts: `acme`, `globex`; and 2 tied to no linked account.",
        "",
        "",
      ].join("\n"),
    );
    assert.deepEqual(
      found.map((b) => [b.limit, b.accounts, b.untied]),
      [
        ["maxLinkedAccounts", ["`acme`", "`globex`", "`initech`"], 0],
        ["maxDeletes", ["`acme`", "`globex`"], 1],
        ["maxReplaces", ["`acme`", "`globex`"], 2],
      ],
    );
    // summarize() takes the same limits, and writes the same full summary.
    assert.equal(summarize(realPreview(), "changes", limits), full);

    // The first 10 accounts, in the count line's natural order, and how many more.
    const twelve = summarizeBounded(
      tenantsPreview(12, (i) => `tenant-${i}`),
      undefined,
      {},
      "changes",
      {
        maxLinkedAccounts: 5,
      },
    );
    assert.match(
      twelve.full,
      /^> - \*\*12 linked accounts\*\* would change, over the limit of 5 \(`--max-linked-accounts`\): `tenant-0`, `tenant-1`, `tenant-2`, .*, `tenant-9` and 2 more\.$/m,
    );
    // Deletes tied to no linked account say so.
    const event = { type: TYPE("ApplicationEvent") };
    const untied = summarize(
      {
        steps: [
          { op: "delete", urn: URN(event.type, "deal-won"), oldState: { ...event, inputs: { slug: "hubspot" } } },
        ],
      },
      "changes",
      { maxDeletes: 0 },
    );
    assert.match(
      gateHead(untied),
      /^> - \*\*1 platform object to delete\*\*, over the limit of 0 \(`--max-deletes`\), tied to no linked account\.$/m,
    );
  });

  it("says in one line that the change is within every limit set, naming them, so a reviewer sees the gate ran", () => {
    const { full, breaches: found } = summarizeBounded(realPreview(), undefined, {}, "changes", {
      maxLinkedAccounts: 50,
      maxDeletes: 4,
      maxReplaces: 10,
    });
    assert.deepEqual(found, []);
    assert.equal(
      gateHead(full),
      "**Within the limits set for this change** (`--max-linked-accounts 50`, `--max-deletes 4`, `--max-replaces 10`): " +
        "3 linked accounts with changes, 4 platform objects to delete, 4 platform objects to replace.\n\n",
    );
    // No limit set, no line: the summary is as it was.
    assert.equal(summarizeBounded(realPreview(), undefined, {}, "changes", {}).full, golden);
  });

  it("counts across every preview given: two shards' stacks, each within the limits alone, over them together", async () => {
    const ids = (from: number) => Array.from({ length: 30 }, (_, i) => `tenant-${from + i}`);
    const one = write("prod-1.json", shardPreview("prod-1", ids(0)));
    const two = write("prod-2.json", shardPreview("prod-2", ids(30)));
    const limits = ["--max-linked-accounts", "50", "--max-deletes", "1"];
    for (const alone of [one, two]) {
      const run = await cli(["summarize", alone, ...limits]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(
        run.stdout,
        /^\*\*Within the limits set for this change\*\* .*: 30 linked accounts with changes, 1 platform object to delete\.\n/,
      );
    }
    const both = await cli(["summarize", one, two, ...limits]);
    assert.equal(both.code, 4, both.stderr);
    assert.equal(both.stderr, "");
    assert.match(
      both.stdout,
      /^> \*\*Over the limits set for this change\*\* \(`--max-linked-accounts 50`, `--max-deletes 1`\):\n> - \*\*60 linked accounts\*\* would change, over the limit of 50 \(`--max-linked-accounts`\): `tenant-0`, `tenant-1`, .*, `tenant-9` and 50 more\.\n> - /,
    );
    assert.match(
      both.stdout,
      /^> - \*\*2 platform objects to delete\*\*, over the limit of 1 \(`--max-deletes`\), in 2 linked accounts: `tenant-0`, `tenant-30`\.$/m,
    );
    assert.match(
      both.stdout,
      /\n\n## Integration platform changes in 2 stacks \(`prod-1`, `prod-2`\) of project `demo`\n/,
    );
    // The pure count agrees with the command's.
    const merged = mergePreviews([shardPreview("prod-1", ids(0)), shardPreview("prod-2", ids(30))].map(parsePreview));
    assert.deepEqual(
      summarizeBounded(merged, undefined, {}, "changes", { maxLinkedAccounts: 50, maxDeletes: 1 }).breaches.map((b) => [
        b.limit,
        b.count,
      ]),
      [
        ["maxLinkedAccounts", 60],
        ["maxDeletes", 2],
      ],
    );
  });

  it("keeps the gate's lines when --max-chars leaves accounts out, and stays within the bound", () => {
    const preview = tenantsPreview(300);
    const {
      bounded,
      leftOut,
      breaches: found,
    } = summarizeBounded(preview, 20_000, {}, "changes", {
      maxLinkedAccounts: 100,
    });
    assert.ok(bounded.length <= 20_000, `${bounded.length}`);
    assert.ok(leftOut.linkedAccounts > 0);
    assert.equal(found.length, 1);
    assert.match(
      bounded,
      /^> \*\*Over the limits set for this change\*\* \(`--max-linked-accounts 100`\):\n> - \*\*300 linked accounts\*\* would change, over the limit of 100 \(`--max-linked-accounts`\): `tenant-0000`, .*, `tenant-0009` and 290 more\.\n\n## /,
    );
    // When even the head does not fit (long ids), the counts alone, in one line, still first.
    const long = (i: number) => `${"account-with-a-very-long-id-".repeat(12)}${i}`;
    const small = summarizeBounded(tenantsPreview(12, long), 1000, {}, "changes", { maxLinkedAccounts: 3 });
    assert.ok(small.bounded.length <= 1000, `${small.bounded.length}`);
    assert.match(
      small.bounded,
      /^> \*\*Over the limits set for this change\*\*: 12 linked accounts with changes, over `--max-linked-accounts 3`\.\n\n## Integration platform changes/,
    );
    assert.doesNotMatch(small.bounded, /account-with-a-very-long-id/);
    // Every limit crossed, ten stacks in the title, every kind of block left out: still within the smallest bound.
    const stacks = Array.from({ length: 10 }, (_, i) =>
      shardPreview(
        `production-shard-${i}`,
        Array.from({ length: 40 }, (_, j) => long(i * 40 + j)),
      ),
    );
    const real = realPreview().steps.map((s) => ({
      ...s,
      urn: s.urn.replace(/^urn:pulumi:dev::pr-preview::/, "urn:pulumi:production-shard-0::demo::"),
    }));
    const worst = mergePreviews([...stacks, { steps: real }].map(parsePreview));
    for (const maxChars of [1000, 1500, 5000]) {
      const limited = summarizeBounded(worst, maxChars, {}, "changes", {
        maxLinkedAccounts: 0,
        maxDeletes: 0,
        maxReplaces: 0,
      });
      assert.ok(limited.bounded.length <= maxChars, `${limited.bounded.length} for ${maxChars}`);
      assert.match(limited.bounded, /^> \*\*Over the limits set for this change\*\*/);
      assert.match(limited.bounded, /\*{0,2}403 linked accounts\*{0,2} (with changes|would change), over /);
      assert.match(limited.bounded, /14 platform objects to delete\*{0,2}, over /);
      assert.match(limited.bounded, /4 platform objects to replace\*{0,2}, over /);
    }
  });

  it("refuses limits on a drift report, and limits that are not whole numbers of at least 0", () => {
    assert.throws(
      () => summarizeBounded(realPreview(), undefined, {}, "programDrift", { maxDeletes: 0 }),
      /limits apply to the changes report only/,
    );
    for (const bad of [-1, 1.5, NaN, Infinity]) {
      assert.throws(() => summarizeBounded(realPreview(), undefined, {}, "changes", { maxReplaces: bad }), RangeError);
    }
    assert.throws(() => breaches([], { maxDeletes: -1 }), RangeError);
  });

  it("reads the gates file with zod, strictly: any of the three limits, whole numbers of at least 0", () => {
    assert.deepEqual(parseGates({}), {});
    assert.deepEqual(parseGates({ maxLinkedAccounts: 50, maxDeletes: 0, maxReplaces: 0 }), {
      maxLinkedAccounts: 50,
      maxDeletes: 0,
      maxReplaces: 0,
    });
    const problems = (data: unknown) => {
      try {
        parseGates(data);
      } catch (error) {
        assert.ok(error instanceof GatesFileError);
        return error.problems;
      }
      assert.fail("accepted");
    };
    assert.deepEqual(problems({ maxDelete: 0 }), [
      "`maxDelete` is not a limit: the limits are `maxLinkedAccounts`, `maxDeletes`, `maxReplaces`",
    ]);
    assert.deepEqual(problems({ maxDeletes: -1 }), ["`maxDeletes` is -1; it should be a whole number, 0 or more"]);
    assert.deepEqual(problems({ maxReplaces: 0.5 }), ["`maxReplaces` is 0.5; it should be a whole number, 0 or more"]);
    assert.deepEqual(problems({ maxLinkedAccounts: "50" }), [
      '`maxLinkedAccounts` is "50"; it should be a whole number, 0 or more',
    ]);
    assert.deepEqual(problems([]), ["the document is a list; it should be an object"]);
  });

  describe("the command line: exit 4 over a limit, flags over the gates file", () => {
    it("exits 4 when a limit is crossed, still printing the summary and writing --full; 0 within the limits", async () => {
      const full = path.join(dir, "summary-full.md");
      const over = await cli(["summarize", file, "--max-deletes", "3", "--full", full]);
      assert.deepEqual([over.code, over.stderr], [4, ""]);
      assert.match(
        over.stdout,
        /^> \*\*Over the limits set for this change\*\* \(`--max-deletes 3`\):\n> - \*\*4 platform objects to delete\*\*/,
      );
      assert.equal(gateHead(over.stdout) + golden, over.stdout);
      assert.equal(fs.readFileSync(full, "utf8"), over.stdout);
      const at = await cli(["summarize", file, "--max-deletes", "4"]);
      assert.deepEqual([at.code, at.stderr], [0, ""]);
      assert.match(
        at.stdout,
        /^\*\*Within the limits set for this change\*\* \(`--max-deletes 4`\): 4 platform objects to delete\.\n\n## /,
      );
      // Standard input, and a failed preview: the exit status is still the gate's.
      const failed = { ...realPreview(), diagnostics: [{ severity: "error", message: "boom" }] };
      const fromStdin = await cli(["summarize", "-", "--max-linked-accounts", "0"], JSON.stringify(failed));
      assert.equal(fromStdin.code, 4);
    });

    it("takes the limits from a gates file, each overridden by its flag", async () => {
      const gates = write("gates.json", { maxLinkedAccounts: 2, maxDeletes: 0 });
      const fromFile = await cli(["summarize", file, "--gates", gates]);
      assert.equal(fromFile.code, 4, fromFile.stderr);
      assert.match(
        fromFile.stdout,
        /^> \*\*Over the limits set for this change\*\* \(`--max-linked-accounts 2`, `--max-deletes 0`\):\n> - \*\*3 linked accounts\*\*.*\n> - \*\*4 platform objects to delete\*\*/,
      );
      // Both flags over the file's values: within them.
      const overridden = await cli([
        "summarize",
        file,
        "--gates",
        gates,
        "--max-linked-accounts",
        "3",
        "--max-deletes",
        "4",
      ]);
      assert.equal(overridden.code, 0, overridden.stderr);
      assert.match(
        overridden.stdout,
        /^\*\*Within the limits set for this change\*\* \(`--max-linked-accounts 3`, `--max-deletes 4`\)/,
      );
      // One flag: the file's other limit still holds, and a flag adds a limit the file does not set.
      const one = await cli(["summarize", file, "--gates", gates, "--max-linked-accounts", "3", "--max-replaces", "4"]);
      assert.equal(one.code, 4);
      assert.match(
        one.stdout,
        /^> \*\*Over the limits set for this change\*\* \(`--max-linked-accounts 3`, `--max-deletes 0`, `--max-replaces 4`\):\n> - \*\*4 platform objects to delete\*\*[^\n]*\n\n## /,
      );
      // An empty file of limits checks nothing, and says so.
      const none = await cli(["summarize", file, "--gates", write("none.json", {})]);
      assert.deepEqual([none.code, none.stdout], [0, golden]);
    });

    const bad: [string, () => string[], RegExp][] = [
      [
        "an unknown key in the gates file",
        () => ["--gates", write("typo.json", { maxLinkedAccounts: 5, maxDelete: 0 })],
        /the gates file .*typo\.json is not a file of limits: `maxDelete` is not a limit: the limits are `maxLinkedAccounts`, `maxDeletes`, `maxReplaces`\. It should hold/,
      ],
      [
        "a negative limit in the gates file",
        () => ["--gates", write("negative.json", { maxDeletes: -1 })],
        /the gates file .*negative\.json is not a file of limits: `maxDeletes` is -1; it should be a whole number, 0 or more/,
      ],
      [
        "a gates file that is not JSON",
        () => ["--gates", write("text.json", "maxDeletes: 0\n")],
        /the gates file .*text\.json is not JSON \(it starts with "maxDeletes: 0"\); it should hold e\.g\. \{"maxLinkedAccounts": 50, "maxDeletes": 0, "maxReplaces": 0\}/,
      ],
      [
        "a gates file that is a list",
        () => ["--gates", write("list.json", [50])],
        /the gates file .*list\.json is not a file of limits: the document is a list; it should be an object/,
      ],
      [
        "a missing gates file",
        () => ["--gates", path.join(dir, "nowhere.json")],
        /cannot read the gates file .*nowhere\.json: no such file; give --gates the JSON file of limits kept in the repository/,
      ],
      ["--gates without a file", () => ["--gates", ""], /--gates must name a JSON file of limits/],
      [
        "a negative --max-deletes",
        () => ["--max-deletes", "-1"],
        /--max-deletes must be a whole number, 0 or more \(there is no limit unless one is given\); got "-1"/,
      ],
      [
        "a fraction for --max-replaces",
        () => ["--max-replaces", "1.5"],
        /--max-replaces must be a whole number, 0 or more \(there is no limit unless one is given\); got "1\.5"/,
      ],
      [
        "a word for --max-linked-accounts",
        () => ["--max-linked-accounts", "fifty"],
        /--max-linked-accounts must be a whole number, 0 or more \(there is no limit unless one is given\); got "fifty"/,
      ],
      [
        "an empty --max-linked-accounts",
        () => ["--max-linked-accounts", " "],
        /--max-linked-accounts must be a whole number, 0 or more .*; got " "/,
      ],
      [
        "a limit with --drift",
        () => ["--drift", "--max-deletes", "0"],
        /--max-deletes limits a pull request's changes, not a drift report: give it without --drift/,
      ],
      [
        "limits and a gates file with --drift-against-program",
        () => ["--drift-against-program", "--max-linked-accounts", "5", "--gates", write("ok.json", {})],
        /--max-linked-accounts and --gates limit a pull request's changes, not a drift report: give them without --drift-against-program/,
      ],
    ];
    for (const [what, args, message] of bad) {
      it(`exits 2 with a clear message for ${what}`, async () => {
        const run = await cli(["summarize", file, ...args()]);
        assert.equal(run.code, 2, run.stderr);
        assert.equal(run.stdout, "");
        assert.match(run.stderr, /^pulumi-integration-platform: /);
        assert.match(run.stderr, message);
        assert.ok(run.stderr.endsWith("\nRun `pulumi-integration-platform summarize --help` for usage.\n"), run.stderr);
        assert.doesNotMatch(run.stderr, /Invalid input|expected|received|Too small|^error: /m);
      });
    }

    it("summarize --help lists the limits, the gates file's format and exit status 4", async () => {
      const help = await cli(["summarize", "--help"]);
      assert.equal(help.code, 0);
      for (const option of ["--max-linked-accounts <n>", "--max-deletes <n>", "--max-replaces <n>", "--gates <file>"])
        assert.match(help.stdout, new RegExp(`\n  ${option} +\\S`), option);
      assert.match(help.stdout, /\{"maxLinkedAccounts": 50, "maxDeletes": 0, "maxReplaces": 0\}/);
      assert.match(
        help.stdout,
        /3 for an unexpected failure;\n4 when the change crosses a limit set with --max-linked-accounts/,
      );
    });
  });
});

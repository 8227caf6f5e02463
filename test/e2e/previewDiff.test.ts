// What a reviewer reads in a pull request, through the real CLI: one change set that updates,
// replaces, creates and deletes each of the four resource types, previewed with `--diff` and with
// `--json`, and summarized by the package's own bin. The outputs are compared with golden files
// in test/e2e/golden/, which are meant to be read; `UPDATE_GOLDEN=1` rewrites them.
// The saved preview.json is also the input of the summarizer's unit tests: real CLI output.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { applicationEventSchema } from "../../emulator";
import { summarize } from "../../cli/summary";
import { Stack } from "../../harness/engine";
import { writeProgram } from "../../harness/program";
import { step, useEmulatorStack } from "../../harness/e2e";

const GOLDEN = path.join(__dirname, "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const TYPES = ["ConfigField", "WorkflowToggle", "ApplicationEvent", "EnvVariableValue"] as const;
/** Env values of the program: all of them secrets, so none may appear in any output. */
const SECRET_VALUES = [
  "424242",
  "737373",
  "919191",
  "crm-token-do-not-print",
  "https://hooks.example.com/slack/notify",
];

// The stack as it is on main (`pullRequest` false) and as the pull request changes it (true).
// Per type: one resource updated, one replaced (an identity property changes), one deleted, one
// created. The created ones include a LinkedAccountSetup, as onboarding a customer would.
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-integration-platform";

const pr = new pulumi.Config().getBoolean("pullRequest") ?? false;
const globex = { slug: "hubspot", linkedAccountId: "globex", configId: "globex" };

new platform.ConfigField("globex-pipeline", {
  ...globex,
  fieldId: "hs_pipeline",
  name: pr ? "Deals pipeline" : "Sales pipeline",
  options: [
    { name: "Sales", value: "sales" },
    { name: "Partners", value: "partners" },
    ...(pr ? [{ name: "Renewals", value: "renewals" }] : []),
  ],
});
new platform.ConfigField("globex-contacts-per-sync", {
  ...globex,
  ...(pr ? { workflowId: "wf_hs_contact_sync", fieldId: "hs_batch_size" } : { fieldId: "hs_sync_limit" }),
  name: "Contacts per sync",
});
if (!pr) {
  new platform.ConfigField("acme-notify-level", { slug: "slack", linkedAccountId: "acme", configId: "acme", fieldId: "slack_notify_level", name: "Alert level" });
}

new platform.WorkflowToggle("globex-contact-sync", { ...globex, workflowId: "wf_hs_contact_sync", enabled: !pr });
new platform.WorkflowToggle("acme-hubspot-workflow", {
  slug: "hubspot", linkedAccountId: "acme", configId: "acme",
  workflowId: pr ? "wf_hs_contact_sync" : "wf_hs_deal_alerts",
  enabled: true,
});
if (!pr) {
  new platform.WorkflowToggle("globex-slack-notify", { slug: "slack", linkedAccountId: "globex", configId: "globex", workflowId: "wf_slack_notify", enabled: true });
}

new platform.ApplicationEvent("deal-won", {
  eventId: "64f0000000000000000000e2",
  name: "deal.won",
  response: { deal: { id: "d_1", amount: 1200, ...(pr ? { currency: "EUR" } : {}) }, owner: "ada" },
  restoreOnDelete: { name: "deal.won", response: { deal: { id: "d_1", amount: 1200 }, owner: "ada" } },
});
new platform.ApplicationEvent("ticket-opened", {
  eventId: pr ? "64f0000000000000000000e4" : "64f0000000000000000000e1",
  name: "ticket.opened",
  response: { ticket: { id: "t_1", priority: "high" } },
});
if (!pr) {
  new platform.ApplicationEvent("message-posted", {
    eventId: "64f0000000000000000000e3",
    name: "message.posted",
    response: { channel: "#general", text: "hello" },
    restoreOnDelete: { name: "message.posted", response: { channel: "#general", text: "hello", attachments: [] } },
  });
} else {
  new platform.ApplicationEvent("invoice-paid", { eventId: "64f0000000000000000000e5", name: "invoice.paid", response: { invoice: { id: "i_1", total: 99.5 } } });
}

new platform.EnvVariableValue("globex-quota", { definitionId: "64f0000000000000000000d6", linkedAccountId: "globex", value: pr ? "737373" : "424242" });
new platform.EnvVariableValue("slack-webhook", {
  definitionId: "64f0000000000000000000d7",
  workflowId: pr ? "wf_hs_deal_alerts" : "wf_slack_notify",
  value: "https://hooks.example.com/slack/notify",
});
if (!pr) {
  new platform.EnvVariableValue("globex-crm-token", { definitionId: "64f0000000000000000000d4", linkedAccountId: "globex", value: "crm-token-do-not-print" });
} else {
  new platform.EnvVariableValue("max-retries", { definitionId: "64f0000000000000000000d2", value: "5" });
  new platform.LinkedAccountSetup("initech-hubspot", {
    linkedAccountId: "initech",
    slug: "hubspot",
    fields: [{ fieldId: "hs_pipeline", name: "Initech pipeline" }],
    workflows: { wf_hs_deal_alerts: true },
    envValues: [{ definitionId: "64f0000000000000000000d6", value: "919191" }],
  });
}
`;

/** Ids the emulator makes up (env values) are random; fixture ids (64f0…) are kept. */
const GENERATED_ID = /\b(?!64f0)[0-9a-f]{24}\b/g;

/**
 * The `--diff` display, made stable: generated ids replaced, and resource blocks in name order
 * (the engine prints them as they finish, in any order, even with --parallel 1). The stack's
 * block stays first; a component's children sort right after it, since their names extend its name.
 */
function normalizeDiff(text: string): string {
  const lines = text.replace(GENERATED_ID, "<generated id>").split("\n");
  const isHeader = (line: string) => /^\s*(?:\+-|[+~-] )?[A-Za-z][\w:/.$-]*: \([a-z-]+\)$/.test(line);
  const firstBlock = lines.findIndex(isHeader);
  const trailer = lines.findIndex((line) => line.startsWith("Resources:"));
  assert.ok(firstBlock >= 0 && trailer > firstBlock, `unexpected preview layout:\n${text}`);
  const blocks: string[][] = [];
  for (const line of lines.slice(firstBlock, trailer)) {
    if (isHeader(line)) blocks.push([line]);
    else blocks[blocks.length - 1].push(line);
  }
  const key = (block: string[]) => {
    if (/pulumi:pulumi:Stack: /.test(block[0])) return "";
    const urn = block.find((line) => line.includes("[urn="));
    return urn ? urn.slice(urn.lastIndexOf("::") + 2) : block[0];
  };
  blocks.sort((a, b) => key(a).localeCompare(key(b)));
  return [...lines.slice(0, firstBlock), ...blocks.flat(), ...lines.slice(trailer)].join("\n");
}

/** Keys whose values hold temporary paths, source line numbers or clocks: dropped or fixed. */
const VOLATILE_KEYS: Record<string, unknown> = {
  sourcePosition: undefined,
  stackTrace: undefined,
  created: "<time>",
  modified: "<time>",
  duration: 0,
};

/** `pulumi preview --json`, made stable: no temp paths, ports, times, random ids; steps in URN order. */
function normalizePreviewJson(text: string, emulatorUrl: string): unknown {
  const stable = text
    .split(emulatorUrl)
    .join("http://127.0.0.1:<emulator port>")
    .replace(GENERATED_ID, "<generated id>")
    .replace(/(pulumi:providers:[\w-]+::default::)[0-9a-f-]{36}/g, "$1<provider id>");
  const preview = JSON.parse(stable, (key, value) => (key in VOLATILE_KEYS ? VOLATILE_KEYS[key] : value)) as {
    steps: { urn: string; replaceReasons?: string[] }[];
  };
  preview.steps.sort((a, b) => a.urn.localeCompare(b.urn));
  // The engine lists a replace's reasons in no fixed order (about one run in ten swaps
  // fieldId and workflowId, though the provider returns them in declaration order).
  for (const step of preview.steps) step.replaceReasons?.sort();
  return preview;
}

/** Compares with the golden file, or rewrites it under UPDATE_GOLDEN=1. */
function golden(file: string, actual: string): void {
  const where = path.join(GOLDEN, file);
  if (UPDATE) {
    fs.mkdirSync(GOLDEN, { recursive: true });
    fs.writeFileSync(where, actual);
    return;
  }
  assert.ok(fs.existsSync(where), `${where} is missing: run with UPDATE_GOLDEN=1 to write it, then review it`);
  assert.equal(
    actual,
    fs.readFileSync(where, "utf8"),
    `${file} differs from the golden file; if the change is intended, run with UPDATE_GOLDEN=1 and review the diff`,
  );
}

function assertNoSecrets(what: string, text: string): void {
  for (const secret of SECRET_VALUES) assert.ok(!text.includes(secret), `${what} shows the secret ${secret}`);
}

describe("e2e: a pull request's preview, as reviewers read it", function () {
  this.timeout(5 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) => new Stack(workspace, writeProgram(workspace.root, "pr-preview", { "index.ts": PROGRAM })),
  );

  before(async () => {
    // The fixture has three events; the change set needs five distinct ones.
    await e2e.emulator.store.update((state) => {
      state.events.push(
        applicationEventSchema.parse({ _id: "64f0000000000000000000e4", name: "ticket.opened", raw_response: "{}" }),
      );
      state.events.push(
        applicationEventSchema.parse({ _id: "64f0000000000000000000e5", name: "invoice.paid", raw_response: "{}" }),
      );
    });
    await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
    await e2e.stack.ok(["config", "set", "--type", "bool", "pullRequest", "true"]);
  });

  // Stands alone: it needs only what the before hook set up, and a preview changes nothing.
  it("preview --diff shows the properties as written, secrets masked (golden preview-diff.txt)", async () => {
    const preview = await e2e.stack.ok(["preview", "--diff"]);
    assertNoSecrets("preview --diff", preview.stdout);
    assert.doesNotMatch(preview.stdout, /__provider/);
    golden("preview-diff.txt", normalizeDiff(preview.stdout));
  });

  // One walk: the summary reads the JSON preview's raw output, and the up is checked against that
  // preview's change counts. It comes after the --diff test, since its last step applies the
  // change set that test previews.
  it("previews the change set as JSON, summarizes that preview, and up applies exactly it", async function () {
    this.timeout(3 * 5 * 60_000);
    let rawJson = "";

    await step(
      "preview --json holds an update, a replace, a create and a delete of every type (golden preview.json)",
      async () => {
        rawJson = (await e2e.stack.ok(["preview", "--json"])).stdout;
        assertNoSecrets("preview --json", rawJson);
        const preview = normalizePreviewJson(rawJson, e2e.emulator.url) as { steps: { op: string; urn: string }[] };
        for (const type of TYPES) {
          const ops = new Set(
            preview.steps.filter((s) => s.urn.includes(`integration-platform:${type}::`)).map((s) => s.op),
          );
          assert.deepEqual([...ops].sort(), ["create", "delete", "replace", "update"], `${type}'s steps`);
        }
        golden("preview.json", JSON.stringify(preview, null, 2) + "\n");
      },
    );

    await step(
      "npx pulumi-integration-platform summarize writes the golden summary.md, from the raw and the saved JSON alike",
      async () => {
        assert.ok(rawJson, "needs the previous step's preview");
        const file = path.join(e2e.workspace.root, "preview.json");
        fs.writeFileSync(file, rawJson);
        const { stdout } = await promisify(execFile)("npx", ["pulumi-integration-platform", "summarize", file], {
          cwd: e2e.stack.dir,
        });
        assertNoSecrets("the summary", stdout);
        golden("summary.md", stdout);
        // The unit tests summarize the saved, normalized JSON: it must read the same.
        assert.equal(summarize(JSON.parse(fs.readFileSync(path.join(GOLDEN, "preview.json"), "utf8"))), stdout);
      },
    );

    await step(
      "summarize's gates on that preview (3 linked accounts, 4 deletes, 4 replaces): under and at every limit exit 0, each one over exits 4 and opens the summary",
      async () => {
        const file = path.join(e2e.workspace.root, "preview.json");
        const gated = async (limits: string[]) => {
          try {
            const { stdout } = await promisify(execFile)(
              "npx",
              ["pulumi-integration-platform", "summarize", file, ...limits],
              {
                cwd: e2e.stack.dir,
              },
            );
            return { code: 0, stdout };
          } catch (error) {
            const { code, stdout } = error as { code?: number; stdout?: string };
            return { code: code ?? -1, stdout: stdout ?? "" };
          }
        };
        const at = { "--max-linked-accounts": 3, "--max-deletes": 4, "--max-replaces": 4 };
        for (const slack of [1, 0]) {
          const limits = Object.entries(at).flatMap(([option, n]) => [option, String(n + slack)]);
          const within = await gated(limits);
          assert.equal(within.code, 0, `${limits.join(" ")}: ${within.stdout.slice(0, 400)}`);
          assert.match(within.stdout, /^\*\*Within the limits set for this change\*\*/);
        }
        const counted: Record<string, RegExp> = {
          "--max-linked-accounts":
            /^> - \*\*3 linked accounts\*\* would change, over the limit of 2 \(`--max-linked-accounts`\): `acme`, `globex`, `initech`\.$/m,
          "--max-deletes":
            /^> - \*\*4 platform objects to delete\*\*, over the limit of 3 \(`--max-deletes`\), in 2 linked accounts: `acme`, `globex`; and 1 tied to no linked account\.$/m,
          "--max-replaces":
            /^> - \*\*4 platform objects to replace\*\*, over the limit of 3 \(`--max-replaces`\), in 2 linked accounts: `acme`, `globex`; and 2 tied to no linked account\.$/m,
        };
        for (const [option, line] of Object.entries(counted)) {
          const limits = Object.entries(at).flatMap(([o, n]) => [o, String(o === option ? n - 1 : n)]);
          const over = await gated(limits);
          assert.equal(over.code, 4, `${limits.join(" ")} exits 4`);
          assert.match(over.stdout, /^> \*\*Over the limits set for this change\*\*/, "the summary opens with it");
          assert.match(over.stdout, line);
          assert.equal(over.stdout.match(/^> - /gm)?.length, 1, `only ${option} is crossed`);
          assertNoSecrets("the gated summary", over.stdout);
        }
      },
    );

    await step("up then applies exactly the previewed change set", async () => {
      const counts = (JSON.parse(rawJson) as { changeSummary: Record<string, number> }).changeSummary;
      const up = await e2e.stack.ok(["up", "--yes", "--skip-preview"]);
      for (const [op, n] of Object.entries({
        create: "created",
        update: "updated",
        delete: "deleted",
        replace: "replaced",
      })) {
        assert.match(up.stdout, new RegExp(`${op === "replace" ? "\\+-" : "[+~-] "}${counts[op]} ${n}`), `${op} count`);
      }
    });
  });
});

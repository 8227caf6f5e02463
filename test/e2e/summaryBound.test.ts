// The change summary of a large multi-tenant change, through the real CLI: 700 linked accounts
// onboarded in one pull request (2,100 creates), previewed with `--json` and summarized by the
// package's bin as the example workflow does. GitHub refuses a comment over 65,536 characters, so
// the summary must stay within its bound, leave out only whole linked accounts and say how many,
// and the full summary (the workflow's step summary) must hold every account. A preview of
// creates is enough: it is what the pull request shows, and it writes nothing.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { Stack } from "../../harness/engine";
import { writeProgram } from "../../harness/program";
import { seedTenants, TENANT_PROGRAM } from "../../harness/tenants";
import { AT_SCALE, step, useEmulatorStack } from "../../harness/e2e";

const TENANTS = 700;
/** TENANT_PROGRAM declares a field, a toggle and an env value per linked account. */
const CHANGES = 3 * TENANTS;
const MAX_CHARS = 60_000;
const RUN_PAGE = "https://github.com/acme/platform-setup/actions/runs/4242";

/** The folded blocks of a summary, `<details>` to `</details>`, in order. */
function blocks(markdown: string): string[] {
  return markdown.match(/^<details(?: open)?>\n[\s\S]*?^<\/details>\n/gm) ?? [];
}

/** The linked account a block is about, from its `<summary>` line. */
function accountOf(block: string): string | undefined {
  return block.match(/^<summary><b>Linked account <code>([^<]*)<\/code><\/b>/m)?.[1];
}

/** The change bullets of a summary or block: one per resource. */
function bullets(markdown: string): number {
  return (markdown.match(/^- \*\*create\*\* /gm) ?? []).length;
}

describe(`${AT_SCALE} e2e: the summary of a ${CHANGES}-change preview fits a pull request comment`, function () {
  this.timeout(20 * 60_000);
  const e2e = useEmulatorStack(
    (workspace) =>
      new Stack(
        workspace,
        writeProgram(workspace.root, "many-tenants", { "index.ts": TENANT_PROGRAM, "tenants.json": "[]" }),
      ),
  );
  let tenants: string[] = [];

  before(async () => {
    assert.equal(e2e.emulator.rateLimit.get().rateLimit, "20/5", "the emulator enforces the documented limit");
    tenants = await seedTenants(e2e.emulator, "tenant", TENANTS);
    fs.writeFileSync(path.join(e2e.stack.dir, "tenants.json"), JSON.stringify(tenants));
  });

  it(`preview --json, then summarize: at most ${MAX_CHARS} characters of whole accounts, an honest closing line, and every account in the full summary`, async () => {
    const previewFile = path.join(e2e.workspace.root, "preview.json");
    const fullFile = path.join(e2e.workspace.root, "summary-full.md");
    let previewSeconds = 0;

    await step(`preview --json shows ${CHANGES} creates, one per resource of ${TENANTS} linked accounts`, async () => {
      e2e.emulator.requests.clear();
      const preview = await e2e.stack.ok(["preview", "--json"]);
      previewSeconds = preview.ms / 1000;
      fs.writeFileSync(previewFile, preview.stdout);
      const { steps } = JSON.parse(preview.stdout) as { steps: { op: string; urn: string }[] };
      const creates = steps.filter((s) => s.op === "create" && s.urn.includes("integration-platform:"));
      assert.ok(creates.length >= 2000, `the issue asks for at least 2,000 changes; the preview has ${creates.length}`);
      assert.equal(creates.length, CHANGES);
    });

    let bounded = "";
    let summarizeSeconds = 0;
    await step(
      "npx pulumi-integration-platform summarize --full --full-link, as the example workflow runs it",
      async () => {
        const started = Date.now();
        const run = await promisify(execFile)(
          "npx",
          ["pulumi-integration-platform", "summarize", previewFile, "--full", fullFile, "--full-link", RUN_PAGE],
          {
            cwd: e2e.stack.dir,
            maxBuffer: 16 * 1024 * 1024,
          },
        );
        summarizeSeconds = (Date.now() - started) / 1000;
        bounded = run.stdout;
      },
    );

    const full = fs.readFileSync(fullFile, "utf8");
    await step("the full summary holds every linked account and every change", async () => {
      const fullBlocks = blocks(full);
      assert.deepEqual(fullBlocks.map(accountOf).sort(), [...tenants].sort());
      assert.equal(bullets(full), CHANGES);
      for (const block of fullBlocks) assert.equal(bullets(block), 3, accountOf(block));
      assert.equal(
        (full.match(/^ {2}- `value`: set \(secret, not shown\)$/gm) ?? []).length,
        TENANTS,
        "every env value is a secret, never shown",
      );
      assert.ok(full.length > MAX_CHARS, `${full.length} characters: the bound has something to do`);
    });

    await step(
      `the comment is at most ${MAX_CHARS} characters, whole blocks only, with the full summary's head`,
      async () => {
        assert.ok(bounded.length <= MAX_CHARS, `${bounded.length} characters`);
        // Filled up to the bound, short of it by less than one more account's block and the closing line's reserve.
        assert.ok(
          MAX_CHARS - bounded.length < 1000,
          `${bounded.length} characters leave ${MAX_CHARS - bounded.length} unused`,
        );
        const kept = blocks(bounded);
        assert.deepEqual(
          kept,
          blocks(full).slice(0, kept.length),
          "the first accounts' blocks, each as in the full summary",
        );
        assert.equal((bounded.match(/<details/g) ?? []).length, kept.length, "no block is cut");
        assert.equal((bounded.match(/<\/details>/g) ?? []).length, kept.length, "no block is cut");
        assert.ok(
          bounded.startsWith(full.slice(0, full.indexOf("<details>"))),
          "the title and the count line as in the full summary",
        );
        assert.match(
          bounded,
          new RegExp(
            `^${CHANGES} changes to integration platform objects \\(${CHANGES} to create\\) for ${TENANTS} linked accounts: `,
            "m",
          ),
        );
      },
    );

    await step(
      "its closing line counts exactly the linked accounts and changes left out, and links the full summary",
      async () => {
        const kept = blocks(bounded);
        const closing = bounded.trimEnd().split("\n").pop()!;
        const match = closing.match(
          /^\*\*… and (\d+) more linked accounts \((\d+) changes\)\*\* are left out here, to keep this summary within (\d+) characters\. \[The full summary\]\((.*)\) lists every change\.$/,
        );
        assert.ok(match, `the closing line: ${closing}`);
        const [, accounts, changes, bound, link] = match;
        assert.equal(Number(accounts), TENANTS - kept.length);
        assert.equal(Number(changes), CHANGES - bullets(bounded));
        assert.equal(Number(bound), MAX_CHARS);
        assert.equal(link, RUN_PAGE);
        const shown = new Set(kept.map(accountOf));
        const leftOut = blocks(full).filter((block) => !shown.has(accountOf(block)));
        assert.equal(leftOut.length, Number(accounts));
        assert.equal(
          leftOut.reduce((n, block) => n + bullets(block), 0),
          Number(changes),
        );
      },
    );

    const calls = e2e.emulator.requests.list().length;
    console.log(
      `      ${CHANGES} changes: preview ${previewSeconds.toFixed(1)} s (${calls} API calls), summarize ${summarizeSeconds.toFixed(1)} s; ` +
        `comment ${bounded.length} characters (${blocks(bounded).length} of ${TENANTS} accounts), full summary ${full.length} characters (${Buffer.byteLength(full)} bytes)`,
    );
  });
});

// The GitHub Actions example users copy, for a TypeScript project and for a Python one: valid YAML, a
// preview job for pull requests that previews once and comments the change summary (bounded to
// GitHub's comment limit, the full one in the step summary), an `up` job for main, and only settings
// the provider reads.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { SETTINGS } from "../../provider/settings";
import { SHARDS_SETTING } from "../../provider/sharding";
import { FLAVOURS, type Flavour, uses, WORKFLOW_FOLDER as FOLDER, type Workflow } from "../support/githubWorkflow";

/** Every file below the examples' folder (the Python project's among them), relative to it. */
function exampleFiles(): string[] {
  return (fs.readdirSync(FOLDER, { recursive: true }) as string[])
    .filter((file) => fs.statSync(path.join(FOLDER, file)).isFile())
    .sort();
}

for (const flavour of FLAVOURS)
  describe(`examples/github-actions/${path.join(flavour.folder, "pulumi.yml")}`, () => workflowChecks(flavour));

/** The checks of one project's pulumi.yml. */
function workflowChecks(flavour: Flavour): void {
  const workflow = parse(fs.readFileSync(path.join(FOLDER, flavour.folder, "pulumi.yml"), "utf8")) as Workflow;

  it("is valid YAML with a preview job on pull requests and an up job on main", () => {
    assert.deepEqual(Object.keys(workflow.on).sort(), ["pull_request", "push"]);
    assert.deepEqual(workflow.on.push?.branches, ["main"]);
    assert.deepEqual(Object.keys(workflow.jobs).sort(), ["preview", "up"]);
    assert.equal(workflow.jobs.preview.if, "github.event_name == 'pull_request'");
    assert.equal(workflow.jobs.up.if, "github.event_name == 'push' && github.ref == 'refs/heads/main'");
  });

  it(`installs the ${flavour.name} program's packages and the tools in both jobs, before Pulumi runs`, () => {
    for (const job of Object.values(workflow.jobs)) {
      const install = flavour.install(job);
      const firstPulumi = job.steps.findIndex(
        (step) => step.uses?.startsWith("pulumi/actions@") || /\bpulumi /.test(step.run ?? ""),
      );
      assert.ok(firstPulumi > job.steps.indexOf(install));
    }
  });

  it("previews once, as JSON, and makes the comment, the step summary and the artifact from that preview", () => {
    const preview = workflow.jobs.preview;
    // pulumi/actions only installs the CLI: no preview, no comment of its own.
    const [pulumi, ...more] = uses(preview, "pulumi/actions");
    assert.equal(more.length, 0);
    assert.equal(pulumi.with?.command, undefined, "no `command`: pulumi/actions installs the CLI only");
    assert.equal(pulumi.with?.["comment-on-pr"], undefined);
    // One preview on the way to the comment; a second runs only to print a failed one's errors.
    const previews = preview.steps.filter((step) => /\bpulumi preview\b/.test(step.run ?? ""));
    const [json, ...reruns] = previews;
    assert.equal(json.run!.trim(), 'pulumi preview --stack "$STACK" --json > preview.json');
    assert.equal(json.id, "preview");
    assert.equal(json["continue-on-error"], true, "a failed preview is still summarized");
    assert.equal(reruns.length, 1);
    assert.equal(reruns[0].if, "${{ !cancelled() && steps.preview.outcome == 'failure' }}");
    assert.match(reruns[0].run!, /\bexit 1\s*$/, "a failed preview fails the job");

    const summarizing = preview.steps.find((step) => step.run?.includes("summarize"))!;
    assert.ok(
      summarizing.run!.includes(
        `\n${flavour.tools} summarize preview.json --full summary-full.md --full-link "$RUN_PAGE" > summary.md\n`,
      ),
      summarizing.run,
    );
    assert.equal(
      summarizing.env?.RUN_PAGE,
      "${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}",
    );
    const [comment] = uses(preview, "marocchino/sticky-pull-request-comment");
    assert.match(String(comment.with?.path), /\/summary\.md$/);
    assert.equal(comment.with?.header, "integration-platform-summary");
    assert.equal(preview.permissions?.["pull-requests"], "write", "commenting needs pull-requests: write");
    const [artifact] = uses(preview, "actions/upload-artifact");
    assert.match(String(artifact.with?.path), /\/summary-full\.md$/);
    assert.equal(artifact.with?.name, "integration-platform-summary");
    const order = [pulumi, json, summarizing, comment, reruns[0]].map((step) => preview.steps.indexOf(step));
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      "install, preview, summarize, comment, then fail on a failed preview",
    );
  });

  describe("the summary step, run as written", () => {
    const BIN = path.join(__dirname, "../../dist/cli/main.js");
    const TYPE = "pulumi-nodejs:dynamic/integration-platform:ConfigField";
    let dir = "";
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "workflow-summary-"));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    /** Runs the step's script in `dir` as GitHub runs it (bash -e -o pipefail), with the package's bin for the tools. */
    function runSummaryStep(
      accounts: number,
      diagnostics: Record<string, unknown>[] = [],
    ): { comment: string; full: string; stepSummary: string } {
      const steps = Array.from({ length: accounts }, (_, i) => ({
        op: "create",
        urn: `urn:pulumi:prod::platform::${TYPE}::tenant-${i}-pipeline`,
        newState: {
          type: TYPE,
          inputs: {
            slug: "hubspot",
            linkedAccountId: `tenant-${i}`,
            configId: `tenant-${i}`,
            fieldId: "hs_pipeline",
            name: `Tenant ${i} pipeline`,
          },
        },
      }));
      fs.writeFileSync(path.join(dir, "preview.json"), JSON.stringify({ steps, diagnostics }));
      const step = workflow.jobs.preview.steps.find((s) => s.run?.includes("summarize"))!;
      // The tools' executable (Python) is the package's CLI joined to Node.js: the same commands.
      const script = step.run!.replaceAll(flavour.tools, `node ${JSON.stringify(BIN)}`);
      assert.notEqual(script, step.run, `the step runs ${flavour.tools}`);
      const stepSummary = path.join(dir, "step-summary.md");
      fs.writeFileSync(stepSummary, "");
      execFileSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
        cwd: dir,
        env: {
          ...process.env,
          RUN_PAGE: "https://github.com/acme/setup/actions/runs/42",
          GITHUB_STEP_SUMMARY: stepSummary,
        },
      });
      const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
      return { comment: read("summary.md"), full: read("summary-full.md"), stepSummary: read("step-summary.md") };
    }

    it("comments at most 60,000 characters, linking this run, and puts every change in the step summary", () => {
      const { comment, full, stepSummary } = runSummaryStep(1000);
      assert.ok(comment.length <= 60_000, `${comment.length} characters`);
      assert.match(
        comment,
        /\*\*… and \d+ more linked accounts \(\d+ changes\)\*\* .*\[The full summary\]\(https:\/\/github\.com\/acme\/setup\/actions\/runs\/42\)/,
      );
      assert.ok(full.length > 60_000 && full.includes("<code>tenant-999</code>"));
      assert.equal(stepSummary, full);
    });

    it("a typo caught at preview: the comment lists the refused resource under its linked account and app, with the reason", () => {
      // As the real CLI reports a field id the platform does not have (test/e2e/previewValidation.test.ts).
      const reason =
        'fieldId: config "tenant-1" (app "hubspot", linked account "tenant-1") has no field "hs_pipline" global to the app: check fieldId and workflowId';
      const { comment } = runSummaryStep(3, [
        {
          urn: `urn:pulumi:prod::platform::${TYPE}::tenant-1-typo`,
          severity: "error",
          message: `error: ${TYPE} resource 'tenant-1-typo' has a problem: ${reason}\n`,
        },
      ]);
      assert.match(comment, /> \*\*The preview failed\*\* with 1 error \(`tenant-1-typo`\)/);
      const block = comment
        .split("<details")
        .find((b) => b.includes("<b>Linked account <code>tenant-1</code></b>: 1 refused at preview, 1 change"))!;
      assert.ok(block, comment);
      assert.match(
        block,
        /#### App `hubspot`\n\n- \*\*Refused at preview\*\* `tenant-1-typo` \(ConfigField\): fieldId: config "tenant-1" .*has no field "hs\\_pipline"/,
      );
    });

    it("past GitHub's 1 MiB step summary, shows the comment there and points at the artifact", () => {
      const { comment, full, stepSummary } = runSummaryStep(5000);
      assert.ok(Buffer.byteLength(full) > 1024 * 1024, `${Buffer.byteLength(full)} bytes`);
      assert.equal(
        stepSummary,
        `${comment}\nThe full summary is over 1 MiB, too large for this page: download the artifact \`integration-platform-summary\` of this run.\n`,
      );
    });
  });

  it("updates with pulumi/actions `up` on the same stack, folder and backend as the preview", () => {
    const [up] = uses(workflow.jobs.up, "pulumi/actions");
    assert.equal(up.with?.command, "up");
    const preview = workflow.jobs.preview.steps.find((step) => step.id === "preview")!;
    assert.equal(up.with?.["stack-name"], "${{ env.STACK }}");
    assert.match(preview.run!, /--stack "\$STACK"/);
    assert.equal(up.with?.["work-dir"], preview["working-directory"]);
    // The preview's CLI reads the backend from PULUMI_BACKEND_URL, set for the whole workflow.
    assert.equal(up.with?.["cloud-url"], "${{ vars.PULUMI_BACKEND_URL }}");
    assert.equal(workflow.env.PULUMI_BACKEND_URL, up.with?.["cloud-url"]);
  });

  it("passes the provider's settings and the backend's credentials from secrets", () => {
    assert.equal(workflow.env.INTEGRATION_PLATFORM_API_KEY, "${{ secrets.INTEGRATION_PLATFORM_API_KEY }}");
    assert.equal(workflow.env.INTEGRATION_PLATFORM_TOKEN, "${{ secrets.INTEGRATION_PLATFORM_TOKEN }}");
    assert.equal(workflow.env.PULUMI_ACCESS_TOKEN, "${{ secrets.PULUMI_ACCESS_TOKEN }}");
    assert.equal(workflow.env.PULUMI_CONFIG_PASSPHRASE, "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
  });
}

describe("examples/github-actions", () => {
  it("names only config keys and environment variables the package reads, in every file of the folder", () => {
    // The provider's settings, and the shard count that a sharded program reads (provider/sharding.ts).
    const configKeys = new Set([...Object.values(SETTINGS).map((s) => s.config), SHARDS_SETTING]);
    const envVars = new Set(Object.values(SETTINGS).map((s) => s.env));
    const files = exampleFiles();
    assert.ok(files.includes(path.join("python", "__main__.py")), "the Python project's files are scanned");
    for (const file of files) {
      const content = fs.readFileSync(path.join(FOLDER, file), "utf8");
      // Comments count: a key named in a comment is one a user will set. Type tokens
      // (pulumi-nodejs:dynamic/integration-platform:ConfigField) are not config keys.
      for (const [key] of content.matchAll(/(?<![\w/-])integration-platform:[A-Za-z]\w*/g)) {
        assert.ok(configKeys.has(key), `${file} names the config key ${key}, which the provider does not read`);
      }
      for (const [name] of content.matchAll(/INTEGRATION_PLATFORM_[A-Z0-9_]+/g)) {
        assert.ok(
          envVars.has(name),
          `${file} names the environment variable ${name}, which the provider does not read`,
        );
      }
    }
    for (const flavour of FLAVOURS) {
      const text = fs.readFileSync(path.join(FOLDER, flavour.folder, "pulumi.yml"), "utf8");
      assert.match(text, /INTEGRATION_PLATFORM_API_KEY/, "the scan found the workflow's settings");
    }
  });

  it("the example stack configs hold only settings that are not secret", () => {
    for (const flavour of FLAVOURS) {
      const stack = parse(fs.readFileSync(path.join(FOLDER, flavour.folder, "Pulumi.prod.yaml"), "utf8")) as {
        config: Record<string, unknown>;
      };
      assert.ok("integration-platform:baseUrl" in stack.config);
      for (const secret of [SETTINGS.apiKey.config, SETTINGS.token.config])
        assert.ok(!(secret in stack.config), `${secret} must not be in plaintext`);
    }
  });
});

// The GitHub Actions example users copy, for a TypeScript project and for a Python one: valid YAML, a
// preview job for pull requests that previews once and comments the change summary (bounded to
// GitHub's comment limit, the full one in the step summary), that fails a change past the limits of
// gates.json unless the pull request has the team's override label, an `up` job for main, and only
// settings the provider reads. Every workflow of the folder installs the Pulumi CLI at the version
// the project tests against, since the change summary and the drift report read the CLI's JSON.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { SETTINGS } from "../../provider/settings";
import { SHARDS_SETTING } from "../../provider/sharding";
import {
  type Context,
  DEFAULT_PULL_REQUEST_TYPES,
  FLAVOURS,
  type Flavour,
  GATE_KEYS,
  limitsStep,
  runStep,
  uses,
  WORKFLOW_FOLDER as FOLDER,
  type Step,
  type Workflow,
  writeToolsStub,
} from "../support/githubWorkflow";

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

  it("previews again when a label is added to the pull request or removed, besides its default events", () => {
    assert.deepEqual(workflow.on.pull_request?.branches, ["main"]);
    // Naming types replaces GitHub's default list: the defaults must be named too.
    assert.deepEqual(workflow.on.pull_request?.types, [...DEFAULT_PULL_REQUEST_TYPES, "labeled", "unlabeled"]);
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
        `\n${flavour.tools} summarize preview.json --gates gates.json --full summary-full.md --full-link "$RUN_PAGE" > summary.md || status=$?\n`,
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
    const limits = limitsStep(preview);
    const order = [pulumi, json, summarizing, artifact, comment, limits, reruns[0]].map((step) =>
      preview.steps.indexOf(step),
    );
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      "install, preview, summarize, keep and comment it, check the limits, then fail on a failed preview",
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

    /**
     * Runs the step's script in `dir` as GitHub runs it (bash -e -o pipefail), with the package's bin
     * for the tools and the example's gates.json in the program's folder.
     */
    function runSummaryStep(
      accounts: number,
      diagnostics: Record<string, unknown>[] = [],
    ): { comment: string; full: string; stepSummary: string; exitCode: string } {
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
      fs.copyFileSync(path.join(FOLDER, flavour.folder, "gates.json"), path.join(dir, "gates.json"));
      // RUN_PAGE is the run https://github.com/acme/setup/actions/runs/42.
      const ran = runStep(workflow.jobs.preview, step, {}, { cwd: dir, script });
      assert.equal(ran.status, 0, ran.log);
      const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
      return {
        comment: read("summary.md"),
        full: read("summary-full.md"),
        stepSummary: ran.stepSummary,
        exitCode: ran.outputs["exit-code"],
      };
    }

    it("comments at most 60,000 characters, linking this run, and puts every change in the step summary", () => {
      const { comment, full, stepSummary, exitCode } = runSummaryStep(1000);
      // 1,000 linked accounts with a change, past gates.json's 50: the summary is still made and
      // commented; the limits' step fails the job.
      assert.equal(exitCode, "4");
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
      const { comment, exitCode } = runSummaryStep(3, [
        {
          urn: `urn:pulumi:prod::platform::${TYPE}::tenant-1-typo`,
          severity: "error",
          message: `error: ${TYPE} resource 'tenant-1-typo' has a problem: ${reason}\n`,
        },
      ]);
      assert.equal(exitCode, "0", "3 linked accounts, within gates.json's limits");
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

  describe("the limits of gates.json, and the label that lets a change past them, run as written", () => {
    const preview = workflow.jobs.preview;
    const summarizing = preview.steps.find((step) => step.run?.includes("summarize"))!;
    let dir = "";
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "workflow-limits-"));
      writeToolsStub(path.join(dir, "tools"));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    /** Runs the summary step with a stand-in for the tools that exits `toolsExit`. */
    function summarize(toolsExit: number) {
      const script = summarizing.run!.replaceAll(flavour.tools, JSON.stringify(path.join(dir, "tools")));
      assert.notEqual(script, summarizing.run, `the step runs ${flavour.tools}`);
      fs.writeFileSync(path.join(dir, "preview.json"), "{}");
      const ran = runStep(preview, summarizing, {}, { cwd: dir, script, env: { TOOLS_EXIT: String(toolsExit) } });
      const comment = path.join(dir, "summary.md");
      return {
        ...ran,
        args: fs.readFileSync(path.join(dir, "tools.args"), "utf8").trimEnd().split("\n"),
        comment: fs.existsSync(comment) ? fs.readFileSync(comment, "utf8") : undefined,
      };
    }

    /** Runs the limits' step after a summary step that wrote `outputs`, on a pull request with `labels`. */
    function checkLimits(outputs: Record<string, string>, labels: string[], vars: Context["vars"] = {}) {
      return runStep(
        preview,
        limitsStep(preview),
        { steps: { [summarizing.id!]: outputs }, labels, vars },
        { cwd: dir },
      );
    }

    /** The summary step, then (when it passed) the limits' step, as the job runs them. */
    function pullRequest(toolsExit: number, labels: string[], vars: Context["vars"] = {}) {
      const summary = summarize(toolsExit);
      assert.equal(summary.status, 0, summary.log);
      return { summary, limits: checkLimits(summary.outputs, labels, vars) };
    }

    it("passes summarize --gates gates.json, the example's file beside Pulumi.yaml, with sane limits", () => {
      const { args } = summarize(0);
      assert.equal(args[args.indexOf("--gates") + 1], "gates.json");
      // The step runs in WORK_DIR, the program's folder: the example's folder.
      assert.equal(summarizing["working-directory"], "${{ env.WORK_DIR }}");
      assert.equal(workflow.env.WORK_DIR, ".");
      const file = path.join(FOLDER, flavour.folder, workflow.env.WORK_DIR, "gates.json");
      assert.ok(fs.existsSync(file), `${file} exists`);
      const gates = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
      assert.deepEqual(gates, { maxLinkedAccounts: 50, maxDeletes: 0, maxReplaces: 0 });
      for (const [key, value] of Object.entries(gates)) {
        assert.ok(GATE_KEYS.includes(key), `${key} is a limit summarize reads`);
        assert.ok(Number.isInteger(value) && (value as number) >= 0, `${key}: ${String(value)}`);
      }
    });

    it("past a limit, without the label: the comment and the step summary are still made, then the job fails naming the label", () => {
      const { summary, limits } = pullRequest(4, ["documentation"]);
      assert.equal(summary.outputs["exit-code"], "4");
      assert.equal(summary.comment, "The summary (the stand-in exited 4).\n");
      assert.equal(summary.stepSummary, "The summary (the stand-in exited 4).\n");
      assert.equal(limits.status, 1, limits.log);
      assert.match(
        limits.log,
        /^::error::The change is past a limit of gates\.json: .* a reviewer adds the label large-change-approved to the pull request/m,
      );
      assert.equal(
        limits.stepSummary,
        "\n**Past a limit of `gates.json`**: add the label `large-change-approved` to let the change through.\n",
      );
      // No label at all, the same.
      assert.equal(pullRequest(4, []).limits.status, 1);
    });

    it("past a limit, with the label: passes, and says the limits were overridden", () => {
      for (const labels of [["large-change-approved"], ["documentation", "Large-Change-Approved"]]) {
        const { limits } = pullRequest(4, labels);
        assert.equal(limits.status, 0, limits.log);
        assert.match(
          limits.log,
          /^::warning::The change is past a limit of gates\.json .*overridden by the label large-change-approved/m,
        );
        assert.match(limits.stepSummary, /overridden by the label `large-change-approved`/);
      }
    });

    it("the team names the label with the repository variable LARGE_CHANGE_LABEL", () => {
      const vars = { LARGE_CHANGE_LABEL: "reach-approved-by-ops" };
      const without = pullRequest(4, ["large-change-approved"], vars).limits;
      assert.equal(without.status, 1, "the default label no longer overrides");
      assert.match(without.log, /::error::.*adds the label reach-approved-by-ops to the pull request/);
      const labelled = pullRequest(4, ["reach-approved-by-ops"], vars).limits;
      assert.equal(labelled.status, 0, labelled.log);
      assert.match(labelled.log, /overridden by the label reach-approved-by-ops/);
    });

    it("within the limits: passes, with or without the label", () => {
      for (const labels of [[], ["large-change-approved"]]) {
        const { summary, limits } = pullRequest(0, labels);
        assert.equal(summary.outputs["exit-code"], "0");
        assert.equal(limits.status, 0, limits.log);
        assert.equal(limits.log, "The change is within the limits of gates.json.\n");
        assert.equal(limits.stepSummary, "");
      }
    });

    it("a summary that failed (2: bad input or usage, 3: a crash) fails its step as before, and the limits' step whatever the labels", () => {
      for (const toolsExit of [2, 3]) {
        const summary = summarize(toolsExit);
        assert.equal(summary.status, toolsExit, "the summary step fails with the tools' status");
        assert.equal(summary.outputs["exit-code"], String(toolsExit));
        const limits = checkLimits(summary.outputs, ["large-change-approved"]);
        assert.equal(limits.status, 1);
        assert.match(limits.log, new RegExp(`^::error::The change summary exited ${toolsExit}: `, "m"));
      }
      // A summary step that wrote no status (it did not run to the end).
      const limits = checkLimits({}, ["large-change-approved"]);
      assert.equal(limits.status, 1);
      assert.match(limits.log, /^::error::The change summary exited without a status/m);
    });

    it("checks the labels the event lists, with no secret and no token", () => {
      const step = limitsStep(preview);
      assert.equal(step.env?.LABELS, "${{ toJSON(github.event.pull_request.labels.*.name) }}");
      assert.equal(step.env?.OVERRIDE_LABEL, "${{ vars.LARGE_CHANGE_LABEL || 'large-change-approved' }}");
      assert.doesNotMatch(JSON.stringify({ job: preview.env, step }), /secrets\.|github\.token|GITHUB_TOKEN/);
      // The label's name reaches the script through the environment, never pasted into it.
      assert.doesNotMatch(step.run!, /\$\{\{/);
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

/** The Pulumi CLI the project's tests run: the version tools/pulumi/go.mod pins (`scripts/ensure-pulumi.sh pinned`). */
function testedCliVersion(): string {
  const goMod = fs.readFileSync(path.join(__dirname, "../../tools/pulumi/go.mod"), "utf8");
  return /\bgithub\.com\/pulumi\/pulumi\/pkg\/v3 v(\d+\.\d+\.\d+)\b/.exec(goMod)![1];
}

/** Whether a step's script runs the `pulumi` CLI (not the tools' `pulumi-integration-platform`). */
const runsCli = (step: Step) => /(?:^|[\s;&|(])pulumi\s/m.test(step.run ?? "");

/**
 * What is wrong with a workflow's pin of the Pulumi CLI: its env must name `version` in
 * PULUMI_CLI_VERSION, under a comment that says why (the reports read the CLI's JSON), every
 * pulumi/actions step must install that version, and a job that runs `pulumi` must install it first.
 */
function pinProblems(text: string, version: string): string[] {
  const workflow = parse(text) as Workflow;
  const problems: string[] = [];
  if (workflow.env?.PULUMI_CLI_VERSION !== version)
    problems.push(`env.PULUMI_CLI_VERSION is ${String(workflow.env?.PULUMI_CLI_VERSION)}, not ${version}`);
  if (!/^ *#.*\bJSON\b.*\n(?: *#.*\n)* *PULUMI_CLI_VERSION:/m.test(text))
    problems.push("no comment above PULUMI_CLI_VERSION says why it is pinned (the CLI's JSON)");
  for (const [name, job] of Object.entries(workflow.jobs)) {
    const installs = uses(job, "pulumi/actions");
    for (const install of installs)
      if (install.with?.["pulumi-version"] !== "${{ env.PULUMI_CLI_VERSION }}")
        problems.push(`${name}: ${install.name ?? install.uses} installs the CLI without pulumi-version`);
    const first = job.steps.findIndex(runsCli);
    if (first >= 0 && !(installs.length > 0 && job.steps.indexOf(installs[0]) < first))
      problems.push(`${name}: runs pulumi before (or without) installing the pinned CLI`);
  }
  return problems;
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

  it("pins the Pulumi CLI in every workflow, in every job that runs it, to the version the project tests against", () => {
    const version = testedCliVersion();
    const workflows = exampleFiles().filter((file) => file.endsWith(".yml"));
    for (const flavour of FLAVOURS)
      for (const file of ["pulumi.yml", "drift.yml", "sharded.yml", "sharded-drift.yml"])
        assert.ok(workflows.includes(path.join(flavour.folder, file)), `${file} of the ${flavour.name} project`);
    for (const file of workflows)
      assert.deepEqual(pinProblems(fs.readFileSync(path.join(FOLDER, file), "utf8"), version), [], file);
    // The check sees a job that installs the newest CLI, one that runs a CLI it did not install,
    // and a workflow that pins another version.
    const pulumiYml = fs.readFileSync(path.join(FOLDER, "pulumi.yml"), "utf8");
    const previewInstall = "preview: Install the Pulumi CLI installs the CLI without pulumi-version";
    const unpinned = pulumiYml.replace(/\n *with:\n *pulumi-version: .*\n/, "\n");
    assert.deepEqual(pinProblems(unpinned, version), [previewInstall]);
    assert.deepEqual(pinProblems(pulumiYml.replaceAll(/pulumi-version: .*/g, "pulumi-version: latest"), version), [
      previewInstall,
      "up: pulumi up installs the CLI without pulumi-version",
    ]);
    const noInstall = pulumiYml.replace(
      /\n *- name: Install the Pulumi CLI\n.*\n *with:\n *pulumi-version: .*\n/,
      "\n",
    );
    assert.deepEqual(pinProblems(noInstall, version), [
      "preview: runs pulumi before (or without) installing the pinned CLI",
    ]);
    assert.deepEqual(pinProblems(pulumiYml, "3.260.0"), [`env.PULUMI_CLI_VERSION is ${version}, not 3.260.0`]);
    assert.deepEqual(pinProblems(pulumiYml.replace(/(?: *#.*\n)+(?= *PULUMI_CLI_VERSION:)/, ""), version), [
      "no comment above PULUMI_CLI_VERSION says why it is pinned (the CLI's JSON)",
    ]);
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

// examples/github-actions/sharded.yml, and python/sharded.yml for a Python program: one job per shard
// in a matrix derived from SHARDS, each paced to its share of the API key's limit, and one change
// summary of every shard's preview, whose limits (gates.json) count across every shard and fail the
// run unless the pull request has the team's override label. createWithoutRead stays off unless the
// repository variable turns it on, so that an imported program's first `up` adopts without a write.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SHARDS_SETTING } from "../../provider/sharding";
import {
  type Context,
  DEFAULT_PULL_REQUEST_TYPES,
  expand,
  FLAVOURS,
  type Flavour,
  limitsStep,
  readWorkflow,
  runStep as runJobStep,
  WORKFLOW_FOLDER,
  type Job,
  type Workflow,
  writeToolsStub,
} from "../support/githubWorkflow";

type MatrixJob = Job & { needs?: string | string[]; strategy?: { matrix: { shard: string }; "fail-fast"?: boolean } };

for (const flavour of FLAVOURS)
  describe(`examples/github-actions/${path.join(flavour.folder, "sharded.yml")}`, () => shardedChecks(flavour));

/** The checks of one project's sharded.yml. */
function shardedChecks(flavour: Flavour): void {
  type Sharded = Workflow & { jobs: Record<string, MatrixJob> };
  const workflow = readWorkflow(path.join(flavour.folder, "sharded.yml")) as Sharded;
  const step = (job: string, name: RegExp) => workflow.jobs[job].steps.find((s) => name.test(s.name ?? s.run ?? ""))!;
  /** Runs a step's script in bash with GITHUB_OUTPUT and GITHUB_ENV files; returns what it wrote to them. */
  const runStep = (script: string, env: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-gha-"));
    try {
      const files = { GITHUB_OUTPUT: path.join(dir, "out"), GITHUB_ENV: path.join(dir, "env") };
      for (const file of Object.values(files)) fs.writeFileSync(file, "");
      // `pulumi` is a stub that records its arguments: the step's own logic is what is tested.
      fs.writeFileSync(path.join(dir, "pulumi"), `#!/bin/sh\necho "$@" >> "${dir}/pulumi.log"\n`, { mode: 0o755 });
      execFileSync("bash", ["-euo", "pipefail", "-c", script], {
        env: { ...process.env, ...env, ...files, PATH: `${dir}:${process.env.PATH}` },
      });
      const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
      return {
        output: read(files.GITHUB_OUTPUT),
        env: read(files.GITHUB_ENV),
        pulumi: read(path.join(dir, "pulumi.log")),
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it("derives the matrix of shards from SHARDS, for the preview and the up jobs", () => {
    const list = runStep(workflow.jobs.shards.steps[0].run!, { SHARDS: "4" }).output;
    assert.equal(list.trim(), "list=[0,1,2,3]");
    assert.equal(runStep(workflow.jobs.shards.steps[0].run!, { SHARDS: "1" }).output.trim(), "list=[0]");
    for (const job of ["preview", "up"]) {
      assert.equal(workflow.jobs[job].strategy?.matrix.shard, "${{ fromJSON(needs.shards.outputs.list) }}");
      assert.equal(workflow.jobs[job].strategy?.["fail-fast"], false);
    }
  });

  it(`installs the ${flavour.name} program's packages and the tools in every job but the matrix's, before they run`, () => {
    assert.deepEqual(
      workflow.jobs.shards.steps.map((s) => s.uses ?? "run"),
      ["run"],
      "the matrix needs no checkout",
    );
    for (const job of ["preview", "summary", "up"]) {
      const steps = workflow.jobs[job].steps;
      const install = flavour.install(workflow.jobs[job]);
      const first = steps.findIndex((s) => /(?:^|\s)(?:pulumi|\S*pulumi-integration-platform) /m.test(s.run ?? ""));
      assert.ok(steps.indexOf(install) < first, `${job}: installed before it runs pulumi or the tools`);
    }
  });

  it("places each stack among the shards and paces it to an equal part of the key's 20 requests per second", () => {
    for (const job of ["preview", "up"]) {
      const script = step(job, /place among the shards/).run!.replaceAll("${{ matrix.shard }}", "2");
      const ran = runStep(script, { SHARDS: "4", STACK_PREFIX: "prod-", REQUESTS_PER_SECOND: "20" });
      assert.match(ran.env, /^STACK=prod-2$/m);
      assert.match(ran.env, /^INTEGRATION_PLATFORM_REQUESTS_PER_SECOND=5$/m);
      assert.match(ran.pulumi, new RegExp(`stack select (--create )?prod-2\\nconfig set ${SHARDS_SETTING} 4\\n$`));
    }
  });

  it("leaves createWithoutRead off unless the repository variable turns it on: an imported program's first up adopts without a write", () => {
    const setting = workflow.env.INTEGRATION_PLATFORM_CREATE_WITHOUT_READ;
    assert.equal(expand(setting, {}), "false", "off by default");
    assert.equal(expand(setting, { vars: { INTEGRATION_PLATFORM_CREATE_WITHOUT_READ: "true" } }), "true");
    for (const job of Object.values(workflow.jobs))
      for (const step of job.steps)
        assert.equal(step.env?.INTEGRATION_PLATFORM_CREATE_WITHOUT_READ, undefined, "no step turns it on by itself");
  });

  it("summarizes every shard's preview in one comment, and fails when a shard's preview failed or is missing", () => {
    const summary = workflow.jobs.summary;
    assert.equal(summary.needs, "preview");
    const script = step("summary", /One summary/).run!;
    assert.ok(
      script.includes(
        `\n${flavour.tools} summarize previews/preview-*.json --gates gates.json --full summary-full.md `,
      ),
      script,
    );
    assert.match(script, /test "\$\(ls previews\/preview-\*\.json \| wc -l\)" -eq "\$SHARDS"/);
    assert.equal(step("summary", /Fail when/).if, "${{ needs.preview.result != 'success' }}");
    assert.equal(workflow.jobs.up.concurrency?.group, "integration-platform-up-${{ matrix.shard }}");
  });

  it("validates at the pull request's preview, not again at up, where it would cost the read createWithoutRead saves", () => {
    assert.equal(step("up", /pulumi up/).env?.INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW, "false");
    assert.equal(
      step("preview", /pulumi preview/).env?.INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW,
      undefined,
      "the preview validates (the default)",
    );
  });

  it("previews again when a label is added to the pull request or removed, besides its default events", () => {
    assert.deepEqual(workflow.on.pull_request?.branches, ["main"]);
    assert.deepEqual(workflow.on.pull_request?.types, [...DEFAULT_PULL_REQUEST_TYPES, "labeled", "unlabeled"]);
  });

  describe("the limits of gates.json, counted across every shard, and the label that lets a change past them, run as written", () => {
    const summary = workflow.jobs.summary;
    const summarizing = step("summary", /One summary/);
    const TOOLS = flavour.tools;
    let dir = "";
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharded-limits-"));
      writeToolsStub(path.join(dir, "tools"));
      // What the download step gathers: every shard's preview.
      fs.mkdirSync(path.join(dir, "previews"));
      for (let shard = 0; shard < Number(workflow.env.SHARDS); shard++)
        fs.writeFileSync(path.join(dir, "previews", `preview-${shard}.json`), "{}");
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    /** Runs the summary step with a stand-in for the tools that exits `toolsExit`. */
    function summarize(toolsExit: number) {
      const script = summarizing.run!.replaceAll(TOOLS, JSON.stringify(path.join(dir, "tools")));
      assert.notEqual(script, summarizing.run, `the step runs ${TOOLS}`);
      const ran = runJobStep(
        summary,
        summarizing,
        {},
        {
          cwd: dir,
          script,
          env: { SHARDS: workflow.env.SHARDS, TOOLS_EXIT: String(toolsExit) },
        },
      );
      const args = path.join(dir, "tools.args");
      return { ...ran, args: fs.existsSync(args) ? fs.readFileSync(args, "utf8").trimEnd().split("\n") : [] };
    }

    /** The summary step, then (when it passed) the limits' step, as the job runs them. */
    function pullRequest(toolsExit: number, labels: string[], vars: Context["vars"] = {}) {
      const ran = summarize(toolsExit);
      assert.equal(ran.status, 0, ran.log);
      const context = { steps: { [summarizing.id!]: ran.outputs }, labels, vars };
      return { summary: ran, limits: runJobStep(summary, limitsStep(summary), context, { cwd: dir }) };
    }

    it("one summarize of every shard's preview, with --gates gates.json, the example's file beside Pulumi.yaml", () => {
      const { args } = summarize(0);
      assert.deepEqual(args.slice(0, 6), [
        "summarize",
        "previews/preview-0.json",
        "previews/preview-1.json",
        "previews/preview-2.json",
        "previews/preview-3.json",
        "--gates",
      ]);
      assert.equal(args[args.indexOf("--gates") + 1], "gates.json");
      assert.equal(summarizing["working-directory"], "${{ env.WORK_DIR }}");
      assert.equal(workflow.env.WORK_DIR, ".");
      const gates = path.join(WORKFLOW_FOLDER, workflow.env.WORK_DIR, "gates.json");
      assert.deepEqual(JSON.parse(fs.readFileSync(gates, "utf8")), {
        maxLinkedAccounts: 50,
        maxDeletes: 0,
        maxReplaces: 0,
      });
    });

    it("a missing shard's preview still fails the summary step, before summarize runs", () => {
      fs.rmSync(path.join(dir, "previews", "preview-3.json"));
      const ran = summarize(0);
      assert.notEqual(ran.status, 0);
      assert.deepEqual(ran.args, [], "summarize did not run");
    });

    it("past a limit, without the label: the summary is kept and commented, then the job's last step fails naming the label", () => {
      const { summary: ran, limits } = pullRequest(4, ["documentation"]);
      assert.equal(ran.outputs["exit-code"], "4");
      assert.equal(fs.readFileSync(path.join(dir, "summary.md"), "utf8"), "The summary (the stand-in exited 4).\n");
      assert.equal(ran.stepSummary, "The summary (the stand-in exited 4).\n");
      assert.equal(limits.status, 1, limits.log);
      assert.match(
        limits.log,
        /^::error::The change is past a limit of gates\.json: .* a reviewer adds the label large-change-approved to the pull request/m,
      );
      const steps = summary.steps;
      const comment = steps.findIndex((s) => s.uses?.startsWith("marocchino/sticky-pull-request-comment@"));
      const artifact = steps.findIndex((s) => s.uses?.startsWith("actions/upload-artifact@"));
      assert.ok(steps.indexOf(limitsStep(summary)) > Math.max(comment, artifact), "after the comment and the artifact");
      assert.equal(steps.indexOf(limitsStep(summary)), steps.length - 1, "the last step");
    });

    it("past a limit, with the label (the team's, from LARGE_CHANGE_LABEL, or large-change-approved): passes, saying it was overridden", () => {
      const labelled = pullRequest(4, ["large-change-approved"]).limits;
      assert.equal(labelled.status, 0, labelled.log);
      assert.match(labelled.log, /^::warning::.*overridden by the label large-change-approved/m);
      const vars = { LARGE_CHANGE_LABEL: "fleet-wide-ok" };
      assert.equal(pullRequest(4, ["large-change-approved"], vars).limits.status, 1);
      const team = pullRequest(4, ["fleet-wide-ok"], vars).limits;
      assert.equal(team.status, 0, team.log);
      assert.match(team.log, /overridden by the label fleet-wide-ok/);
    });

    it("within the limits: passes; a summary that failed (2): fails, label or not", () => {
      const within = pullRequest(0, []).limits;
      assert.equal(within.status, 0, within.log);
      assert.equal(within.log, "The change is within the limits of gates.json.\n");
      const failed = summarize(2);
      assert.equal(failed.status, 2, "the summary step fails as before");
      const limits = runJobStep(
        summary,
        limitsStep(summary),
        { steps: { [summarizing.id!]: failed.outputs }, labels: ["large-change-approved"] },
        { cwd: dir },
      );
      assert.equal(limits.status, 1);
      assert.match(limits.log, /^::error::The change summary exited 2: /m);
    });
  });
}

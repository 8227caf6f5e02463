// examples/github-actions/sharded.yml: one job per shard in a matrix derived from SHARDS, each
// paced to its share of the API key's limit, and one change summary of every shard's preview.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { SHARDS_SETTING } from "../../provider/sharding";
import { WORKFLOW_FOLDER, type Job, type Workflow } from "../support/githubWorkflow";

type MatrixJob = Job & { needs?: string | string[]; strategy?: { matrix: { shard: string }; "fail-fast"?: boolean } };

describe("examples/github-actions/sharded.yml", () => {
  const workflow = parse(fs.readFileSync(path.join(WORKFLOW_FOLDER, "sharded.yml"), "utf8")) as Workflow & {
    jobs: Record<string, MatrixJob>;
  };
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

  it("places each stack among the shards and paces it to an equal part of the key's 20 requests per second", () => {
    for (const job of ["preview", "up"]) {
      const script = step(job, /place among the shards/).run!.replaceAll("${{ matrix.shard }}", "2");
      const ran = runStep(script, { SHARDS: "4", STACK_PREFIX: "prod-", REQUESTS_PER_SECOND: "20" });
      assert.match(ran.env, /^STACK=prod-2$/m);
      assert.match(ran.env, /^INTEGRATION_PLATFORM_REQUESTS_PER_SECOND=5$/m);
      assert.match(ran.pulumi, new RegExp(`stack select (--create )?prod-2\\nconfig set ${SHARDS_SETTING} 4\\n$`));
    }
    assert.equal(workflow.env.INTEGRATION_PLATFORM_CREATE_WITHOUT_READ, "true");
  });

  it("summarizes every shard's preview in one comment, and fails when a shard's preview failed or is missing", () => {
    const summary = workflow.jobs.summary;
    assert.equal(summary.needs, "preview");
    const script = step("summary", /One summary/).run!;
    assert.match(
      script,
      /npx pulumi-integration-platform summarize previews\/preview-\*\.json --full summary-full\.md/,
    );
    assert.match(script, /test "\$\(ls previews\/preview-\*\.json \| wc -l\)" -eq "\$SHARDS"/);
    assert.equal(step("summary", /Fail when/).if, "${{ needs.preview.result != 'success' }}");
    assert.equal(workflow.jobs.up.concurrency?.group, "integration-platform-up-${{ matrix.shard }}");
  });

  it("validates at the pull request's preview, not again at up, where it would cost the read createWithoutRead saves", () => {
    assert.equal(workflow.env?.INTEGRATION_PLATFORM_CREATE_WITHOUT_READ, "true");
    assert.equal(step("up", /pulumi up/).env?.INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW, "false");
    assert.equal(
      step("preview", /pulumi preview/).env?.INTEGRATION_PLATFORM_VALIDATE_AT_PREVIEW,
      undefined,
      "the preview validates (the default)",
    );
  });
});

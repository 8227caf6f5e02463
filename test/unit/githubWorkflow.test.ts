// The GitHub Actions example users copy: valid YAML, a preview job for pull requests that comments
// the diff and the change summary, an `up` job for main, and only settings the provider reads.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { SETTINGS } from "../../provider/settings";

const FOLDER = path.join(__dirname, "../../examples/github-actions");
const WORKFLOW = path.join(FOLDER, "pulumi.yml");

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  steps: Step[];
  permissions?: Record<string, string>;
}
interface Workflow {
  on: Record<string, { branches?: string[] }>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

/** The step that uses an action, whatever version it pins. */
function uses(job: Job, action: string): Step[] {
  return job.steps.filter((step) => step.uses?.split("@")[0] === action);
}

describe("examples/github-actions", () => {
  const text = fs.readFileSync(WORKFLOW, "utf8");
  const workflow = parse(text) as Workflow;

  it("is valid YAML with a preview job on pull requests and an up job on main", () => {
    assert.deepEqual(Object.keys(workflow.on).sort(), ["pull_request", "push"]);
    assert.deepEqual(workflow.on.push.branches, ["main"]);
    assert.deepEqual(Object.keys(workflow.jobs).sort(), ["preview", "up"]);
    assert.equal(workflow.jobs.preview.if, "github.event_name == 'pull_request'");
    assert.equal(workflow.jobs.up.if, "github.event_name == 'push' && github.ref == 'refs/heads/main'");
  });

  it("previews with pulumi/actions, commenting on the pull request, and posts the change summary", () => {
    const preview = workflow.jobs.preview;
    const [pulumi] = uses(preview, "pulumi/actions");
    assert.equal(pulumi.with?.command, "preview");
    assert.equal(pulumi.with?.["comment-on-pr"], true);
    assert.equal(preview.permissions?.["pull-requests"], "write", "commenting needs pull-requests: write");
    const script = preview.steps.map((step) => step.run ?? "").join("\n");
    assert.match(script, /pulumi preview --stack "\$STACK" --json > preview\.json/);
    assert.match(script, /npx pulumi-integration-platform summarize preview\.json > summary\.md/);
    const [comment] = uses(preview, "marocchino/sticky-pull-request-comment");
    assert.match(String(comment.with?.path), /summary\.md$/);
    const summarizing = preview.steps.findIndex((step) => step.run?.includes("summarize"));
    assert.ok(preview.steps.indexOf(pulumi) < summarizing && summarizing < preview.steps.indexOf(comment), "preview, then summarize, then comment");
  });

  it("updates with pulumi/actions `up` on the same stack and backend", () => {
    const [preview] = uses(workflow.jobs.preview, "pulumi/actions");
    const [up] = uses(workflow.jobs.up, "pulumi/actions");
    assert.equal(up.with?.command, "up");
    for (const input of ["stack-name", "work-dir", "cloud-url"]) assert.equal(up.with?.[input], preview.with?.[input], input);
  });

  it("passes the provider's settings and the backend's credentials from secrets", () => {
    assert.equal(workflow.env.INTEGRATION_PLATFORM_API_KEY, "${{ secrets.INTEGRATION_PLATFORM_API_KEY }}");
    assert.equal(workflow.env.INTEGRATION_PLATFORM_TOKEN, "${{ secrets.INTEGRATION_PLATFORM_TOKEN }}");
    assert.equal(workflow.env.PULUMI_ACCESS_TOKEN, "${{ secrets.PULUMI_ACCESS_TOKEN }}");
    assert.equal(workflow.env.PULUMI_CONFIG_PASSPHRASE, "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
  });

  it("names only config keys and environment variables the provider reads, in every file of the folder", () => {
    const configKeys = new Set(Object.values(SETTINGS).map((s) => s.config));
    const envVars = new Set(Object.values(SETTINGS).map((s) => s.env));
    for (const file of fs.readdirSync(FOLDER)) {
      const content = fs.readFileSync(path.join(FOLDER, file), "utf8");
      // Comments count: a key named in a comment is one a user will set. Type tokens
      // (pulumi-nodejs:dynamic/integration-platform:ConfigField) are not config keys.
      for (const [key] of content.matchAll(/(?<![\w/-])integration-platform:[A-Za-z]\w*/g)) {
        assert.ok(configKeys.has(key), `${file} names the config key ${key}, which the provider does not read`);
      }
      for (const [name] of content.matchAll(/INTEGRATION_PLATFORM_[A-Z0-9_]+/g)) {
        assert.ok(envVars.has(name), `${file} names the environment variable ${name}, which the provider does not read`);
      }
    }
    assert.match(text, /INTEGRATION_PLATFORM_API_KEY/, "the scan found the workflow's settings");
  });

  it("the example stack config holds only settings that are not secret", () => {
    const stack = parse(fs.readFileSync(path.join(FOLDER, "Pulumi.prod.yaml"), "utf8")) as { config: Record<string, unknown> };
    assert.ok("integration-platform:baseUrl" in stack.config);
    for (const secret of [SETTINGS.apiKey.config, SETTINGS.token.config]) assert.ok(!(secret in stack.config), `${secret} must not be in plaintext`);
  });
});

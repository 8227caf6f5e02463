// The GitHub Actions examples users copy (examples/github-actions), as their tests read them: the
// parts of a workflow file they check, typed, the lookups they share, and what differs between the
// TypeScript project's workflows and the Python project's (python/).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";

/** The folder of the example workflows. */
export const WORKFLOW_FOLDER = path.join(__dirname, "../../examples/github-actions");

/** One step of a job, as far as the tests read it. */
export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  "working-directory"?: string;
  "continue-on-error"?: boolean;
}

/** One job of a workflow. */
export interface Job {
  if?: string;
  steps: Step[];
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
}

/** A workflow file. */
export interface Workflow {
  /** The triggers: `push` and `pull_request` may name branches; `schedule` lists crons. */
  on: {
    push?: { branches?: string[] };
    pull_request?: { branches?: string[] } | null;
    schedule?: { cron: string }[];
    workflow_dispatch?: unknown;
  };
  permissions?: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

/** An example workflow file (e.g. `pulumi.yml`, `python/drift.yml`), parsed. */
export function readWorkflow(file: string): Workflow {
  return parse(fs.readFileSync(path.join(WORKFLOW_FOLDER, file), "utf8")) as Workflow;
}

/** The steps that use an action, whatever version they pin. */
export function uses(job: Job, action: string): Step[] {
  return job.steps.filter((step) => step.uses?.split("@")[0] === action);
}

/**
 * One project's workflows: the TypeScript project's, in the folder itself, and the Python project's,
 * in python/, which is the same workflow translated to install no Node.js.
 */
export interface Flavour {
  name: string;
  /** The folder of its workflow files, relative to WORKFLOW_FOLDER ("" for the folder itself). */
  folder: string;
  /** The command its steps run the package's command-line tools with (before `summarize`). */
  tools: string;
  /**
   * The step of `job` that installs the program's packages and the tools, once the job's toolchain
   * is checked to be set up as the README says.
   */
  install(job: Job): Step;
}

export const TYPESCRIPT: Flavour = {
  name: "TypeScript",
  folder: "",
  tools: "npx pulumi-integration-platform",
  install(job) {
    const [setup, ...more] = uses(job, "actions/setup-node");
    assert.ok(setup !== undefined && more.length === 0, "sets up Node.js once");
    assert.equal(setup.with?.["node-version"], 24);
    assert.equal(setup.with?.cache, "npm");
    const install = job.steps.filter((step) => step.run?.trim() === "npm ci");
    assert.equal(install.length, 1, "one npm ci");
    assert.equal(install[0]["working-directory"], "${{ env.WORK_DIR }}");
    assert.ok(job.steps.indexOf(setup) < job.steps.indexOf(install[0]));
    return install[0];
  },
};

export const PYTHON: Flavour = {
  name: "Python",
  folder: "python",
  // The executable of the pulumi-integration-platform-tools wheel, in the venv Pulumi.yaml names.
  tools: "venv/bin/pulumi-integration-platform",
  install(job) {
    const [setup, ...more] = uses(job, "actions/setup-python");
    assert.ok(setup !== undefined && more.length === 0, "sets up Python once");
    // A string: YAML reads 3.12 as a number, and 3.10 as 3.1.
    assert.equal(setup.with?.["python-version"], "3.12");
    assert.equal(setup.with?.cache, "pip");
    assert.equal(setup.with?.["cache-dependency-path"], "${{ env.WORK_DIR }}/requirements.txt");
    const install = job.steps.filter((step) => /\bpip install\b/.test(step.run ?? ""));
    assert.equal(install.length, 1, "one pip install");
    assert.equal(install[0].run, "python -m venv venv\nvenv/bin/pip install -r requirements.txt\n");
    assert.equal(install[0]["working-directory"], "${{ env.WORK_DIR }}");
    assert.ok(job.steps.indexOf(setup) < job.steps.indexOf(install[0]));
    return install[0];
  },
};

export const FLAVOURS = [TYPESCRIPT, PYTHON];

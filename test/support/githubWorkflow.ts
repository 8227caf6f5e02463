// The GitHub Actions examples users copy (examples/github-actions), as their tests read them: the
// parts of a workflow file they check, typed, the lookups they share, and what differs between the
// TypeScript project's workflows and the Python project's (python/).
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
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
  env?: Record<string, string>;
  steps: Step[];
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
}

/** A workflow file. */
export interface Workflow {
  /**
   * The triggers: `push` and `pull_request` may name branches, and `pull_request` its activity types;
   * `schedule` lists crons.
   */
  on: {
    push?: { branches?: string[] };
    pull_request?: { branches?: string[]; types?: string[] } | null;
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

/** The activity types of `pull_request` GitHub runs a workflow for when it names none. */
export const DEFAULT_PULL_REQUEST_TYPES = ["opened", "synchronize", "reopened"];

/** The keys a gates file may set (`summarize --gates`), one per limit flag. */
export const GATE_KEYS = ["maxLinkedAccounts", "maxDeletes", "maxReplaces"];

/** What the expressions of a step's `env` read, as a test sets it. */
export interface Context {
  /** The outputs of the job's earlier steps, by step id. */
  steps?: Record<string, Record<string, string>>;
  /** The repository's variables (settings → Secrets and variables → Actions → Variables). */
  vars?: Record<string, string>;
  /** The names of the pull request's labels, as the event lists them. */
  labels?: string[];
}

/** The run the expressions `github.server_url`, `github.repository` and `github.run_id` describe. */
const RUN = { server_url: "https://github.com", repository: "acme/setup", run_id: "42" } as Record<string, string>;

/**
 * An env value as GitHub hands it to a step: each `${{ … }}` of the forms these workflows use,
 * evaluated in `context`. Any other form fails the test, so that no script runs with an expression
 * the test did not give a value (a secret among them).
 */
export function expand(value: string, context: Context): string {
  return value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    // An output the step did not write (or a step that did not run) is the empty string.
    if (output) return context.steps?.[output[1]]?.[output[2]] ?? "";
    // `||` gives its right side when the variable is unset or empty.
    const variable = /^vars\.(\w+) \|\| '([^']*)'$/.exec(expression);
    if (variable) return context.vars?.[variable[1]] || variable[2];
    if (expression === "toJSON(github.event.pull_request.labels.*.name)")
      return JSON.stringify(context.labels ?? [], null, 2);
    const run = /^github\.(\w+)$/.exec(expression);
    if (run && run[1] in RUN) return RUN[run[1]];
    return assert.fail(`the test gives no value to the expression \${{ ${expression} }}`);
  });
}

/** What a step's script did, run as GitHub's runner runs it. */
export interface Ran {
  /** Its exit status: a step that exits non-zero fails the job. */
  status: number;
  /** Its standard output and error, as the job's log shows them. */
  log: string;
  /** The step outputs it wrote to GITHUB_OUTPUT (`name=value` lines). */
  outputs: Record<string, string>;
  /** What it appended to the job's step summary (GITHUB_STEP_SUMMARY). */
  stepSummary: string;
}

/**
 * Runs a step's script (`script`, or the step's own `run`) as GitHub's runner does, with `bash
 * --noprofile --norc -eo pipefail`, in `cwd`: with the job's and the step's `env`, evaluated in
 * `context`, on top of this process's environment and `env`, and with fresh GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files.
 */
export function runStep(
  job: Job,
  step: Step,
  context: Context,
  options: { cwd: string; script?: string; env?: Record<string, string> },
): Ran {
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "workflow-step-"));
  try {
    const output = path.join(files, "output");
    const stepSummary = path.join(files, "step-summary.md");
    fs.writeFileSync(output, "");
    fs.writeFileSync(stepSummary, "");
    const given = Object.fromEntries(
      Object.entries({ ...job.env, ...step.env }).map(([name, value]) => [name, expand(String(value), context)]),
    );
    const ran = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", options.script ?? step.run!], {
      cwd: options.cwd,
      encoding: "utf8",
      env: { ...process.env, ...options.env, ...given, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: stepSummary },
    });
    assert.equal(ran.error, undefined);
    const outputs = Object.fromEntries(
      fs
        .readFileSync(output, "utf8")
        .split("\n")
        .filter((line) => line.includes("="))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    return {
      status: ran.status ?? -1,
      log: ran.stdout + ran.stderr,
      outputs,
      stepSummary: fs.readFileSync(stepSummary, "utf8"),
    };
  } finally {
    fs.rmSync(files, { recursive: true, force: true });
  }
}

/** The step of a job that stops a change past the limits of gates.json, unless the pull request has the override label. */
export function limitsStep(job: Job): Step {
  const found = job.steps.filter((step) => /past the limits/.test(step.name ?? ""));
  assert.equal(found.length, 1, "one step checks the limits");
  return found[0];
}

/**
 * A stand-in for the tools' command, at `file`: it records its arguments (one a line) in `file`.args,
 * and exits with $TOOLS_EXIT; exiting 0 or 4, it prints a summary that says so, and writes the
 * `--full` file, as `summarize` does.
 */
export function writeToolsStub(file: string): void {
  fs.writeFileSync(
    file,
    [
      "#!/bin/bash",
      `printf '%s\\n' "$@" > "$0.args"`,
      'case "$TOOLS_EXIT" in 0 | 4) ;; *) echo "the stand-in exits $TOOLS_EXIT" >&2; exit "$TOOLS_EXIT" ;; esac',
      'summary="The summary (the stand-in exited $TOOLS_EXIT)."',
      'while [ $# -gt 0 ]; do if [ "$1" = --full ]; then echo "$summary" > "$2"; fi; shift; done',
      'echo "$summary"',
      'exit "$TOOLS_EXIT"',
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
}

// The GitHub Actions examples users copy (examples/github-actions), as their tests read them: the
// parts of a workflow file they check, typed, and the lookups they share.
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

/** An example workflow file (e.g. `pulumi.yml`), parsed. */
export function readWorkflow(file: string): Workflow {
  return parse(fs.readFileSync(path.join(WORKFLOW_FOLDER, file), "utf8")) as Workflow;
}

/** The steps that use an action, whatever version they pin. */
export function uses(job: Job, action: string): Step[] {
  return job.steps.filter((step) => step.uses?.split("@")[0] === action);
}

// Workflow runs, asked for on the control plane: only a published workflow enabled for the config
// runs. A run writes audit entries and, when it ends, a webhook event (emulator/webhooks.ts).
// docs/emulator.md, "Workflow runs", is the user's side of this.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { runStatusOf } from "../contract/webhookReceivers";
import { WEBHOOK_EVENTS, WORKFLOW_RUN_STATUSES, type WorkflowRunStatus } from "../contract/webhooks";
import { ApiError, notFound } from "./errors";
import type { AuditEventType } from "./objects/audit";
import type { EmulatorStore } from "./store";
import { parseInput } from "./validation";
import type { Delivery, WebhookDispatcher } from "./webhooks";

/** Longest delay a run may be asked to take before it ends on its own. */
export const MAX_RUN_DELAY_MS = 3_600_000;
/** Runs that may be running at once. */
export const MAX_RUNNING = 1_000;
/** Finished runs kept; older ones are forgotten (their audit entries stay). */
export const RUN_LOG_CAPACITY = 1_000;

/** A run's status: running, or how it ended. */
export type RunStatus = "RUNNING" | WorkflowRunStatus;

/** One run of one workflow for one linked account's config. */
export interface WorkflowRun {
  /** The run's id, as the webhook payload's `instance_id` and the audit entries' `resource_id` carry it. */
  instance_id: string;
  linked_account_id: string;
  slug: string;
  config_id: string;
  workflow_id: string;
  workflow_name: string;
  status: RunStatus;
  /** How it was asked to end. */
  outcome: WorkflowRunStatus;
  startedAt: string;
  finishedAt: string | null;
  /** The webhook deliveries its end queued. */
  deliveries: string[];
}

// A status in any case ("timed_out") or an event name ("Workflow Timed Out").
const outcomeSchema = z.string().transform((text, ctx) => {
  const status = runStatusOf(text);
  if (status) return status;
  ctx.addIssue({
    code: "custom",
    message:
      `must be one of ${WORKFLOW_RUN_STATUSES.join(", ")} (or an event name), ` +
      `got ${JSON.stringify(text.slice(0, 64))}`,
  });
  return z.NEVER;
});

/** A control plane request for a run. */
export const runRequestSchema = z
  .strictObject({
    linked_account_id: z.string().min(1).max(256),
    slug: z.string().min(1).max(256),
    /** Defaults to the linked account id, as the platform's configs do. */
    config_id: z.string().min(1).max(256).optional(),
    workflow_id: z.string().min(1).max(256),
    outcome: outcomeSchema.default("COMPLETED"),
    /** How long the run takes before it ends with `outcome`; 0 ends it at once. */
    delay_ms: z.number().int().min(0).max(MAX_RUN_DELAY_MS).default(0),
  })
  .meta({ examples: [{ linked_account_id: "acme", slug: "hubspot", workflow_id: "wf_hs_contact_sync" }] });

/** What starts a run: the control plane's body, or `RunningEmulator.runs.start`'s argument. */
export interface RunRequest {
  linked_account_id: string;
  slug: string;
  /** Default: the linked account's id, as the platform's configs. */
  config_id?: string;
  workflow_id: string;
  /** COMPLETED (default), ERRORED, STOPPED or TIMED_OUT, in any case, or the event's name ("Workflow Errored"). */
  outcome?: string;
  /** Milliseconds the run takes before it ends with `outcome` (default 0: at once; at most an hour). */
  delay_ms?: number;
}

/** 409: the workflow exists but does not run for this config, and the message says why. */
function wontRun(code: string, message: string): ApiError {
  return new ApiError(409, code, message);
}

const AUDIT_BY_STATUS: Record<WorkflowRunStatus, AuditEventType> = {
  COMPLETED: "WORKFLOW_RUN_COMPLETED",
  ERRORED: "WORKFLOW_RUN_ERRORED",
  STOPPED: "WORKFLOW_RUN_STOPPED",
  TIMED_OUT: "WORKFLOW_RUN_TIMED_OUT",
};

/** The emulator's workflow runs: started on request, ended by their timer or a stop. */
export class WorkflowRuns {
  private readonly runs = new Map<string, WorkflowRun>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly finished: string[] = [];

  /** Runs write to `store`'s audit log and emit their end through `webhooks`. */
  constructor(
    private readonly store: EmulatorStore,
    private readonly webhooks: WebhookDispatcher,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /**
   * Starts a run, or throws an ApiError: 400 for a bad request, 404 for what does not exist, 409
   * for a workflow that does not run here.
   */
  async start(request: RunRequest): Promise<WorkflowRun> {
    const input = parseInput(runRequestSchema, request);
    const { linked_account_id, slug, workflow_id, outcome, delay_ms } = input;
    const config_id = input.config_id ?? linked_account_id;
    if (!this.store.linkedAccounts.find(linked_account_id))
      throw notFound(`Linked account ${linked_account_id} not found`);
    const app = this.store.applications.find(slug);
    if (!app) throw notFound(`Application ${slug} not found`);
    const workflow = app.workflows.find((w) => w.id === workflow_id);
    if (!workflow) throw notFound(`Workflow ${workflow_id} not found in ${slug}`);
    const config = this.store.configs.find({ linkedAccountId: linked_account_id, slug, configId: config_id });
    if (!config) throw notFound(`Config with config id ${config_id} not found for linked account ${linked_account_id}`);
    if (!workflow.published) {
      throw wontRun("WORKFLOW_NOT_PUBLISHED", `Workflow ${workflow_id} is a draft: only published workflows run`);
    }
    // Read without creating the config's entry: asking for a run changes nothing.
    if (!config.workflows.find((w) => w.id === workflow_id)?.enabled) {
      throw wontRun(
        "WORKFLOW_DISABLED",
        `Workflow ${workflow_id} is disabled for config ${config_id} of ${linked_account_id}: ` +
          "enable it (a WorkflowToggle with enabled: true) and ask again",
      );
    }
    if (this.timers.size >= MAX_RUNNING)
      throw wontRun("TOO_MANY_RUNS", `${MAX_RUNNING} runs are running; stop some or wait`);

    const run: WorkflowRun = {
      instance_id: randomUUID(),
      linked_account_id,
      slug,
      config_id,
      workflow_id,
      workflow_name: workflow.name,
      status: "RUNNING",
      outcome,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      deliveries: [],
    };
    this.runs.set(run.instance_id, run);
    this.audit(run, "WORKFLOW_RUN_STARTED");
    if (delay_ms === 0) this.end(run, outcome);
    else {
      const timer = setTimeout(() => this.endAndSave(run, outcome), delay_ms);
      timer.unref();
      this.timers.set(run.instance_id, timer);
    }
    await this.store.commit();
    return run;
  }

  /** Stops a running run (Workflow Stopped, with its audit entry and webhook); 404 when unknown, 409 once ended. */
  async stop(instanceId: string): Promise<WorkflowRun> {
    const run = this.runs.get(instanceId);
    if (!run) throw notFound(`Workflow run ${instanceId} not found`);
    if (run.status !== "RUNNING")
      throw wontRun("RUN_ENDED", `Workflow run ${instanceId} has already ended: ${run.status}`);
    this.end(run, "STOPPED");
    await this.store.commit();
    return run;
  }

  /** One run, running or among the last finished. */
  get(instanceId: string): WorkflowRun | undefined {
    return this.runs.get(instanceId);
  }

  /** Every run kept, oldest first. */
  list(): WorkflowRun[] {
    return [...this.runs.values()];
  }

  /** Forgets every run; running ones end without an event. */
  reset(): void {
    this.close();
    this.runs.clear();
    this.finished.length = 0;
  }

  /** Cancels the timers of running runs, so that none fires after shutdown. */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private endAndSave(run: WorkflowRun, status: WorkflowRunStatus): void {
    this.end(run, status);
    this.store
      .commit()
      .catch((err: unknown) => this.warn(`run ${run.instance_id}: state not written: ${(err as Error).message}`));
  }

  private end(run: WorkflowRun, status: WorkflowRunStatus): void {
    clearTimeout(this.timers.get(run.instance_id));
    this.timers.delete(run.instance_id);
    run.status = status;
    run.finishedAt = new Date().toISOString();
    this.audit(run, AUDIT_BY_STATUS[status]);
    const deliveries: Delivery[] = this.webhooks.emit({
      linked_account_id: run.linked_account_id,
      instance_id: run.instance_id,
      workflow_id: run.workflow_id,
      config_id: run.config_id,
      event: WEBHOOK_EVENTS[status],
      workflow_name: run.workflow_name,
      status,
    });
    run.deliveries = deliveries.map((d) => d.id);
    this.finished.push(run.instance_id);
    while (this.finished.length > RUN_LOG_CAPACITY) this.runs.delete(this.finished.shift()!);
  }

  private audit(run: WorkflowRun, eventType: AuditEventType): void {
    this.store.audit.record({
      event_type: eventType,
      linked_account_id: run.linked_account_id,
      slug: run.slug,
      config_id: run.config_id,
      workflow_id: run.workflow_id,
      resource_id: run.instance_id,
      auth: "platform",
    });
  }
}

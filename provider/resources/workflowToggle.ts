// WorkflowToggle: enables or disables one published workflow in one config (spec 4.3). Create
// records whether the workflow was enabled before, and delete puts that back.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { WorkflowNotPublishedError } from "../client/errors";
import * as api from "../client/schemas";
import { currentRun } from "../connection";
import { describe, Id, unlessGone } from "./lifecycle";
import { ArgsOf, declareProperties, OutputsOf, StateOf } from "./properties";
import workflowToggleForwarder = require("../bridge/providers/WorkflowToggle");
import { MODULE } from "../bridge/program";

/** WorkflowToggle's properties, each declared once (see properties.ts). */
export const WorkflowToggleProperties = declareProperties({
  identity: {
    /** The application's slug. Changing it replaces the resource. */
    slug: Id,
    /** The linked account (end user) whose config holds the workflow. Changing it replaces the resource. */
    linkedAccountId: Id,
    /** The config's id. Changing it replaces the resource. */
    configId: Id,
    /** The published workflow's id. Changing it replaces the resource. */
    workflowId: Id,
  },
  settings: {
    // A missing `enabled` is its own case: "not a undefined" would not tell the user to add it.
    /** Whether the workflow runs for this config. */
    enabled: z.boolean({ error: (issue) => (issue.input === undefined ? "is required" : `must be true or false, not ${describe(issue.input)}`) }),
    /**
     * What delete (destroy, or removing the resource) sets `enabled` back to, instead of what
     * create found (`previousEnabled`). Changing it writes nothing.
     */
    restoreOnDelete: z.boolean({ error: (issue) => `must be true or false, not ${describe(issue.input)}` }).optional(),
  },
  outputs: {
    /** The workflow's name, as the platform reports it. */
    workflowName: z.custom<string>().optional(),
    /** Whether the workflow was enabled before this resource took it over; delete puts it back. */
    previousEnabled: z.custom<boolean>(),
  },
});

/** Inputs of a WorkflowToggle. */
export type WorkflowToggleArgs = ArgsOf<typeof WorkflowToggleProperties>;
/** What a WorkflowToggle keeps in state: its inputs, the workflow's name, and what to restore. */
type WorkflowToggleState = StateOf<typeof WorkflowToggleProperties>;

function findWorkflow(config: api.Config, workflowId: string) {
  return config.workflows.find((w) => w.id === workflowId);
}

/** Sends the toggle, turning the platform's refusal of a draft into advice. */
async function setEnabled(target: WorkflowToggleState, enabled: boolean) {
  try {
    const run = currentRun();
    run.writingConfigItem(target, target);
    const result = await run.client.setWorkflowEnabled({ ...target, enabled });
    return result.workflows.find((w) => w.id === target.workflowId);
  } catch (error) {
    if (error instanceof WorkflowNotPublishedError) {
      throw new WorkflowNotPublishedError(
        `Workflow ${target.workflowId} of app ${target.slug} is a draft, and the platform blocks drafts from public routes (${error.status} from ${error.operation}: ${error.detail ?? error.code}). Publish it, then run again.`,
        error.operation,
        error.status,
        error.code,
        error.detail,
      );
    }
    throw error;
  }
}

/** The provider behind WorkflowToggle, which the provider host serves (bridge/host.ts). */
export const workflowToggleProvider = WorkflowToggleProperties.provider({
  async create(inputs: WorkflowToggleState) {
    // With restoreOnDelete declared, a read would record nothing: one write instead (docs/guides/scaling.md).
    const blind = inputs.restoreOnDelete !== undefined && currentRun().client.settings.createWithoutRead;
    // One read, shared with the config's other resources, to learn the state to restore on
    // delete. A draft is not listed; the toggle itself then produces the platform's own refusal.
    const before = blind ? undefined : findWorkflow(await currentRun().readConfig(inputs, inputs), inputs.workflowId);
    // Already as desired (an adopted setup, or a run that stopped after this write): no write.
    const after = before?.enabled === inputs.enabled ? before : await setEnabled(inputs, inputs.enabled);
    const outs: WorkflowToggleState = {
      ...WorkflowToggleProperties.inputsOf(inputs),
      // A workflow the config does not list yet has never been enabled for it.
      previousEnabled: blind ? inputs.restoreOnDelete! : (before?.enabled ?? false),
      ...(after?.name ? { workflowName: after.name } : {}),
    };
    const id = [inputs.linkedAccountId, inputs.slug, inputs.configId, inputs.workflowId].join("/");
    currentRun().claim("WorkflowToggle", id);
    return { id, outs };
  },

  async read(id, props: WorkflowToggleState) {
    const config = await unlessGone(() => currentRun().readConfig(props, props));
    const live = config && findWorkflow(config, props.workflowId);
    if (!live) return { id: "", props: {} };
    const outs = { ...props, enabled: live.enabled };
    // Returned as inputs too, so that a drifted toggle shows in the next preview's diff of inputs.
    return { id, props: outs, inputs: WorkflowToggleProperties.inputsOf(outs) };
  },

  async update(_id, olds: WorkflowToggleState, news: WorkflowToggleState) {
    // Only restoreOnDelete changed: it acts at delete, so there is nothing to write now.
    const after = olds.enabled === news.enabled ? undefined : await setEnabled(news, news.enabled);
    const workflowName = after?.name || olds.workflowName;
    return { outs: { ...WorkflowToggleProperties.inputsOf(news), previousEnabled: olds.previousEnabled, ...(workflowName ? { workflowName } : {}) } };
  },

  async delete(id, props: WorkflowToggleState) {
    // A declared restoreOnDelete wins over what create recorded.
    const restore = props.restoreOnDelete ?? props.previousEnabled;
    if (restore === props.enabled || currentRun().claimedByAnother("WorkflowToggle", id)) return;
    await unlessGone(() => setEnabled(props, restore));
  },
});

/** The output properties of a WorkflowToggle, one per state property, documented where they are declared. */
export interface WorkflowToggle extends OutputsOf<typeof WorkflowToggleProperties> {}

/** Enables or disables one published workflow in one config, and restores it on delete. */
export class WorkflowToggle extends pulumi.dynamic.Resource {
  /** Declares whether one workflow is enabled in one config. */
  constructor(name: string, args: WorkflowToggleArgs, opts?: pulumi.CustomResourceOptions) {
    const properties = WorkflowToggleProperties;
    super(workflowToggleForwarder, name, properties.resourceProps(args), properties.resourceOptions(opts), MODULE, "WorkflowToggle");
  }
}

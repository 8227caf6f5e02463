// WorkflowToggle: enables or disables one published workflow in one config (spec 4.3). Create
// records whether the workflow was enabled before, and delete puts that back.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { WorkflowNotPublishedError } from "../client/errors";
import * as api from "../client/schemas";
import { currentRun } from "../connection";
import { checkProperties, describe, diffProperties, Id, unlessGone } from "./lifecycle";
import workflowToggleForwarder = require("../bridge/providers/WorkflowToggle");
import { MODULE } from "../bridge/program";

/** Inputs of a WorkflowToggle. */
export interface WorkflowToggleArgs {
  /** The application's slug. Changing it replaces the resource. */
  slug: pulumi.Input<string>;
  /** The linked account (end user) whose config holds the workflow. Changing it replaces the resource. */
  linkedAccountId: pulumi.Input<string>;
  /** The config's id. Changing it replaces the resource. */
  configId: pulumi.Input<string>;
  /** The published workflow's id. Changing it replaces the resource. */
  workflowId: pulumi.Input<string>;
  /** Whether the workflow runs for this config. */
  enabled: pulumi.Input<boolean>;
}

interface WorkflowToggleState {
  slug: string;
  linkedAccountId: string;
  configId: string;
  workflowId: string;
  enabled: boolean;
  /** The workflow's name, as the platform reports it. */
  workflowName?: string;
  /** Whether the workflow was enabled before this resource took it over. */
  previousEnabled: boolean;
}

const inputShape = {
  slug: Id,
  linkedAccountId: Id,
  configId: Id,
  workflowId: Id,
  // A missing `enabled` is its own case: "not a undefined" would not tell the user to add it.
  enabled: z.boolean({ error: (issue) => (issue.input === undefined ? "is required" : `must be true or false, not ${describe(issue.input)}`) }),
};

const IDENTITY = ["slug", "linkedAccountId", "configId", "workflowId"] as const;

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
export const workflowToggleProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    const { inputs, failures } = checkProperties(inputShape, news);
    return { inputs, failures };
  },

  async diff(_id, olds: WorkflowToggleState, news: WorkflowToggleState) {
    return diffProperties(olds, news, IDENTITY, ["enabled"]);
  },

  async create(inputs: WorkflowToggleState) {
    // One read, shared with the config's other resources, to learn the state to restore on
    // delete. A draft is not listed; the toggle itself then produces the platform's own refusal.
    const before = findWorkflow(await currentRun().readConfig(inputs, inputs), inputs.workflowId);
    // Already as desired (an adopted setup, or a run that stopped after this write): no write.
    const after = before?.enabled === inputs.enabled ? before : await setEnabled(inputs, inputs.enabled);
    const outs: WorkflowToggleState = {
      slug: inputs.slug,
      linkedAccountId: inputs.linkedAccountId,
      configId: inputs.configId,
      workflowId: inputs.workflowId,
      enabled: inputs.enabled,
      // A workflow the config does not list yet has never been enabled for it.
      previousEnabled: before?.enabled ?? false,
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
    return { id, props: { ...props, enabled: live.enabled } };
  },

  async update(_id, olds: WorkflowToggleState, news: WorkflowToggleState) {
    const after = await setEnabled(news, news.enabled);
    return { outs: { ...olds, enabled: news.enabled, ...(after?.name ? { workflowName: after.name } : {}) } };
  },

  async delete(id, props: WorkflowToggleState) {
    if (props.previousEnabled === props.enabled || currentRun().claimedByAnother("WorkflowToggle", id)) return;
    await unlessGone(() => setEnabled(props, props.previousEnabled));
  },
};

/** Enables or disables one published workflow in one config, and restores it on delete. */
export class WorkflowToggle extends pulumi.dynamic.Resource {
  /** The application's slug. */
  declare readonly slug: pulumi.Output<string>;
  /** The linked account's identifier. */
  declare readonly linkedAccountId: pulumi.Output<string>;
  /** The config's id. */
  declare readonly configId: pulumi.Output<string>;
  /** The workflow's id. */
  declare readonly workflowId: pulumi.Output<string>;
  /** Whether the workflow is enabled. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** The workflow's name, as the platform reports it. */
  declare readonly workflowName: pulumi.Output<string | undefined>;
  /** Whether the workflow was enabled before this resource took it over; delete restores it. */
  declare readonly previousEnabled: pulumi.Output<boolean>;

  /** Declares whether one workflow is enabled in one config. */
  constructor(name: string, args: WorkflowToggleArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      workflowToggleForwarder,
      name,
      { ...args, workflowName: undefined, previousEnabled: undefined },
      opts,
      MODULE,
      "WorkflowToggle",
    );
  }
}

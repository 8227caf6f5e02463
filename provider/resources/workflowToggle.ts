// WorkflowToggle: enables or disables one published workflow in one config (docs/design/contract.md#workflows). Create
// records whether the workflow was enabled before, and delete puts that back.
import { documented } from "../documented";
import { z } from "zod";
import { unlessGone, WorkflowNotPublishedError } from "../client/errors";
import type * as api from "../client/configs";
import type { Session } from "../session";
import { defineResource } from "./definition";
import { Id, mustBe, required } from "./inputs";
import { declareProperties, StateOf } from "./properties";
import { configOrFailure, isFailure, unpublishedWorkflow } from "./validation";

/** WorkflowToggle's properties, each declared once (see properties.ts). */
export const WorkflowToggleProperties = declareProperties({
  identity: documented("WorkflowToggle", {
    /** The application's slug. */
    slug: Id,
    /** The linked account (end user) whose config holds the workflow. */
    linkedAccountId: Id,
    /** The config's id. */
    configId: Id,
    /** The published workflow's id. */
    workflowId: Id,
  }),
  settings: documented("WorkflowToggle", {
    /** Whether the workflow runs for this config. */
    enabled: z.boolean({ error: required("true or false") }),
    /**
     * What delete (destroy, or removing the resource) sets `enabled` back to, instead of what
     * create found (`previousEnabled`). Changing it writes nothing.
     */
    restoreOnDelete: z.boolean({ error: mustBe("true or false") }).optional(),
  }),
  outputs: documented("WorkflowToggle", {
    /** The workflow's name, as the platform reports it. */
    workflowName: z.string().optional(),
    /** Whether the workflow was enabled before this resource took it over; delete puts it back. */
    previousEnabled: z.boolean(),
  }),
});

/** What a WorkflowToggle keeps in state: its inputs, the workflow's name, and what to restore. */
type WorkflowToggleState = StateOf<typeof WorkflowToggleProperties>;

function findWorkflow(config: api.Config, workflowId: string) {
  return config.workflows.find((w) => w.id === workflowId);
}

/** Sends the toggle, turning the platform's refusal of a draft into advice. */
async function setEnabled(session: Session, target: WorkflowToggleState, enabled: boolean) {
  try {
    const result = await session.setWorkflowEnabled(target, enabled);
    return result.workflows.find((w) => w.id === target.workflowId);
  } catch (error) {
    if (error instanceof WorkflowNotPublishedError) {
      throw error.withAdvice(
        `Workflow ${target.workflowId} of app ${target.slug} is a draft, ` +
          `and the platform blocks drafts from public routes (${error.status} from ${error.operation}: ` +
          `${error.detail ?? error.code}). Publish it, then run again.`,
      );
    }
    throw error;
  }
}

/** WorkflowToggle, defined once: the host serves its operations, the change summary its words. */
export const WorkflowToggleDefinition = defineResource({
  type: "WorkflowToggle",
  description: "Enables or disables one published workflow in one config, and restores it on delete.",
  properties: WorkflowToggleProperties,
  operations: {
    async validate({ session }, inputs) {
      const config = await configOrFailure(session, inputs);
      if (isFailure(config)) return { failures: [config] };
      return { failures: findWorkflow(config, inputs.workflowId) ? [] : [unpublishedWorkflow(inputs)] };
    },

    async create({ session, claim }, inputs) {
      // With restoreOnDelete declared, a read would record nothing: one write instead (docs/guides/scaling.md).
      const blind = inputs.restoreOnDelete !== undefined && session.settings.createWithoutRead;
      // One read, shared with the config's other resources: the state to restore on delete. A
      // draft is not listed; the toggle itself then produces the platform's own refusal.
      const before = blind ? undefined : findWorkflow(await session.readConfig(inputs), inputs.workflowId);
      // Already as desired (an adopted setup, or a run that stopped after this write): no write.
      const after = before?.enabled === inputs.enabled ? before : await setEnabled(session, inputs, inputs.enabled);
      const outs: WorkflowToggleState = {
        ...WorkflowToggleProperties.inputsOf(inputs),
        // A workflow the config does not list yet has never been enabled for it.
        previousEnabled: blind ? inputs.restoreOnDelete! : (before?.enabled ?? false),
        ...(after?.name ? { workflowName: after.name } : {}),
      };
      const id = [inputs.linkedAccountId, inputs.slug, inputs.configId, inputs.workflowId].join("/");
      claim(id);
      return { id, outs };
    },

    async read({ session }, id, props) {
      const config = await unlessGone(() => session.readConfig(props));
      const live = config && findWorkflow(config, props.workflowId);
      if (!live) return { id: "", props: {} };
      const outs = { ...props, enabled: live.enabled };
      // Returned as inputs too, so that a drifted toggle shows in the next preview's diff of inputs.
      return { id, props: outs, inputs: WorkflowToggleProperties.inputsOf(outs) };
    },

    async update(context, _id, olds, news) {
      // Only restoreOnDelete changed: it acts at delete, so there is nothing to write now.
      const after = olds.enabled === news.enabled ? undefined : await setEnabled(context.session, news, news.enabled);
      const workflowName = after?.name || olds.workflowName;
      return {
        outs: {
          ...WorkflowToggleProperties.inputsOf(news),
          previousEnabled: olds.previousEnabled,
          ...(workflowName ? { workflowName } : {}),
        },
      };
    },

    async delete(context, id, props) {
      // A declared restoreOnDelete wins over what create recorded.
      const restore = props.restoreOnDelete ?? props.previousEnabled;
      if (restore === props.enabled || context.claimedByAnother(id)) return;
      await unlessGone(() => setEnabled(context.session, props, restore));
    },
  },
  // Adopted as found: destroy leaves `enabled` as it was at import.
  importable: {
    parts: ["linkedAccountId", "slug", "configId", "workflowId"],
    adopt: (state) => ({ ...state, previousEnabled: state.enabled }),
  },
  summary: {
    title: (i, o, t) =>
      `workflow ${t.id(i.workflowId)}` +
      (typeof o.workflowName === "string" && o.workflowName ? ` (${t.text(o.workflowName)})` : ""),
    release: (i, o, t) => {
      const declared = typeof i.restoreOnDelete === "boolean";
      const restore = declared ? i.restoreOnDelete : o.previousEnabled;
      return typeof restore === "boolean" && restore !== i.enabled
        ? `${t.code("enabled")} goes back to ${t.value(restore)}${declared ? ` (${t.code("restoreOnDelete")})` : ""}`
        : `the workflow stays ${i.enabled === true ? "enabled" : "disabled"}`;
    },
  },
});

// What a preview proves of a field or a toggle before `up` (docs/design/validation.md): that its
// linked account has the config, and the config the field or the published workflow. One read per
// config, shared with the config's other resources and with `up`'s own read in the same command.
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../client/errors";
import type { Config } from "../client/configs";
import type { ConfigTarget, Session } from "../session";

/** An id as failure reasons quote it: JSON, so that the summary can read it back. */
export const quoted = (id: string) => JSON.stringify(id);

/** The target's config, or the failure that names the property at fault. */
export async function configOrFailure(
  session: Session,
  target: ConfigTarget,
): Promise<Config | pulumi.dynamic.CheckFailure> {
  try {
    return await session.readConfig(target);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const where = `app ${quoted(target.slug)} for linked account ${quoted(target.linkedAccountId)}`;
  // The platform says only "Config ... not found": the account's own config tells a wrong configId
  // from a wrong account.
  if (target.configId !== target.linkedAccountId) {
    const own = await session.readConfig({ ...target, configId: target.linkedAccountId }).catch((error) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (own)
      return {
        property: "configId",
        reason: `the platform has no config ${quoted(target.configId)} of ${where}: check configId`,
      };
  }
  return {
    property: "linkedAccountId",
    reason: `the platform has no config of ${where}: check linkedAccountId and slug`,
  };
}

/** The failure for a workflow the config does not list: a draft, or an id it does not have. */
export function unpublishedWorkflow(target: ConfigTarget & { workflowId: string }): pulumi.dynamic.CheckFailure {
  return {
    property: "workflowId",
    reason:
      `${quoted(target.workflowId)} is not a published workflow of config ${quoted(target.configId)} ` +
      `(app ${quoted(target.slug)}, linked account ${quoted(target.linkedAccountId)}): ` +
      "a draft is blocked from public routes until it is published (publish it, then run again), " +
      "or the id is wrong (check workflowId)",
  };
}

/** True for a failure, false for a config. */
export function isFailure(found: Config | pulumi.dynamic.CheckFailure): found is pulumi.dynamic.CheckFailure {
  return "reason" in found;
}

// What `import` reads of the live workspace (accounts, their configs, env definitions and values),
// through the provider's own client, so with its pacer, retries and messages. Reads only: the
// command must never change the platform it is bringing under management.
import { AdviceError, NotFoundError } from "../../provider/client/errors";
import { getConfig, type Config } from "../../provider/client/configs";
import {
  listEnvDefinitions,
  listEnvValues,
  type EnvDefinition,
  type EnvScope,
  type EnvValueListItem,
} from "../../provider/client/envVariables";
import type { PlatformReader } from "../../provider/client/http";
import { listLinkedAccounts, type LinkedAccount } from "../../provider/client/linkedAccounts";

/** Which part of the workspace to read. */
export interface ImportSelection {
  /** The apps, by slug. */
  slugs: string[];
  /** The linked accounts (their `account_id`s); all of them when undefined. */
  linkedAccountIds?: string[];
}

/** One linked account as read. */
export interface AccountRead {
  /** The linked account as the platform lists it. */
  account: LinkedAccount;
  /** Its config of each app, by slug: the one named after the account; absent when the platform answered 404. */
  configs: Map<string, Config>;
  /** Its own env values (linked_account scope). */
  envValues: EnvValueListItem[];
  /** Its env values of workflows (workflow scope, with this linked account). */
  workflowEnvValues: EnvValueListItem[];
}

/** Everything the import read, in the platform's shapes. */
export interface WorkspaceRead {
  /** The apps read, as asked. */
  slugs: string[];
  /** The linked accounts read, in the platform's order. */
  accounts: AccountRead[];
  /** Every env variable definition of the org. */
  definitions: EnvDefinition[];
  /** Env values not tied to a linked account: org, workspace, and workflow values for every account. */
  sharedEnvValues: EnvValueListItem[];
  /**
   * Configs of other linked accounts, by slug, read only to tell an app's own field names and
   * options from a config's (see REFERENCE_CONFIGS); nothing of them is declared.
   */
  referenceConfigs: Map<string, Config[]>;
  /** Workflow env values of linked accounts that were not selected, which were left out. */
  unselectedWorkflowEnvValues: number;
  /** The published workflows seen in the configs read, with their app's slug. */
  workflowSlugs: Map<string, string>;
  /** API calls made (pages counted one by one; retries not counted). */
  calls: number;
}

/** A problem with what the user asked for (an unknown slug or linked account); nothing is written. */
export class ImportInputError extends AdviceError {
  /** Files a failed write could not put back as they were: what the final message must name. */
  readonly leftChanged: string[];

  constructor(message: string, leftChanged: string[] = []) {
    super(message);
    this.leftChanged = leftChanged;
  }
}

/** How the reader reports progress: linked accounts read so far, of the total. */
export interface ReadProgress {
  /** A phase starts, e.g. "Listing linked accounts". */
  phase(text: string): void;
  /** `done` of `total` linked accounts are read. */
  accounts(done: number, total: number): void;
}

/**
 * Linked accounts read at the same time. The pacer, not this number, sets the pace: it only has
 * to keep the pacer's queue from running dry while answers travel, and bounds what is in flight
 * when a read fails (the others still in flight finish before the error is reported).
 */
const ACCOUNTS_IN_FLIGHT = 8;

/**
 * Configs of each app to read in all, other accounts' too when the selection has fewer: the app's
 * own field names and options are what most configs hold (fields.ts), so a few are needed.
 */
export const REFERENCE_CONFIGS = 5;

/**
 * Runs `work` over `items`, at most `limit` at a time; after a failure no new item starts, and the
 * first failure is thrown once the others settle.
 */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await work(items[index], index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (rejected) throw rejected.reason;
}

/** Every env value of a scope that matches `query` (one list, every page). */
type ValueLister = (
  scope: EnvScope,
  query?: { linked_account_id?: string; workflow_id?: string },
) => Promise<EnvValueListItem[]>;

/** Lists values only of the scopes some definition has. */
function valueLister(client: PlatformReader, definitions: EnvDefinition[]): ValueLister {
  const scopes = new Set(definitions.map((d) => d.scope));
  return (scope, query = {}) => (scopes.has(scope) ? listEnvValues(client, scope, query).all() : Promise.resolve([]));
}

/** An account's config of an app, or undefined when the platform has none (404). */
async function readConfig(client: PlatformReader, accountId: string, slug: string): Promise<Config | undefined> {
  try {
    return await getConfig(client, { slug, configId: accountId, linkedAccountId: accountId });
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** Every linked account, listed first: a refused API key fails here, on the first call. */
async function listAccounts(client: PlatformReader, progress: ReadProgress): Promise<LinkedAccount[]> {
  progress.phase("Listing linked accounts");
  const all = await listLinkedAccounts(client).all();
  if (all.length === 0)
    throw new ImportInputError(
      "the workspace has no linked accounts, so there is nothing to import: " +
        "check INTEGRATION_PLATFORM_BASE_URL and the API key's environment",
    );
  return all;
}

/** Each selected account's config of each app and its own env values, a few accounts at a time. */
async function readAccounts(
  client: PlatformReader,
  selected: LinkedAccount[],
  slugs: string[],
  context: { listValues: ValueLister; progress: ReadProgress },
): Promise<AccountRead[]> {
  const accounts: AccountRead[] = selected.map((account) => ({
    account,
    configs: new Map(),
    envValues: [],
    workflowEnvValues: [],
  }));
  let done = 0;
  context.progress.accounts(0, accounts.length);
  await eachLimited(accounts, ACCOUNTS_IN_FLIGHT, async (read) => {
    const id = read.account.account_id;
    const [configs, envValues] = await Promise.all([
      Promise.all(slugs.map((slug) => readConfig(client, id, slug))),
      context.listValues("linked_account", { linked_account_id: id }),
    ]);
    slugs.forEach((slug, i) => configs[i] && read.configs.set(slug, configs[i]));
    read.envValues = envValues;
    context.progress.accounts(++done, accounts.length);
  });
  return accounts;
}

/**
 * Configs of other accounts, for apps the selection holds too few configs of; throws
 * ImportInputError for an app that no account read has a config of.
 */
async function readReferenceConfigs(
  client: PlatformReader,
  unselected: LinkedAccount[],
  accounts: AccountRead[],
  slugs: string[],
): Promise<Map<string, Config[]>> {
  const referenceConfigs = new Map<string, Config[]>();
  for (const slug of slugs) {
    const found: Config[] = [];
    const selectedConfigs = accounts.filter((a) => a.configs.has(slug)).length;
    let tried = accounts.length;
    for (const account of unselected) {
      if (selectedConfigs + found.length >= REFERENCE_CONFIGS) break;
      tried++;
      const config = await readConfig(client, account.account_id, slug);
      if (config) found.push(config);
    }
    referenceConfigs.set(slug, found);
    if (selectedConfigs + found.length === 0) {
      throw new ImportInputError(
        `unknown slug ${JSON.stringify(slug)}: none of the ${tried} linked accounts read has a config of that app ` +
          "(the platform answered 404 for each). " +
          "Check --slug: it is the app's slug as the platform spells it, e.g. hubspot",
      );
    }
  }
  return referenceConfigs;
}

/** The published workflows seen in the configs read, with their app's slug. */
function workflowsOf(accounts: AccountRead[], referenceConfigs: Map<string, Config[]>): Map<string, string> {
  const workflowSlugs = new Map<string, string>();
  for (const config of [
    ...accounts.flatMap((a) => [...a.configs.values()]),
    ...[...referenceConfigs.values()].flat(),
  ]) {
    for (const workflow of config.workflows)
      if (!workflowSlugs.has(workflow.id)) workflowSlugs.set(workflow.id, config.slug);
  }
  return workflowSlugs;
}

/**
 * Workflow values, one list per published workflow of the apps read: each goes to its selected
 * account, or to `shared` when it has none. Resolves to how many belong to unselected accounts.
 */
async function readWorkflowValues(
  workflowSlugs: Map<string, string>,
  accounts: AccountRead[],
  shared: EnvValueListItem[],
  context: { listValues: ValueLister; progress: ReadProgress; hasWorkflowScope: boolean },
): Promise<number> {
  if (!context.hasWorkflowScope || workflowSlugs.size === 0) return 0;
  const byAccount = new Map(accounts.map((a) => [a.account.account_id, a]));
  let unselected = 0;
  context.progress.phase(`Reading env values of ${workflowSlugs.size} workflows`);
  for (const workflowId of workflowSlugs.keys()) {
    for (const value of await context.listValues("workflow", { workflow_id: workflowId })) {
      if (!value.linked_account_id) shared.push(value);
      else if (byAccount.has(value.linked_account_id))
        byAccount.get(value.linked_account_id)!.workflowEnvValues.push(value);
      else unselected++;
    }
  }
  return unselected;
}

/** Reads the selected part of the workspace; throws ImportInputError for an unknown slug or linked account. */
export async function readWorkspace(
  client: PlatformReader,
  selection: ImportSelection,
  progress: ReadProgress,
): Promise<WorkspaceRead> {
  const callsBefore = client.calls;
  const all = await listAccounts(client, progress);
  const selected = selectAccounts(all, selection.linkedAccountIds);

  progress.phase("Reading env variable definitions");
  const definitions = await listEnvDefinitions(client).all();
  const listValues = valueLister(client, definitions);
  const sharedEnvValues = [...(await listValues("org")), ...(await listValues("workspace"))];

  const accounts = await readAccounts(client, selected, selection.slugs, { listValues, progress });
  const unselected = all.filter((account) => !selected.includes(account));
  const referenceConfigs = await readReferenceConfigs(client, unselected, accounts, selection.slugs);
  const workflowSlugs = workflowsOf(accounts, referenceConfigs);
  const hasWorkflowScope = definitions.some((d) => d.scope === "workflow");
  const unselectedWorkflowEnvValues = await readWorkflowValues(workflowSlugs, accounts, sharedEnvValues, {
    listValues,
    progress,
    hasWorkflowScope,
  });

  return {
    slugs: selection.slugs,
    accounts,
    definitions,
    sharedEnvValues,
    referenceConfigs,
    unselectedWorkflowEnvValues,
    workflowSlugs,
    calls: client.calls - callsBefore,
  };
}

/** The accounts asked for, in the platform's order; every id asked for must exist. */
function selectAccounts(all: LinkedAccount[], ids: string[] | undefined): LinkedAccount[] {
  if (ids === undefined) return all;
  const known = new Set(all.map((a) => a.account_id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new ImportInputError(
      `unknown linked account${unknown.length > 1 ? "s" : ""} ${unknown.map((id) => JSON.stringify(id)).join(", ")}: ` +
        `the workspace's ${all.length} linked accounts do not include ${unknown.length > 1 ? "them" : "it"}. ` +
        "Check --linked-account: it takes the account's id " +
        "(account_id, what resources take as linkedAccountId), not its name",
    );
  }
  const wanted = new Set(ids);
  return all.filter((a) => wanted.has(a.account_id));
}

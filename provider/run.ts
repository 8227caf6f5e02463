// One `pulumi` command's work in a process: the connection to the platform, and what the command
// learns while it runs. The engine starts a provider process per command, so a run lasts as long
// as its connection; a new connection (other settings, or a test's "next command") is a new run,
// and nothing learned in one run leaks into the next.
import type { PlatformClient } from "./client/http";
import { collectPages, findItem } from "./client/pagination";
import type { Config, EnvDefinition, EnvScope, EnvValueListItem } from "./client/schemas";

/** Where a config lives: the key of get config. */
export interface ConfigAddress {
  slug: string;
  configId: string;
  linkedAccountId: string;
}

/** What one resource looks at in a config: a field (global or of a workflow), or a workflow's toggle. */
export type ConfigItem = { fieldId: string; workflowId?: string } | { workflowId: string };

/** Where env values live: a scope and the ids that place a value in it (the filter of list values). */
export interface EnvPlacement {
  scope: EnvScope;
  linkedAccountId?: string;
  workflowId?: string;
}

const configKey = (a: ConfigAddress) => JSON.stringify([a.linkedAccountId, a.slug, a.configId]);
const placementKey = (p: EnvPlacement) => JSON.stringify([p.scope, p.linkedAccountId ?? null, p.workflowId ?? null]);
const itemKey = (item: ConfigItem) => ("fieldId" in item ? `field:${item.workflowId ?? ""}:${item.fieldId}` : `workflow:${item.workflowId}`);

/** The read kept under `key`, or a new one; a failed read is not kept, so the next caller tries again. */
function shared<T>(reads: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let pending = reads.get(key);
  if (!pending) {
    const made = read();
    reads.set(key, made);
    made.catch(() => reads.get(key) === made && reads.delete(key));
    pending = made;
  }
  return pending;
}

/** The client of one `pulumi` command, and the reads and claims that command shares among its resources. */
export class Run {
  /**
   * Platform objects that a resource took over in this run, by resource type and id. When a
   * resource is renamed without `aliases` (or replaced with `--replace`), the engine creates the
   * new resource and then deletes the old one, in the same run, and both address the same
   * platform object. The old one's delete must then leave alone what the new one has just taken
   * over: restoring or deleting it would silently undo a deployment that reported success.
   */
  private readonly claims = new Set<string>();
  /** One read per config (see readConfig). */
  private readonly configs = new Map<string, Promise<Config>>();
  /** Config items this run has written, as `configKey + itemKey`. */
  private readonly written = new Set<string>();
  /** Env definitions read in this run: many values share a definition, whose scope and format do not change within a command. */
  private readonly definitions = new Map<string, Promise<EnvDefinition>>();

  /** One listing per env placement (see findEnvValue). */
  private readonly envListings = new Map<string, Promise<EnvValueListItem[]>>();
  /** Env values this run has written, as `placementKey + definitionId`. */
  private readonly envWritten = new Set<string>();

  /** A run over `client`. */
  constructor(readonly client: PlatformClient) {}

  /** Records that a resource now manages this platform object (call after a successful create). */
  claim(type: string, id: string): void {
    this.claims.add(`${type}:${id}`);
  }

  /** True when a resource took this platform object over earlier in this run: it is not ours to undo. */
  claimedByAnother(type: string, id: string): boolean {
    return this.claims.has(`${type}:${id}`);
  }

  /**
   * Reads a config for one of its items. Every field and toggle of a config reads the same
   * config, at create (to learn what to restore, and whether a write is needed) and at refresh;
   * at 20 requests per second every read saved is 50 ms of the user's run.
   *
   * Staleness rules: one read of a config serves all its resources for the rest of the run,
   * because each field and each workflow toggle is managed by one resource and nothing else in
   * the run changes them. The exception is what this run itself wrote: once a resource writes an
   * item, reads of that item go to the platform again, so a read never misses our own change.
   */
  readConfig(address: ConfigAddress, item: ConfigItem): Promise<Config> {
    const key = configKey(address);
    // Identical reads in flight are still shared by the client (http.ts).
    if (this.written.has(key + itemKey(item))) return this.client.getConfig(address);
    return shared(this.configs, key, () => this.client.getConfig(address));
  }

  /** Records that this run is about to write an item of a config: its later reads go to the platform. */
  writingConfigItem(address: ConfigAddress, item: ConfigItem): void {
    this.written.add(configKey(address) + itemKey(item));
  }

  /** Reads an env definition once per run; a failed read is dropped, so it is tried again. */
  envDefinition(definitionId: string): Promise<EnvDefinition> {
    return shared(this.definitions, definitionId, () => this.client.getEnvDefinition(definitionId));
  }

  /**
   * The value of a definition at a placement, or undefined when there is none. One listing of the
   * placement (every definition's values there, all pages) serves all its values for the run: a
   * tenant's env values cost one read at create and at refresh, not one each. The staleness rules
   * are readConfig's: a value this run wrote is looked up at the platform again.
   */
  async findEnvValue(placement: EnvPlacement, definitionId: string): Promise<EnvValueListItem | undefined> {
    const key = placementKey(placement);
    // Match on all three ids: a workflow's listing also holds its per-account values (at most one
    // value exists per definition, linked account and workflow).
    const matches = (doc: EnvValueListItem) =>
      doc.variable_definition_id._id === definitionId &&
      (doc.linked_account_id ?? undefined) === placement.linkedAccountId &&
      (doc.workflow_id ?? undefined) === placement.workflowId;
    const list = (filter: { variable_definition_id?: string }) => (page: number, limit: number) =>
      this.client.listEnvValues(placement.scope, { ...filter, linked_account_id: placement.linkedAccountId, workflow_id: placement.workflowId, page, limit });
    if (this.envWritten.has(key + definitionId)) return findItem(list({ variable_definition_id: definitionId }), matches);
    const listing = await shared(this.envListings, key, () => collectPages(list({})));
    return listing.find(matches);
  }

  /** Records that this run is about to write (set or delete) an env value: its later lookups go to the platform. */
  writingEnvValue(placement: EnvPlacement, definitionId: string): void {
    this.envWritten.add(placementKey(placement) + definitionId);
  }
}

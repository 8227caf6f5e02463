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

/**
 * Whether a listed value is a definition's at exactly this placement. A workflow's listing also
 * holds its per-account values (at most one value exists per definition, linked account and
 * workflow), so all three ids must match. An id the item does not carry is taken as the one the
 * listing was filtered by: the platform's documented item shape has neither.
 */
function isValueAt(doc: EnvValueListItem, placement: EnvPlacement, definitionId: string): boolean {
  const same = (listed: string | null | undefined, wanted: string | undefined) => listed === undefined || (listed ?? undefined) === wanted;
  return doc.variable_definition_id._id === definitionId && same(doc.linked_account_id, placement.linkedAccountId) && same(doc.workflow_id, placement.workflowId);
}

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
   * The value of a definition at a placement, or undefined when there is none; create looks
   * first with it, and read (refresh) checks with it. Reads are shared for the run, with
   * readConfig's staleness rules: a value this run wrote is looked up at the platform again.
   *   - A workflow's values, per-account ones included, are listed by workflow and definition,
   *     100 per page, once per run: K tenants' values at one workflow cost K / 100 calls.
   *   - Other values are listed by their placement (every definition's values there), once per
   *     run: a linked account's values cost one call, however many there are. The platform
   *     requires `linked_account_id` to list `linked_account` values (platform facts), so these
   *     cannot be listed for many accounts at once.
   */
  async findEnvValue(placement: EnvPlacement, definitionId: string): Promise<EnvValueListItem | undefined> {
    const key = placementKey(placement);
    if (this.envWritten.has(key + definitionId)) return findItem(this.envList(placement, definitionId), (doc) => isValueAt(doc, placement, definitionId));
    if (placement.scope === "workflow" && placement.workflowId !== undefined) {
      const workflowWide = { scope: placement.scope, workflowId: placement.workflowId };
      const listing = await shared(this.envListings, JSON.stringify([placementKey(workflowWide), definitionId]), () => collectPages(this.envList(workflowWide, definitionId)));
      // Attributing a value to its linked account needs `linked_account_id` in each item: the
      // emulator sends it; the platform's documented item shape does not promise it. Without
      // it, the placement's own listing below answers instead.
      if (listing.every((doc) => doc.linked_account_id !== undefined)) return listing.find((doc) => isValueAt(doc, placement, definitionId));
    }
    const listing = await shared(this.envListings, key, () => collectPages(this.envList(placement)));
    return listing.find((doc) => isValueAt(doc, placement, definitionId));
  }

  /** The pages of `GET /env/values/:scope` at a placement, of one definition or of all. */
  private envList(placement: EnvPlacement, definitionId?: string) {
    return (page: number, limit: number) =>
      this.client.listEnvValues(placement.scope, {
        variable_definition_id: definitionId,
        linked_account_id: placement.linkedAccountId,
        workflow_id: placement.workflowId,
        page,
        limit,
      });
  }

  /** Records that this run is about to write (set or delete) an env value: its later lookups go to the platform. */
  writingEnvValue(placement: EnvPlacement, definitionId: string): void {
    this.envWritten.add(placementKey(placement) + definitionId);
  }
}

// One `pulumi` command's session against the platform: the connection, and what the command learns
// while it runs. A new connection is a new session: nothing learned leaks into the next command.
import {
  getConfig,
  setConfigFieldValue,
  updateConfigField,
  type Config,
  type ConfigFieldRecord,
} from "./client/configs";
import {
  deleteEnvValue,
  getEnvDefinition,
  listEnvDefinitions,
  listEnvValues,
  setEnvValue,
  type EnvDefinition,
  type EnvScope,
  type EnvValueListItem,
  type EnvValueRecord,
} from "./client/envVariables";
import { NotFoundError } from "./client/errors";
import type { PlatformClient, PlatformReader } from "./client/http";
import { setWorkflowEnabled } from "./client/workflows";
import type { ConnectionSettings } from "./settingNames";

/** Where a config lives: the key of get config. */
export interface ConfigAddress {
  slug: string;
  configId: string;
  linkedAccountId: string;
}

/**
 * What one resource manages in a config: a field (global, or of `workflowId`), or without `fieldId` a
 * workflow's toggle.
 */
export interface ConfigTarget extends ConfigAddress {
  fieldId?: string;
  workflowId?: string;
}

/** Where an env value lives: its definition, scope, and the ids that place it (the filter of list values). */
export interface EnvTarget {
  definitionId: string;
  scope: EnvScope;
  linkedAccountId?: string;
  workflowId?: string;
}

const configKey = (a: ConfigAddress) => JSON.stringify([a.linkedAccountId, a.slug, a.configId]);
const itemKey = (t: ConfigTarget) =>
  t.fieldId !== undefined ? `field:${t.workflowId ?? ""}:${t.fieldId}` : `workflow:${t.workflowId}`;
const placementKey = (t: Omit<EnvTarget, "definitionId">) =>
  JSON.stringify([t.scope, t.linkedAccountId ?? null, t.workflowId ?? null]);

/**
 * Whether a listed value is exactly the target's: a workflow's listing also holds its per-account
 * values, so all three ids must match. An id the item lacks is the one the listing filtered by.
 */
function isValueAt(doc: EnvValueListItem, target: EnvTarget): boolean {
  const same = (listed: string | null | undefined, wanted: string | undefined) =>
    listed === undefined || (listed ?? undefined) === wanted;
  return (
    doc.variable_definition_id._id === target.definitionId &&
    same(doc.linked_account_id, target.linkedAccountId) &&
    same(doc.workflow_id, target.workflowId)
  );
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

/**
 * The client of one `pulumi` command, and the reads and claims it shares among its resources.
 * Every write to an object whose reads it shares goes through its methods, so that a later read
 * of what was written goes to the platform (docs/design/session.md has the staleness rules).
 */
export class Session {
  /** Platform objects a resource took over in this session, as `type:id`: a rename's delete must leave them alone. */
  private readonly claims = new Set<string>();
  /** One read per config (see readConfig). */
  private readonly configs = new Map<string, Promise<Config>>();
  /** Config items this session has written, as `configKey + itemKey`. */
  private readonly written = new Set<string>();
  /** Env definitions read in this session: their scope and format do not change within a command. */
  private readonly definitions = new Map<string, Promise<EnvDefinition>>();
  /** Every definition, listed once per session, by id. */
  private readonly definitionListing = new Map<string, Promise<Map<string, EnvDefinition>>>();
  /** One listing per env placement (see findEnvValue). */
  private readonly envListings = new Map<string, Promise<EnvValueListItem[]>>();
  /** Env values this session has written, as `placementKey + definitionId`. */
  private readonly envWritten = new Set<string>();

  /**
   * A session over `client`. Writes to the objects whose reads the session shares (configs, env
   * values) go through its methods; a write to another object (an application event) takes the client.
   */
  constructor(readonly client: PlatformClient) {}

  /** The connection's settings. */
  get settings(): ConnectionSettings {
    return this.client.settings;
  }

  /** The read-only operations, for lookups: they share this session's connection and pacing. */
  get reader(): PlatformReader {
    return this.client;
  }

  /** Records that a resource now manages this platform object (call after a successful create). */
  claim(type: string, id: string): void {
    this.claims.add(`${type}:${id}`);
  }

  /** True when a resource took this platform object over earlier in this session: it is not ours to undo. */
  claimedByAnother(type: string, id: string): boolean {
    return this.claims.has(`${type}:${id}`);
  }

  /**
   * The config that holds a target, read once for all its fields and toggles in this session (each is
   * managed by one resource), except that a target this session wrote is read again.
   */
  readConfig(target: ConfigTarget): Promise<Config> {
    const key = configKey(target);
    // Identical reads in flight are still shared by the client (http.ts).
    if (this.written.has(key + itemKey(target))) return getConfig(this.client, target);
    return shared(this.configs, key, () => getConfig(this.client, target));
  }

  /** Sets `values` on the target's field (docs/design/contract.md#config-fields). */
  updateConfigField(
    target: ConfigTarget & { fieldId: string },
    values: Record<string, unknown>,
  ): Promise<ConfigFieldRecord> {
    this.written.add(configKey(target) + itemKey(target));
    return updateConfigField(this.client, { ...target, values });
  }

  /** Sets the target's field's value, in the platform reference's `{value}` body (contract.md#conflicts). */
  setConfigFieldValue(target: ConfigTarget & { fieldId: string }, value: unknown): Promise<ConfigFieldRecord> {
    this.written.add(configKey(target) + itemKey(target));
    return setConfigFieldValue(this.client, { ...target, value });
  }

  /**
   * Enables or disables the target's workflow (docs/design/contract.md#workflows); answers with the
   * config's workflows.
   */
  setWorkflowEnabled(target: ConfigAddress & { workflowId: string }, enabled: boolean) {
    this.written.add(configKey(target) + itemKey({ ...target, fieldId: undefined }));
    return setWorkflowEnabled(this.client, { ...target, enabled });
  }

  /**
   * An env definition, from one listing of every definition per session (API key only; with a bearer
   * token alone, read by id). A failed read is dropped, so it is tried again.
   */
  envDefinition(definitionId: string): Promise<EnvDefinition> {
    if (!this.client.settings.apiKey)
      return shared(this.definitions, definitionId, () => getEnvDefinition(this.client, definitionId));
    return shared(this.definitions, definitionId, async () => {
      const listing = await shared(
        this.definitionListing,
        "all",
        async () => new Map((await listEnvDefinitions(this.client).all()).map((d) => [d._id, d])),
      );
      const definition = listing.get(definitionId);
      if (!definition)
        throw new NotFoundError(`GET /env/definitions lists no definition ${definitionId}: check definitionId`, {
          operation: "GET /env/definitions",
          status: 404,
        });
      return definition;
    });
  }

  /**
   * The target's value, or undefined when there is none. Listings are shared for the session, as
   * configs are: a workflow's values once per workflow and definition (K accounts cost K / 100
   * calls), other values once per placement; a value this session wrote is looked up again.
   */
  async findEnvValue(target: EnvTarget): Promise<EnvValueListItem | undefined> {
    const key = placementKey(target);
    const at = (doc: EnvValueListItem) => isValueAt(doc, target);
    if (this.envWritten.has(key + target.definitionId)) return this.envList(target, target.definitionId).find(at);
    if (target.scope === "workflow" && target.workflowId !== undefined) {
      const workflowWide = { scope: target.scope, workflowId: target.workflowId };
      const listing = await shared(
        this.envListings,
        JSON.stringify([placementKey(workflowWide), target.definitionId]),
        () => this.envList(workflowWide, target.definitionId).all(),
      );
      // Attributing a value to its account needs `linked_account_id` in each item, which the
      // platform's documented shape does not promise; without it, the placement's listing answers.
      if (listing.every((doc) => doc.linked_account_id !== undefined)) return listing.find(at);
    }
    const listing = await shared(this.envListings, key, () => this.envList(target).all());
    return listing.find(at);
  }

  /** Sets the target's value (the API's upsert). */
  setEnvValue(target: EnvTarget, value: string): Promise<EnvValueRecord> {
    this.envWritten.add(placementKey(target) + target.definitionId);
    return setEnvValue(this.client, {
      variable_definition_id: target.definitionId,
      value,
      linked_account_id: target.linkedAccountId,
      workflow_id: target.workflowId,
    });
  }

  /** Deletes the target's value, whose id is `valueId`. */
  deleteEnvValue(target: EnvTarget, valueId: string): Promise<void> {
    this.envWritten.add(placementKey(target) + target.definitionId);
    return deleteEnvValue(this.client, valueId);
  }

  /** `GET /env/values/:scope` at a placement, of one definition or of all. */
  private envList(placement: Omit<EnvTarget, "definitionId">, definitionId?: string) {
    return listEnvValues(this.client, placement.scope, {
      variable_definition_id: definitionId,
      linked_account_id: placement.linkedAccountId,
      workflow_id: placement.workflowId,
    });
  }
}

import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import writeFileAtomic from "write-file-atomic";
import {
  emulatorStateSchema,
  type App,
  type ApplicationEvent,
  type AuditEntry,
  type Config,
  type EmulatorState,
  type EnvDefinition,
  type EnvValue,
  type FieldState,
  type LinkedAccount,
  type NameValue,
  type WorkflowDefinition,
  type WorkflowState,
} from "./model";
import { safeParseState } from "./validation";

const PACKAGE_NAME = "pulumi-integration-platform";

/** Newest audit entries kept; older ones are dropped so the data file stays small. */
export const AUDIT_CAPACITY = 10_000;

/** A fixture or data file that cannot be used; the CLI reports its message and exits 2. */
export class EmulatorConfigError extends Error {
  /** Wraps a message that already names the file and the bad path. */
  constructor(message: string) {
    super(message);
    this.name = "EmulatorConfigError";
  }
}

/** Root of the installed package, found by walking up to its package.json (works from source and from dist). */
export function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === PACKAGE_NAME
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${from}`);
  }
}

/** Path of the fixture the emulator seeds from when none is given. */
export function defaultFixturePath(): string {
  return join(packageRoot(), "emulator", "fixtures", "default.json");
}

/** Reads and validates a fixture or data file; `what` names it in error messages. */
export async function readStateFile(path: string, what: "fixture" | "data file"): Promise<EmulatorState> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new EmulatorConfigError(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EmulatorConfigError(`${what} ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = safeParseState(emulatorStateSchema, json);
  if (!parsed.ok) throw new EmulatorConfigError(`${what} ${path} is invalid: ${parsed.problem}`);
  return parsed.value;
}

/** A new object id, shaped like the platform's 24-hex-digit ids. */
export function newObjectId(): string {
  return randomBytes(12).toString("hex");
}

/** The current time as the ISO string the state stores. */
export function now(): string {
  return new Date().toISOString();
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  const d = {} as Deferred;
  d.promise = new Promise<void>((resolve, reject) => Object.assign(d, { resolve, reject }));
  return d;
}

/**
 * Writes snapshots of the state atomically, one write in flight at a time. Saves requested while a
 * write runs share a single follow-up write, which snapshots the state after all of them.
 */
class StateFileWriter {
  private pending: Deferred | null = null;
  private draining: Promise<void> | null = null;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => string,
  ) {}

  save(): Promise<void> {
    this.pending ??= deferred();
    const done = this.pending.promise;
    this.draining ??= this.drain();
    return done;
  }

  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    // Yield first: `draining` must be assigned before this clears it, even when the first
    // snapshot throws before any await (a value that cannot be serialized).
    await Promise.resolve();
    while (this.pending) {
      const batch = this.pending;
      this.pending = null;
      try {
        // 0600: the file holds encrypted env values in clear.
        await writeFileAtomic(this.path, this.snapshot(), { mode: 0o600 });
        batch.resolve();
      } catch (err) {
        batch.reject(err);
      }
    }
    this.draining = null;
  }
}

/** Options of `EmulatorStore.open`. */
export interface StoreOptions {
  /** Fixture file that seeds the state and that `reset()` returns to. */
  fixtures: string;
  /** State file: loaded at start when it exists, rewritten after every change. */
  data?: string;
}

/** Where a config lives: the linked account, the application and the config id. */
export interface ConfigKey {
  linkedAccountId: string;
  slug: string;
  configId: string;
}

/** A value to upsert with `setEnvValue`. */
export interface EnvValueInput {
  definition: EnvDefinition;
  value: string;
  linkedAccountId: string | null;
  workflowId: string | null;
  actor: string;
}

/**
 * The emulator's state and its persistence. Finders return live objects; the synchronous
 * mutators change them in place and must be followed by `await store.commit()` (or run inside
 * `store.update(fn)`) so the change reaches the data file before anyone is told about it.
 */
export class EmulatorStore {
  private constructor(
    private readonly fixture: EmulatorState,
    /** The live state; `reset()` refills this same object, so references to it stay valid. */
    readonly state: EmulatorState,
    private readonly writer: StateFileWriter | null,
  ) {}

  /** Loads the fixture, then the data file when it exists (else seeds it from the fixture and writes it). */
  static async open(options: StoreOptions): Promise<EmulatorStore> {
    const fixture = await readStateFile(resolve(options.fixtures), "fixture");
    const dataPath = options.data === undefined ? undefined : resolve(options.data);
    const state =
      dataPath && existsSync(dataPath) ? await readStateFile(dataPath, "data file") : structuredClone(fixture);
    let writer: StateFileWriter | null = null;
    if (dataPath) {
      await mkdir(dirname(dataPath), { recursive: true });
      writer = new StateFileWriter(dataPath, () => `${JSON.stringify(state, null, 2)}\n`);
    }
    const store = new EmulatorStore(fixture, state, writer);
    await store.commit();
    return store;
  }

  /** Persists the current state (no-op without a data file); resolves once it is on disk. */
  commit(): Promise<void> {
    return this.writer ? this.writer.save() : Promise.resolve();
  }

  /** Runs a synchronous mutation on the live state, then persists it. */
  async update(mutate: (state: EmulatorState) => void): Promise<void> {
    mutate(this.state);
    await this.commit();
  }

  /** Puts the fixture's state back and persists it. */
  async reset(): Promise<void> {
    Object.assign(this.state, structuredClone(this.fixture));
    await this.commit();
  }

  /** A deep copy of the state, safe to keep. */
  snapshot(): EmulatorState {
    return structuredClone(this.state);
  }

  /** Waits until every requested write has reached the disk. */
  async flush(): Promise<void> {
    await this.writer?.flush();
  }

  /** The application with this slug. */
  app(slug: string): App | undefined {
    return this.state.apps.find((a) => a.slug === slug);
  }

  /** The workflow with this id, in whichever application holds it. */
  workflow(workflowId: string): { app: App; workflow: WorkflowDefinition } | undefined {
    for (const app of this.state.apps) {
      const workflow = app.workflows.find((w) => w.id === workflowId);
      if (workflow) return { app, workflow };
    }
    return undefined;
  }

  /** The linked account whose `account_id` (what clients send as linked_account_id) is given. */
  linkedAccount(accountId: string): LinkedAccount | undefined {
    return this.state.linkedAccounts.find((a) => a.account_id === accountId);
  }

  /** The config at this key. */
  config({ linkedAccountId, slug, configId }: ConfigKey): Config | undefined {
    return this.state.configs.find(
      (c) => c.linked_account_id === linkedAccountId && c.slug === slug && c.config_id === configId,
    );
  }

  /** Every config of an application with this config id, across linked accounts. */
  configsWithId(slug: string, configId: string): Config[] {
    return this.state.configs.filter((c) => c.slug === slug && c.config_id === configId);
  }

  /** The application event with this id. */
  event(eventId: string): ApplicationEvent | undefined {
    return this.state.events.find((e) => e._id === eventId);
  }

  /** The env variable definition with this id. */
  envDefinition(definitionId: string): EnvDefinition | undefined {
    return this.state.envDefinitions.find((d) => d._id === definitionId);
  }

  /** The env variable definition with this name. */
  envDefinitionByName(name: string): EnvDefinition | undefined {
    return this.state.envDefinitions.find((d) => d.name === name);
  }

  /** The env value with this id. */
  envValue(valueId: string): EnvValue | undefined {
    return this.state.envValues.find((v) => v._id === valueId);
  }

  /** The one value of a definition for (linked account, workflow); null means "not set for any". */
  envValueFor(definitionId: string, linkedAccountId: string | null, workflowId: string | null): EnvValue | undefined {
    return this.state.envValues.find(
      (v) =>
        v.variable_definition_id === definitionId &&
        v.linked_account_id === linkedAccountId &&
        v.workflow_id === workflowId,
    );
  }

  /** The config's state for a workflow, created (disabled) if the config has none yet. */
  configWorkflowState(config: Config, workflowId: string): WorkflowState {
    let state = config.workflows.find((w) => w.id === workflowId);
    if (!state) {
      state = { id: workflowId, enabled: false, fields: [] };
      config.workflows.push(state);
    }
    return state;
  }

  /** The config's overrides for a global field (workflowId null) or a workflow field, created empty if absent. */
  configFieldState(config: Config, workflowId: string | null, fieldId: string): FieldState {
    const fields = workflowId === null ? config.fields : this.configWorkflowState(config, workflowId).fields;
    let state = fields.find((f) => f.id === fieldId);
    if (!state) {
      state = { id: fieldId };
      fields.push(state);
    }
    return state;
  }

  /** Creates the config (all workflows disabled) or replaces its labels; `created` says which. */
  upsertConfig(key: ConfigKey, labels: NameValue[] | undefined): { config: Config; created: boolean } {
    const existing = this.config(key);
    const timestamp = now();
    if (existing) {
      if (labels !== undefined) Object.assign(existing, { labels, updatedAt: timestamp });
      return { config: existing, created: false };
    }
    const workflows = (this.app(key.slug)?.workflows ?? []).map((w) => ({ id: w.id, enabled: false, fields: [] }));
    const config: Config = {
      linked_account_id: key.linkedAccountId,
      slug: key.slug,
      config_id: key.configId,
      labels: labels ?? [],
      fields: [],
      workflows,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.state.configs.push(config);
    return { config, created: true };
  }

  /** Adds a linked account (without configs); use `upsertConfig` to give it some. */
  addLinkedAccount(account: { account_id: string; name: string; udf?: LinkedAccount["udf"] }): LinkedAccount {
    const timestamp = now();
    const linked: LinkedAccount = {
      _id: newObjectId(),
      account_id: account.account_id,
      name: account.name,
      environment: this.state.org.environment,
      udf: account.udf ?? [],
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.state.linkedAccounts.push(linked);
    return linked;
  }

  /** Creates or updates in place the one value of (definition, linked account, workflow). */
  setEnvValue({ definition, value, linkedAccountId, workflowId, actor }: EnvValueInput): EnvValue {
    const timestamp = now();
    const existing = this.envValueFor(definition._id, linkedAccountId, workflowId);
    if (existing) {
      return Object.assign(existing, { value, updated_by: actor, updatedAt: timestamp });
    }
    const created: EnvValue = {
      _id: newObjectId(),
      variable_definition_id: definition._id,
      org_id: this.state.org._id,
      environment: this.state.org.environment,
      linked_account_id: linkedAccountId,
      workflow_id: workflowId,
      value,
      created_by: actor,
      updated_by: actor,
      createdAt: timestamp,
      updatedAt: timestamp,
    };
    this.state.envValues.push(created);
    return created;
  }

  /** Removes an env value; returns it, or undefined when there was none. */
  deleteEnvValue(valueId: string): EnvValue | undefined {
    const index = this.state.envValues.findIndex((v) => v._id === valueId);
    return index === -1 ? undefined : this.state.envValues.splice(index, 1)[0];
  }

  /** Appends an audit entry (dropping the oldest beyond AUDIT_CAPACITY). */
  recordAudit(entry: Omit<AuditEntry, "_id" | "createdAt">): AuditEntry {
    const recorded: AuditEntry = { _id: newObjectId(), ...entry, createdAt: now() };
    this.state.audit.push(recorded);
    if (this.state.audit.length > AUDIT_CAPACITY) this.state.audit.splice(0, this.state.audit.length - AUDIT_CAPACITY);
    return recorded;
  }
}

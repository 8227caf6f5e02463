// The emulator's state and its persistence, as a service's backend keeps them. The platform's rules
// are the objects' (objects/): each object's operations sit on the store under its name
// (`store.configs.find(key)`), built from OBJECTS, so a new object needs no line here.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { EmulatorState } from "./model";
import { OBJECTS } from "./objects";
import { readDefaultFixture, readStateFile, StateFileWriter } from "./stateFile";

export { defaultFixturePath, EmulatorConfigError, packageRoot, readStateFile } from "./stateFile";
export type { ConfigKey } from "./objects/configs";
export type { EnvValueInput } from "./objects/envVariables";

type Objects = (typeof OBJECTS)[number];
type OperationsOf<O> = O extends { operations?: (store: never) => infer Ops } ? Ops : never;
/** Every object's operations, each under its name: `{ configs: Configs, envVariables: EnvVariables, … }`. */
export type ObjectOperations = {
  readonly [O in Objects as [OperationsOf<O>] extends [never] ? never : O["name"]]: OperationsOf<O>;
};

/** Options of `EmulatorStore.open`. */
export interface StoreOptions {
  /** Fixture file that seeds the state and that `reset()` returns to (default: the package's default fixture). */
  fixtures?: string;
  /** State file: loaded at start when it exists, rewritten after every change. */
  data?: string;
}

// The objects' operations are assigned in the constructor, from OBJECTS; this interface gives them
// their types on the class (declaration merging, with no member of its own), so `store.configs` is typed.
/** The emulator's state, its persistence, and every platform object's operations (`store.<object>`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface EmulatorStore extends ObjectOperations {}

/**
 * The emulator's state and its persistence. Finders return live objects; the synchronous
 * mutators change them in place and must be followed by `await store.commit()` (or run inside
 * `store.update(fn)`) so the change reaches the data file before anyone is told about it.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class EmulatorStore {
  private constructor(
    private readonly fixture: EmulatorState,
    /** The live state; `reset()` refills this same object, so references to it stay valid. */
    readonly state: EmulatorState,
    private readonly writer: StateFileWriter | null,
  ) {
    for (const object of OBJECTS) {
      if (object.operations) Object.assign(this, { [object.name]: object.operations(this) });
    }
  }

  /** Loads the fixture, then the data file when it exists (else seeds it from the fixture and writes it). */
  static async open(options: StoreOptions): Promise<EmulatorStore> {
    const fixture =
      options.fixtures === undefined
        ? await readDefaultFixture()
        : await readStateFile(resolve(options.fixtures), "fixture");
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
    await this.replace(this.fixture);
  }

  /** Puts a copy of `state` in place of the live state (the same object, refilled) and persists it. */
  async replace(state: EmulatorState): Promise<void> {
    Object.assign(this.state, structuredClone(state));
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

  // The names of 0.5.0's store API, which users' own tests call: kept for one release (deprecated in 0.6.0,
  // removed in 0.7.0: test/unit/deprecations.test.ts fails once package.json reaches it), each the
  // object's operation under its new name (CHANGELOG.md, docs/emulator.md "Store API").
  /** @deprecated Removed in 0.7.0. Use `store.applications.find(slug)`. */
  app(...args: Parameters<EmulatorStore["applications"]["find"]>) {
    return this.applications.find(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.applications.workflow(workflowId)`. */
  workflow(...args: Parameters<EmulatorStore["applications"]["workflow"]>) {
    return this.applications.workflow(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.linkedAccounts.find(accountId)`. */
  linkedAccount(...args: Parameters<EmulatorStore["linkedAccounts"]["find"]>) {
    return this.linkedAccounts.find(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.linkedAccounts.add(account)`. */
  addLinkedAccount(...args: Parameters<EmulatorStore["linkedAccounts"]["add"]>) {
    return this.linkedAccounts.add(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.configs.find(key)`. */
  config(...args: Parameters<EmulatorStore["configs"]["find"]>) {
    return this.configs.find(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.configs.withId(slug, configId)`. */
  configsWithId(...args: Parameters<EmulatorStore["configs"]["withId"]>) {
    return this.configs.withId(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.configs.workflowState(config, workflowId)`. */
  configWorkflowState(...args: Parameters<EmulatorStore["configs"]["workflowState"]>) {
    return this.configs.workflowState(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.configs.fieldState(config, workflowId, fieldId)`. */
  configFieldState(...args: Parameters<EmulatorStore["configs"]["fieldState"]>) {
    return this.configs.fieldState(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.configs.upsert(key, labels)`. */
  upsertConfig(...args: Parameters<EmulatorStore["configs"]["upsert"]>) {
    return this.configs.upsert(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.applicationEvents.find(eventId)`. */
  event(...args: Parameters<EmulatorStore["applicationEvents"]["find"]>) {
    return this.applicationEvents.find(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.envVariables.definition(definitionId)`. */
  envDefinition(...args: Parameters<EmulatorStore["envVariables"]["definition"]>) {
    return this.envVariables.definition(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.envVariables.definitionByName(name)`. */
  envDefinitionByName(...args: Parameters<EmulatorStore["envVariables"]["definitionByName"]>) {
    return this.envVariables.definitionByName(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.envVariables.value(valueId)`. */
  envValue(...args: Parameters<EmulatorStore["envVariables"]["value"]>) {
    return this.envVariables.value(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.envVariables.valueFor(definitionId, linkedAccountId, workflowId)`. */
  envValueFor(...args: Parameters<EmulatorStore["envVariables"]["valueFor"]>) {
    return this.envVariables.valueFor(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.envVariables.setValue(input)`. */
  setEnvValue(...args: Parameters<EmulatorStore["envVariables"]["setValue"]>) {
    return this.envVariables.setValue(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.envVariables.deleteValue(valueId)`. */
  deleteEnvValue(...args: Parameters<EmulatorStore["envVariables"]["deleteValue"]>) {
    return this.envVariables.deleteValue(...args);
  }
  /** @deprecated Removed in 0.7.0. Use `store.audit.record(entry)`. */
  recordAudit(...args: Parameters<EmulatorStore["audit"]["record"]>) {
    return this.audit.record(...args);
  }
}

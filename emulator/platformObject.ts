// What every platform object of the emulator is made of (docs/emulator.md, "Platform objects"): its
// keys in the state file, its fixture checks, its operations and its routes, in one file under
// objects/. A leaf: the object files import it, and it imports none of them, nor the store.
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { OperationDocs } from "./operationDoc";

/** Timestamp given to fixture objects that do not carry one, so that every reset yields identical state. */
export const FIXTURE_EPOCH = "2024-01-01T00:00:00.000Z";

/** A non-empty id, as every record's keys are. */
export const idSchema = z.string().min(1);
/** A record's timestamp; fixtures may leave it out. */
export const timestampSchema = z.iso.datetime({ offset: true }).default(FIXTURE_EPOCH);

/** A `{name, value}` pair: a select option or a label. */
export const nameValueSchema = z.object({ name: z.string(), value: z.string() });
/** A `{name, value}` pair. */
export type NameValue = z.output<typeof nameValueSchema>;

/** The organisation every object belongs to: the state's first key, shared by all. */
export const orgSchema = z.object({ _id: idSchema, name: z.string(), environment: z.string().default("test") });
/** The part of the state that says whose it is. */
export interface OrgState {
  org: z.output<typeof orgSchema>;
}

/** Who changed something, as audit entries and `created_by`/`updated_by` record it. */
export type Actor = "api_key" | "bearer";

/** A new object id, shaped like the platform's 24-hex-digit ids. */
export function newObjectId(): string {
  return randomBytes(12).toString("hex");
}

/** The current time as the ISO string the state stores. */
export function now(): string {
  return new Date().toISOString();
}

/**
 * What an object's operations get of the store: the part of the state they read (`S`) and the
 * persistence. An object needing another's operations adds `{ <name>: ItsClass }` to this.
 */
export interface StoreCore<S> {
  /** The live state; its records are changed in place, then committed. */
  readonly state: S;
  /** Persists the state; resolves once it is on disk. */
  commit(): Promise<void>;
}

/** Reports a fixture problem at a path of the state (e.g. `["configs", 0, "slug"]`). */
export type Issue = (path: (string | number)[], message: string) => void;

/** Reports each item whose key another item before it has already. */
export function checkUnique<T>(issue: Issue, items: T[], key: (item: T) => string, path: string, what: string): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const k = key(item);
    if (seen.has(k)) issue([path, index], `duplicate ${what} ${k}`);
    seen.add(k);
  });
}

/**
 * A platform object of the emulator. `Needs` is what its operations take of the store (a
 * `StoreCore` and other objects' operations); its routes get that and its own operations.
 */
export interface PlatformObject<Name extends string, Shape extends z.ZodRawShape, Checked, Needs, Ops> {
  /** Its name in the platform's words, which is also its operations' place on the store: `store.<name>`. */
  readonly name: Name;
  /** Its keys in the state file and their schemas (`{}` if none); a key old data files lack needs a default. */
  readonly state: Shape;
  /** The cross-references a fixture must respect, so that the routes never meet a dangling id. */
  readonly checkReferences?: (state: Checked, issue: Issue) => void;
  /** Its operations over the store: finders, mutators and the platform's rules. */
  readonly operations?: (store: Needs) => Ops;
  /** Registers its public operations, as the platform answers them. */
  readonly routes?: (app: FastifyInstance, store: Needs & OperationsOf<Name, Ops>) => void;
  /** Its routes as the OpenAPI document describes them (openApiDocument.ts); every route has its entry. */
  readonly docs?: OperationDocs;
}

/** `{ <name>: Ops }`, or nothing for an object without operations. */
export type OperationsOf<Name extends string, Ops> = [Ops] extends [never] ? unknown : Record<Name, Ops>;

/** Declares a platform object; listing it in OBJECTS (objects/index.ts) adds it to the state and the server. */
export function defineObject<const Name extends string, Shape extends z.ZodRawShape, Checked, Needs, Ops = never>(
  object: PlatformObject<Name, Shape, Checked, Needs, Ops>,
): PlatformObject<Name, Shape, Checked, Needs, Ops> {
  return object;
}

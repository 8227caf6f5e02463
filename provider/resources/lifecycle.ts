// Pieces every resource's provider shares: input checking that lets the engine's unknown values
// through, and a diff that looks at user properties only.
import { isDeepStrictEqual } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { NotFoundError } from "../client/errors";
import type { PlatformClient } from "../client/http";
import type { Config } from "../client/schemas";
import { platformClient } from "../connection";

/** The value the engine sends during preview for anything not yet known (pulumi/pulumi#6310). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** An id the platform issues or the user chose: a string with something in it. */
export const Id = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : `must be a string, not ${describe(issue.input)}`) })
  .refine((value) => value.trim() !== "", { message: "must not be empty or whitespace" })
  .refine((value) => value === value.trim(), { message: "must not start or end with whitespace" });

/** A `{name, value}` list, as field options and labels take (spec 2.2). */
export const NameValueList = z.array(
  z.object({ name: z.string().min(1, "name must not be empty"), value: z.string() }).strict(),
  { error: (issue) => `must be a list of {name, value} objects, not ${describe(issue.input)}` },
);

/** Names a JavaScript value's kind for messages, without echoing the value itself. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Turns a zod issue into a reason; the path inside the property leads, e.g. `[0].value: ...`. */
function reasonOf(issue: z.core.$ZodIssue): string {
  const inner = issue.path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("")
    .replace(/^\./, "");
  const message = issue.code === "unrecognized_keys" ? `unknown ${issue.keys.length > 1 ? "keys" : "key"} ${issue.keys.join(", ")}` : issue.message;
  return inner ? `${inner}: ${message}` : message;
}

/**
 * Validates each property on its own, so that every bad property gets exactly one failure that
 * names it, and a property that holds an unknown value is passed through unchecked.
 */
export function checkProperties<Shape extends z.ZodRawShape>(
  shape: Shape,
  news: Record<string, unknown>,
): { inputs: Record<string, unknown>; failures: pulumi.dynamic.CheckFailure[]; known: Set<keyof Shape & string> } {
  const inputs: Record<string, unknown> = {};
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const known = new Set<keyof Shape & string>();
  for (const [property, schema] of Object.entries(shape) as [keyof Shape & string, z.ZodType][]) {
    const value = news[property];
    if (containsUnknown(value)) {
      inputs[property] = value;
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) {
      if (result.data !== undefined) inputs[property] = result.data;
      known.add(property);
    } else {
      failures.push({ property, reason: reasonOf(result.error.issues[0]) });
    }
  }
  for (const property of Object.keys(news)) {
    if (!(property in shape) && property !== "__provider") {
      failures.push({ property, reason: `is not a property of this resource (expected one of ${Object.keys(shape).join(", ")})` });
    }
  }
  return { inputs, failures, known };
}

/** Diffs user properties only: identity properties replace, the rest update in place. */
export function diffProperties<T extends object>(
  olds: T,
  news: T,
  identity: readonly (keyof T & string)[],
  updatable: readonly (keyof T & string)[],
): pulumi.dynamic.DiffResult {
  const changed = (key: keyof T & string) => containsUnknown(news[key]) || !isDeepStrictEqual(olds[key], news[key]);
  const replaces = identity.filter(changed);
  const changes = replaces.length > 0 || updatable.some(changed);
  // Replacements of these objects must not overlap: the old and the new resource would address
  // different platform objects, so create-before-delete is safe and keeps the default order.
  return { changes, replaces };
}

/**
 * Platform objects that a resource took over in this provider process, by resource type and id.
 * When a resource is renamed without `aliases` (or replaced with `--replace`), the engine creates
 * the new resource and then deletes the old one, in the same process, and both address the same
 * platform object. The old one's delete must then leave alone what the new one has just taken
 * over: restoring or deleting it would silently undo a deployment that reported success.
 */
// Kept per client: one client per connection, so per `pulumi` run in a provider process.
const claims = new WeakMap<PlatformClient, Set<string>>();

function claimed(): Set<string> {
  const client = platformClient();
  let set = claims.get(client);
  if (!set) claims.set(client, (set = new Set()));
  return set;
}

/** Records that a resource now manages this platform object (call after a successful create). */
export function claim(type: string, id: string): void {
  claimed().add(`${type}:${id}`);
}

/** True when a resource took this platform object over earlier in this run: it is not ours to undo. */
export function claimedByAnother(type: string, id: string): boolean {
  return claimed().has(`${type}:${id}`);
}

/** Where a config lives: the key of get config. */
export interface ConfigAddress {
  slug: string;
  configId: string;
  linkedAccountId: string;
}

/**
 * Config reads that every resource of one config shares: its fields and toggles all read the same
 * config, at create (to learn what to restore, and whether a write is needed) and at refresh. At
 * 20 requests per second every read saved is 50 ms of the user's run.
 *
 * Staleness rules. One read of a config serves all its resources for the rest of the run (the
 * client's lifetime: one `pulumi` command), because each field and each workflow toggle is
 * managed by one resource, and nothing else in the run changes them. The exception is what this
 * process itself writes: once a resource writes an item (a field, or a workflow's toggle), reads
 * of that item go to the platform again, so a read never misses our own change.
 */
interface ConfigReads {
  shared: Map<string, Promise<Config>>;
  /** Items this process has written, as `configKey + item`. */
  written: Set<string>;
}
const configReads = new WeakMap<PlatformClient, ConfigReads>();

function configReadsOf(client: PlatformClient): ConfigReads {
  let reads = configReads.get(client);
  if (!reads) configReads.set(client, (reads = { shared: new Map(), written: new Set() }));
  return reads;
}

const configKey = (a: ConfigAddress) => JSON.stringify([a.linkedAccountId, a.slug, a.configId]);

/** What one resource looks at in a config: a field (global or of a workflow), or a workflow's toggle. */
export type ConfigItem = { fieldId: string; workflowId?: string } | { workflowId: string };

const itemKey = (item: ConfigItem) => ("fieldId" in item ? `field:${item.workflowId ?? ""}:${item.fieldId}` : `workflow:${item.workflowId}`);

/** Reads a config for one of its items, sharing the run's read of that config unless this process wrote the item. */
export function readConfig(address: ConfigAddress, item: ConfigItem): Promise<Config> {
  const client = platformClient();
  const { shared, written } = configReadsOf(client);
  const key = configKey(address);
  // Identical reads in flight are still shared by the client (http.ts).
  if (written.has(key + itemKey(item))) return client.getConfig(address);
  let read = shared.get(key);
  if (!read) {
    read = client.getConfig(address);
    shared.set(key, read);
    // A failed read is not kept: the next resource tries again.
    read.catch(() => shared.get(key) === read && shared.delete(key));
  }
  return read;
}

/** Records that this process is about to write an item of a config: its later reads in this run go to the platform. */
export function wroteConfigItem(address: ConfigAddress, item: ConfigItem): void {
  configReadsOf(platformClient()).written.add(configKey(address) + itemKey(item));
}

/** Runs a platform call whose 404 means "already gone"; returns undefined then. */
export async function unlessGone<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** Copies the keys of `source` whose value is defined; state stays free of explicit undefineds. */
export function defined<T extends Record<string, unknown>>(source: T): Partial<T> {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined)) as Partial<T>;
}

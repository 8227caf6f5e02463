// What every lookup shares: argument validation that names the property, and a walk over every
// page of a list through `page` and `limit`, bounded by `maxItems`.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";

/** The platform's page size limit (platform facts: `limit` at most 100). */
export const MAX_PAGE_SIZE = 100;

/** Every lookup that lists takes this bound. */
export interface ListArgs {
  /** Stop after this many items (default: all of them). */
  maxItems?: number;
}

/** A zod shape for `maxItems`. */
export const maxItems = z.number({ error: "must be a number" }).int("must be a whole number").positive("must be at least 1").optional();

/** Validates a lookup's arguments; the error names the lookup, the property and the reason. */
export function parseArgs<T extends z.ZodType>(lookup: string, schema: T, args: unknown): z.infer<T> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const reasons = result.error.issues.map((issue) => {
    const property = issue.path.join(".") || "(arguments)";
    const message = issue.code === "unrecognized_keys" ? `unknown ${issue.keys.join(", ")}` : issue.message;
    return `${property}: ${message}`;
  });
  throw new Error(`${lookup}: invalid arguments: ${reasons.join("; ")}`);
}

/** One page of a list, as the client returns it. */
interface PageResult<T> {
  docs: T[];
  totalDocs: number;
  page: number;
  totalPages?: number | null;
  hasNextPage?: boolean | null;
}

/** Fetches pages 1, 2, ... until the list or `maxItems` runs out; requests only what is needed. */
export async function collectPages<T>(fetch: (page: number, limit: number) => Promise<PageResult<T>>, max?: number): Promise<T[]> {
  const items: T[] = [];
  // The page size stays the same on every page, or the platform's page numbers would shift.
  const limit = max === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, max);
  for (let page = 1; ; page += 1) {
    const result = await fetch(page, limit);
    items.push(...(max === undefined ? result.docs : result.docs.slice(0, max - items.length)));
    const more = result.hasNextPage ?? (result.totalPages != null ? page < result.totalPages : items.length < result.totalDocs);
    if (!more || result.docs.length === 0 || (max !== undefined && items.length >= max)) return items;
  }
}

/** A lookup's arguments, each of which may be an Input. */
export type InputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** Makes the `...Output` twin of a lookup: takes Inputs, returns an Output (a secret one if asked). */
export function outputVersion<A extends object, R>(lookup: (args: A) => Promise<R>, secret = false): (args: InputArgs<A>) => pulumi.Output<R> {
  return (args) => {
    // Results are plain data (no Outputs inside), so Unwrap<R> is R.
    const result = pulumi.output(args).apply((plain) => lookup(plain as A)) as pulumi.Output<R>;
    return secret ? (pulumi.secret(result) as pulumi.Output<R>) : result;
  };
}

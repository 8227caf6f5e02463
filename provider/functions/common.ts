// What every lookup shares: argument validation that names the property, `maxItems`, the run's
// read-only operations handed in, and the Output twins.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { currentSession } from "../connection";
import type { PlatformReader } from "../session";

/** Every lookup that lists takes this bound. */
export interface ListArgs {
  /** Stop after this many items (default: all of them). */
  maxItems?: number;
}

/** A zod shape for `maxItems`. */
export const maxItems = z
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .positive("must be at least 1")
  .optional();

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

/** A lookup: its arguments checked before any request (the error names `name`), then `body` run with the platform's reads. */
export function lookup<T extends z.ZodType, R>(
  name: string,
  schema: T,
  body: (reader: PlatformReader, args: z.infer<T>) => Promise<R>,
): (args?: unknown) => Promise<R> {
  return async (args) => {
    const parsed = parseArgs(name, schema, args);
    return body(currentSession().reader, parsed);
  };
}

/** A lookup's arguments, each of which may be an Input. */
export type InputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** Makes the `...Output` twin of a lookup: takes Inputs, returns an Output (a secret one if asked). */
export function outputVersion<A, R>(
  lookup: (args: A) => Promise<R>,
  secret = false,
): (args: InputArgs<NonNullable<A>>) => pulumi.Output<R> {
  return (args) => {
    // Results are plain data (no Outputs inside), so Unwrap<R> is R.
    const result = pulumi.output(args).apply((plain) => lookup(plain as A)) as pulumi.Output<R>;
    return secret ? (pulumi.secret(result) as pulumi.Output<R>) : result;
  };
}

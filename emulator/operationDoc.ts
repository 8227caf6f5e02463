// How each route describes itself for the OpenAPI document (openApiDocument.ts builds it): beside the route,
// with the schemas the route parses its request with and the one its answer fits. A leaf: the
// objects and the control plane import it; what the gate in front of every route answers
// (credentials, rate limit, faults) is added by openApiDocument.ts, not repeated here.
import type { z } from "zod";
import type { AuthPolicy } from "./auth";

/** The HTTP methods the routes use, in the document's spelling. */
export type HttpMethod = "get" | "put" | "post" | "patch" | "delete";

/** Who may call an operation: a public one's credentials (auth.ts), or the control plane's "loopback only". */
export type Caller = AuthPolicy | "control plane";

/** Statuses a route answers with an error of its own, and when. */
export type RouteErrors = Partial<Record<400 | 404 | 409 | 410, string>>;

/** One operation as its route describes it. */
export interface OperationDoc {
  /** Unique across the document, in the platform's words: `getConfig`, `setEnvValue`. */
  operationId: string;
  /** One line: what it does. */
  summary: string;
  /** More, when a line is not enough: the rules a client meets. */
  description?: string;
  /** The credentials it accepts, or "control plane". */
  caller: Caller;
  /** Its path, query and header parameters: each an object of the schemas the route reads them with. */
  params?: { path?: z.ZodObject; query?: z.ZodObject; header?: z.ZodObject };
  /** Its JSON body: the schema the route parses it with. */
  body?: z.ZodType;
  /**
   * Its answer on success and its status (200 unless said); absent for an operation that always fails
   * (410). `asFormat` names an answer that is a file's format (the state): the document shows it as what
   * its schema parses, a component of that name, which the answer always fits.
   */
  answer?: { schema: z.ZodType; status?: 200 | 201; description: string; asFormat?: string };
  /** The errors of its own; the gate's (400 for a bad body, 401, 403, 429, 5xx) are added for every operation. */
  errors?: RouteErrors;
}

/** A route file's operations: by its fastify URL (`/api/v2/public/env/values/:value_id`), then by method. */
export type OperationDocs = Record<string, Partial<Record<HttpMethod, OperationDoc>>>;

/**
 * `true` when a schema's output has exactly an interface's properties, each of a type assignable
 * both ways: `true satisfies Describes<typeof schema, Interface>` then fails to compile when the
 * interface gains a property the answer's schema does not describe.
 */
export type Describes<S extends z.ZodType, T> = [keyof z.output<S>] extends [keyof T]
  ? [keyof T] extends [keyof z.output<S>]
    ? [z.output<S>] extends [T]
      ? [T] extends [z.output<S>]
        ? true
        : false
      : false
    : false
  : false;

// What every route reads from a request the same way: the credentials it accepts, its headers,
// and who is asking. The platform's rules are not here but in the objects' operations (objects/).
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { AuthPolicy } from "./auth";
import { badRequest, missingLinkedAccountId } from "./errors";
import type { Actor } from "./platformObject";

/** The longest path parameter a route matches (fastify's default, set in server.ts); a longer one is answered 400. */
export const MAX_PATH_PARAMETER = 100;

/** A path parameter: any text up to MAX_PATH_PARAMETER characters (an empty last one matches too). */
export function pathParameter(description: string, example?: string) {
  return z
    .string()
    .max(MAX_PATH_PARAMETER)
    .meta({ description, ...(example !== undefined && { examples: [example] }) });
}

/** The `linked_account_id` header: whose config or value an operation means. */
export const linkedAccountIdHeader = z
  .string()
  .min(1)
  .meta({ description: "The linked account's account_id", examples: ["acme"] });

/** The query of the control plane's logs (requests, deliveries): only entries after a sequence number. */
export const sinceQuerySchema = z.object({
  since: z.coerce.number().int().min(0).default(0).meta({ description: "Only entries with a greater seq" }),
});

/** Route options that declare which credentials an operation accepts. */
export function accepts(auth: AuthPolicy) {
  return { config: { auth } };
}

/** A header's value, or undefined when absent or empty. */
export function optionalHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A required header's value, or 400 "<name> is required". */
export function requireHeader(request: FastifyRequest, name: string): string {
  const value = optionalHeader(request, name);
  if (value === undefined) throw badRequest(`${name} is required`);
  return value;
}

/** The `linked_account_id` header, or the platform's 400 INVALID_LINKED_ACCOUNT_ID. */
export function requireLinkedAccountId(request: FastifyRequest): string {
  const value = optionalHeader(request, "linked_account_id");
  if (value === undefined) throw missingLinkedAccountId();
  return value;
}

/** Who made a change, as audit entries and `created_by`/`updated_by` record it. */
export function actorOf(request: FastifyRequest): Actor {
  return request.apiCall?.auth === "bearer" ? "bearer" : "api_key";
}

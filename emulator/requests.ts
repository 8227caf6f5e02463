// What every route reads from a request the same way: the credentials it accepts, its headers,
// and who is asking. The platform's rules are not here but in the objects' operations (objects/).
import type { FastifyRequest } from "fastify";
import type { AuthPolicy } from "./auth";
import { badRequest, missingLinkedAccountId } from "./errors";
import type { Actor } from "./platformObject";

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

// Who is calling: the API key (`x-api-key`) or a bearer token, compared in constant time, and which
// operations accept which (docs/design/contract.md#authentication).
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { ApiError, invalidCredentials } from "./errors";

/** How a request authenticated: a valid API key, a valid bearer token, nothing, or a wrong credential. */
export type AuthKind = "api_key" | "bearer" | "none" | "invalid";

/** What an operation accepts: only the API key (org-admin), the API key or a bearer token, or no check at all. */
export type AuthPolicy = "api_key" | "api_key_or_bearer" | "none";

/** The API key and bearer token this emulator accepts. */
export interface Credentials {
  apiKey: string;
  token: string;
}

/**
 * Classifies the request's credential. `x-api-key` is looked at first and decides alone when
 * present, so a wrong API key is refused even if a valid bearer token rides along.
 */
export function detectAuthKind(headers: IncomingHttpHeaders, credentials: Credentials): AuthKind {
  const apiKey = headers["x-api-key"];
  if (apiKey !== undefined) {
    return typeof apiKey === "string" && secretEquals(apiKey, credentials.apiKey) ? "api_key" : "invalid";
  }
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    return token !== undefined && secretEquals(token, credentials.token) ? "bearer" : "invalid";
  }
  return "none";
}

/** The token of an `Authorization: Bearer <token>` header, or undefined for any other form. */
export function bearerToken(authorization: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

/** Throws the platform's 401 unless `kind` satisfies `policy`. */
export function enforceAuth(kind: AuthKind, policy: AuthPolicy): void {
  if (policy === "none" || kind === "api_key") return;
  if (kind === "bearer") {
    if (policy === "api_key_or_bearer") return;
    throw new ApiError(
      401,
      "BEARER_TOKEN_NOT_ACCEPTED",
      "Bearer tokens are not accepted for this operation (org-admin); send the API key in the x-api-key header",
    );
  }
  throw invalidCredentials();
}

// Comparing digests keeps the comparison constant-time whatever the supplied length.
function secretEquals(supplied: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(supplied), digest(expected));
}

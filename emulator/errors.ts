// The platform's error answers (docs/design/contract.md#errors): one body shape, its status and code,
// and how anything thrown in a request becomes one, so that no internal detail reaches a client.
import { STATUS_CODES } from "node:http";
import { z } from "zod";

/** Which property of the error body carries the internal code; a few platform endpoints use `error_code`. */
export type ErrorCodeKey = "error" | "error_code";

/** The platform's error body. */
export interface ErrorBody {
  status_code: number;
  http_error_type: string;
  error?: string;
  error_code?: string;
  message: string;
}

/**
 * The error body's schema for one status, or any 5xx, as the OpenAPI document describes each error
 * answer: `status_code` is the answer's own status, so a body that disagrees with its status fails it.
 */
export function errorBodySchema(status: number | "5XX"): z.ZodType<ErrorBody> {
  let schema = errorBodySchemas.get(status);
  if (!schema) {
    const statusCode = status === "5XX" ? z.number().int().min(500).max(599) : z.literal(status);
    schema = z
      .object({
        status_code: statusCode,
        http_error_type: z.string().meta({ description: "The status's reason phrase: BAD_REQUEST, NOT_FOUND, ..." }),
        error: z.string().optional().meta({ description: "The internal code, e.g. VALIDATION_ERROR" }),
        error_code: z.string().optional().meta({
          description: "The internal code, where the platform puts it here instead (a missing linked_account_id)",
        }),
        message: z.string().meta({ description: "What went wrong, and what to send instead" }),
      })
      // One component per status: a tool shows each answer's own status_code.
      .meta({ id: `ErrorBody${status}`, description: "The platform's error body" });
    errorBodySchemas.set(status, schema);
  }
  return schema;
}

// Made once per status: zod's registry takes each component id once.
const errorBodySchemas = new Map<number | "5XX", z.ZodType<ErrorBody>>();

/** An error the emulator answers with the platform's error body. */
export class ApiError extends Error {
  /** Builds an error for `statusCode` with the internal `code` and a message that says what to do next. */
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly codeKey: ErrorCodeKey = "error",
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The JSON body sent to the client. */
  toBody(): ErrorBody {
    return {
      status_code: this.statusCode,
      http_error_type: httpErrorType(this.statusCode),
      [this.codeKey]: this.code,
      message: this.message,
    };
  }
}

/** `BAD_REQUEST`, `NOT_FOUND`, `TOO_MANY_REQUESTS`, ... derived from the status's reason phrase. */
export function httpErrorType(status: number): string {
  return (STATUS_CODES[status] ?? "Error").toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

/** The internal code the emulator uses for a status when nothing more specific applies. */
export function defaultErrorCode(status: number): string {
  if (status === 400) return "VALIDATION_ERROR";
  if (status === 404) return "RESOURCE_NOT_FOUND";
  if (status === 429) return "RATE_LIMIT_EXCEEDED";
  if (status === 503) return "SERVICE_UNAVAILABLE";
  // The platform's documented 401 and 500 bodies both say SERVER_ERROR.
  return "SERVER_ERROR";
}

/** 400 VALIDATION_ERROR (or another internal code). */
export function badRequest(message: string, code = "VALIDATION_ERROR"): ApiError {
  return new ApiError(400, code, message);
}

/** 404 RESOURCE_NOT_FOUND. */
export function notFound(message: string): ApiError {
  return new ApiError(404, "RESOURCE_NOT_FOUND", message);
}

/** 401 as the platform sends it for a missing or wrong credential. */
export function invalidCredentials(): ApiError {
  return new ApiError(401, "SERVER_ERROR", "Invalid Credentials");
}

/** 400 for a missing `linked_account_id` header; the platform puts this code in `error_code`. */
export function missingLinkedAccountId(): ApiError {
  return new ApiError(400, "INVALID_LINKED_ACCOUNT_ID", "linked_account_id is required", "error_code");
}

/** 400 for a draft workflow, which the platform blocks from public routes until it is published. */
export function workflowNotPublished(workflowId: string): ApiError {
  return new ApiError(
    400,
    "WORKFLOW_NOT_PUBLISHED",
    `Workflow ${workflowId} is a draft; publish it before using it through the public API`,
  );
}

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/** Turns anything thrown inside a request (including fastify's own errors) into an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const { statusCode, code, message } = (err ?? {}) as FrameworkError;
  switch (code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return badRequest("body: malformed JSON");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      // The facts list 400 as the platform's only client-error status besides 401/404/429.
      return badRequest("Content-Type must be application/json");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      // The same 400 as a body between the parser's bound and fastify's (server.ts), not a 413.
      return badRequest("The body is too large; no operation of the API takes that much");
  }
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    return new ApiError(statusCode, defaultErrorCode(statusCode), message || httpErrorType(statusCode));
  }
  // Internals never leak to the client; the server logs them instead.
  return new ApiError(500, "SERVER_ERROR", "Internal server error");
}

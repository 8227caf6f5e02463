// One error hierarchy for every call to the platform, made by one factory (`apiErrorFrom`).
// Messages name the operation and say what to do next. They are built only from the method,
// the path template, the status and the platform's own message, never from request headers or
// bodies, so no API key, bearer token or env value can reach them.

import { SETTINGS, settingName, type SettingSource, type SettingTerms } from "../settingNames";

/** What an ApiError keeps of the failed exchange, besides its message. */
export interface ApiErrorFields {
  /** The operation that failed, as `METHOD /path`. */
  operation: string;
  /** HTTP status, when the platform answered at all. */
  status?: number;
  /** The platform's internal error code (`error` or `error_code` in its error body), or the transport's. */
  code?: string;
  /** The platform's own message (`message` in its error body), when it sent one. */
  detail?: string;
}

/** Base class of every error this package raises about the platform's API. */
export class ApiError extends Error implements ApiErrorFields {
  readonly operation: string;
  readonly status?: number;
  readonly code?: string;
  readonly detail?: string;

  /** An error with advice in `message`, and the exchange's facts in `fields`. */
  constructor(message: string, fields: ApiErrorFields) {
    super(message);
    this.name = new.target.name;
    this.operation = fields.operation;
    this.status = fields.status;
    this.code = fields.code;
    this.detail = fields.detail;
    // Advice to the user, not a bug: the dynamic provider host would print a stack trace under it.
    this.stack = `${this.name}: ${message}`;
  }

  /** The same error (class and fields) with more specific advice. */
  withAdvice(message: string): this {
    return new (this.constructor as new (message: string, fields: ApiErrorFields) => this)(message, this);
  }
}

/** 400: the platform refused the request's content. */
export class BadRequestError extends ApiError {}
/** 400 "Field with id <id> not found": a missing field is a 400 (docs/design/contract.md#config-fields). */
export class FieldNotFoundError extends BadRequestError {}
/** 400 for a draft workflow: the platform blocks drafts from public routes until they are published. */
export class WorkflowNotPublishedError extends BadRequestError {}
/** 3xx: the platform redirected the request; never followed, so credentials stay with the configured host. */
export class RedirectError extends ApiError {}
/** 401 or 403: the credentials were refused. */
export class AuthenticationError extends ApiError {}
/** 404: the object does not exist. */
export class NotFoundError extends ApiError {}
/** 410: the operation was removed from the platform. */
export class GoneError extends ApiError {}
/** 429 (or 403 "Rate Limit Hit"): the rate limit held the call past its time budget (`rateLimitBudgetMs`). */
export class RateLimitError extends ApiError {}
/** 5xx: the platform failed, through every retry. */
export class ServerError extends ApiError {}
/** No answer: connection refused or reset, DNS failure, or timeout, through every retry. */
export class ConnectionError extends ApiError {}
/** The platform answered 2xx with a body that does not have the documented shape. */
export class ResponseValidationError extends ApiError {}

/** A problem the user fixes, not a bug: the message says what to do, and there is no stack trace (see ApiError). */
export class AdviceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.stack = `${this.name}: ${message}`;
  }
}

/** A connection setting is missing or malformed; the message names the stack config key. */
export class SettingsError extends AdviceError {}

/** What the factory needs to know about a failed exchange. */
export interface FailedExchange {
  /** `METHOD /path`, with ids in the path. */
  operation: string;
  /** How the request authenticated, which decides what to tell the user to check. */
  auth: "apiKey" | "token";
  status?: number;
  /** The platform's error body, when it sent one. */
  body?: unknown;
  /** The transport error code (ECONNREFUSED, ECONNABORTED, ...), when nothing was answered. */
  transportCode?: string;
  /** How many attempts were made, retries included. */
  attempts: number;
  /** How long 429s held the call, in milliseconds (the pacer's own queue not counted). */
  rateLimitedMs?: number;
  /** The 429 time budget in force (`rateLimitBudgetMs`). */
  rateLimitBudgetMs?: number;
  /** How the advice names settings: as the provider reads them, or as `import` does (settingNames.ts). */
  terms?: SettingTerms;
}

/** Reads `{message, error | error_code}` from the platform's documented error body. */
function platformMessage(body: unknown): { message?: string; code?: string } {
  if (typeof body !== "object" || body === null) return {};
  const record = body as Record<string, unknown>;
  const message = typeof record.message === "string" ? record.message : undefined;
  const code =
    typeof record.error_code === "string"
      ? record.error_code
      : typeof record.error === "string"
        ? record.error
        : undefined;
  return { message, code };
}

/**
 * Whether an answer is the platform's rate limit: a 429, or a 403 that says "Rate Limit Hit", as
 * one older page of the platform's docs describes it (docs/design/contract.md#conflicts). Any other
 * 403 refuses the credentials.
 */
export function isRateLimitAnswer(status: number | undefined, body: unknown): boolean {
  if (status === 429) return true;
  if (status !== 403) return false;
  // Each of message, error and error_code is read: a body may carry both codes.
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const texts = typeof body === "string" ? [body] : [record.message, record.error, record.error_code];
  return texts.some((text) => typeof text === "string" && /rate[\s_-]*limit/i.test(text));
}

/** What the messages about one answered exchange share: its facts, and how they name settings. */
interface Answer {
  failure: FailedExchange;
  status: number;
  /** The fields every error of an answer keeps. */
  fields: ApiErrorFields;
  /** The platform's message, when it sent one. */
  message?: string;
  /** `: <the platform's message>`, or nothing. */
  said: string;
  /** ` (after N attempts)`, or nothing. */
  tries: string;
  /** A setting, named as the reader of the settings names it. */
  setting(source: SettingSource): string;
}

/** Turns a failed exchange into the ApiError subclass for its meaning. */
export function apiErrorFrom(failure: FailedExchange): ApiError {
  const tries = failure.attempts > 1 ? ` (after ${failure.attempts} attempts)` : "";
  const setting = (source: SettingSource) => settingName(source, failure.terms ?? "stack", "code");
  if (failure.status === undefined) return unansweredError(failure, tries, setting);
  const { message, code } = platformMessage(failure.body);
  const { operation, status } = failure;
  const answer: Answer = {
    failure,
    status,
    fields: { operation, status, code, detail: message },
    message,
    said: message ? `: ${message}` : "",
    tries,
    setting,
  };
  return statusError(answer) ?? refusedRequestError(answer);
}

/** No answer: the platform was not reached, or did not answer in time, through every retry. */
function unansweredError(
  failure: FailedExchange,
  tries: string,
  setting: (source: SettingSource) => string,
): ConnectionError {
  const why =
    failure.transportCode === "ECONNABORTED" ||
    failure.transportCode === "ETIMEDOUT" ||
    failure.transportCode === "ERR_CANCELED"
      ? "the platform did not answer in time"
      : failure.transportCode === "ERR_RESPONSE_TOO_LARGE"
        ? "the answer was larger than 16 MiB, which no operation of the API sends"
        : `the platform could not be reached (${failure.transportCode ?? "network error"})`;
  return new ConnectionError(
    `${failure.operation} failed${tries}: ${why}; check ${setting(SETTINGS.baseUrl)} and that the service is up`,
    { operation: failure.operation, code: failure.transportCode },
  );
}

/** The error a status means by itself (a redirect, the rate limit, refused credentials, 404, 410, 5xx), if any. */
function statusError(answer: Answer): ApiError | undefined {
  const { failure, status, fields, said, setting } = answer;
  const { operation } = failure;
  if (status >= 300 && status < 400) {
    return new RedirectError(
      `${status} from ${operation}: the platform redirected the request, and redirects are not followed, ` +
        "so that the API key never reaches another address. " +
        `Set ${setting(SETTINGS.baseUrl)} to the address the API is served at`,
      fields,
    );
  }
  if (isRateLimitAnswer(status, failure.body)) return rateLimitError(answer);
  if (status === 401 || status === 403) {
    const credential =
      failure.auth === "token"
        ? `the bearer token was refused; check ${setting(SETTINGS.token)}, or unset it to use the API key`
        : `the API key was refused; check ${setting(SETTINGS.apiKey)}`;
    return new AuthenticationError(`${status} from ${operation}${said}: ${credential}`, fields);
  }
  if (status === 404) return new NotFoundError(`404 from ${operation}${said}: check the ids you gave`, fields);
  if (status === 410) return new GoneError(`410 from ${operation}${said}: the platform removed this operation`, fields);
  if (status >= 500) {
    return new ServerError(
      `${status} from ${operation}${answer.tries}${said}: the platform failed; run again later, ` +
        "and contact its support if it persists",
      fields,
    );
  }
  return undefined;
}

/** The rate limit held the call past its budget: what to do about another job sharing the API key. */
function rateLimitError({ failure, status, fields, said, setting }: Answer): RateLimitError {
  const held = `${((failure.rateLimitedMs ?? 0) / 1000).toFixed(1)} s`;
  const budget = failure.rateLimitBudgetMs === undefined ? "" : ` (the budget is ${failure.rateLimitBudgetMs} ms)`;
  const answered = status === 429 ? "" : ` (the platform's rate limit, answered as ${status} "Rate Limit Hit")`;
  return new RateLimitError(
    `${status} from ${failure.operation}${said}${answered}: ` +
      `the platform's rate limit held this call for ${held} over ${failure.attempts} attempts${budget}. ` +
      "Another job or program may be using the same API key: " +
      `stagger the jobs, lower ${setting(SETTINGS.requestsPerSecond)}, ` +
      `or raise ${setting(SETTINGS.rateLimitBudgetMs)}. ` +
      "Nothing is lost: run the same command again and it carries on",
    fields,
  );
}

/**
 * The platform refused the request's content. Its quirks are recognised here, once, so that
 * callers test a class, not a message.
 */
function refusedRequestError({ failure, status, fields, message, said }: Answer): ApiError {
  const from = `${status} from ${failure.operation}${said}`;
  if (/^Field with id .* not found$/i.test(message ?? "")) {
    return new FieldNotFoundError(`${from}: check fieldId and workflowId`, fields);
  }
  // The platform's docs do not show how a draft is refused; the code, or a message about drafts, tells.
  if (fields.code === "WORKFLOW_NOT_PUBLISHED" || /\bdraft\b|not published|unpublished/i.test(message ?? "")) {
    return new WorkflowNotPublishedError(`${from}: publish the workflow, then run again`, fields);
  }
  return new BadRequestError(`${from}: fix the input named in the message`, fields);
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

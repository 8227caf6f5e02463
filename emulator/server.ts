// The emulator's HTTP server: the platform's public operations (each object's routes, objects/), the
// control plane, and what stands in front of them, in the platform's order: rate limit, injected
// faults, authentication.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from "fastify";
import { setTimeout as sleep } from "node:timers/promises";
import { detectAuthKind, enforceAuth, type AuthKind, type AuthPolicy } from "./auth";
import { registerControlPlane, CONTROL_PREFIX } from "./control";
import { guardControlPlane } from "./controlGuard";
import { ApiError, badRequest, defaultErrorCode, toApiError } from "./errors";
import type { FaultKind, FiredFault } from "./faults";
import type { EmulatorContext } from "./context";
import { OBJECTS } from "./objects";
import { registerOpenApiDocument } from "./openApiDocument";
import { MAX_PATH_PARAMETER } from "./requests";
import { isPlainObject } from "./validation";

/** Bookkeeping of one API request (control-plane requests have none). */
export interface ApiCall {
  startedAt: bigint;
  auth: AuthKind;
  fault?: FaultKind;
  /** Set when the rate limiter answered 429, to tell it from a fault-injected 429. */
  rateLimited?: true;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Which credentials the operation accepts; routes without it (404s) are not checked. */
    auth?: AuthPolicy;
  }
  interface FastifyRequest {
    apiCall: ApiCall | null;
  }
}

/**
 * Builds the fastify app: API routes, control plane, rate limit, fault injection, auth and request
 * logging. `onRoute` sees each route as it is registered: how the OpenAPI document's test finds them all.
 */
export function buildServer(ctx: EmulatorContext, onRoute?: (route: RouteOptions) => void): FastifyInstance {
  // forceCloseConnections: a delay fault must not hold close() hostage. frameworkErrors: the
  // answers fastify gives before any route or hook (a bad URL) carry the platform's body too.
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER },
    // Its reply type is generic over the route's; this one answers before any route is chosen.
    frameworkErrors: (error, _request, reply) => answerUnroutable(error.code, reply as unknown as FastifyReply),
  });
  if (onRoute) app.addHook("onRoute", onRoute);
  app.decorateRequest("apiCall", null);
  // Aborts delay faults when the server closes, so a long delay keeps neither close() nor the process waiting.
  const closing = new AbortController();
  app.addHook("preClose", async () => closing.abort());
  registerBodyParsers(app);
  registerGate(app, ctx, closing.signal);
  registerErrorAnswers(app, ctx);
  // Each platform object's public operations, from the one list of objects (objects/index.ts).
  for (const object of OBJECTS) object.routes?.(app, ctx.store);
  registerControlPlane(app, ctx);
  registerOpenApiDocument(app);
  return app;
}

/** Reads JSON bodies only, within bounds on their size and depth. */
function registerBodyParsers(app: FastifyInstance): void {
  // JSON only (fastify also parses text/plain by default). Same parser as fastify's, except that an
  // empty body with a JSON content type means "no body", which clients commonly send on DELETE;
  // routes that need a body then report it as required.
  const defaultJsonParser = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text === "") return done(null, undefined);
    // Bounds on what can be stored: a value the state file cannot hold would fail every later write.
    if (text.length > MAX_BODY_CHARS)
      return done(
        badRequest(`The body is over ${MAX_BODY_CHARS / 1024} KiB; no operation of the API takes that much`),
        undefined,
      );
    defaultJsonParser(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      if (depthOf(parsed) > MAX_BODY_DEPTH)
        return done(
          badRequest(`The body nests deeper than ${MAX_BODY_DEPTH} levels; no object of the API is that deep`),
          undefined,
        );
      done(null, parsed);
    });
  });
  // Bodiless requests pass whatever Content-Type a client library adds (axios sends a form type).
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => {
    if (body.toString() === "") done(null, undefined);
    else done(badRequest("Content-Type must be application/json"), undefined);
  });
}

/**
 * Checks each API request before its route runs, as the platform's gateway does: the control plane
 * answers loopback hosts only and refuses other sites' changes (controlGuard.ts), then come the
 * rate limit, an injected fault and the credentials. Every API call is logged when it ends, or is
 * abandoned by its client.
 */
function registerGate(app: FastifyInstance, ctx: EmulatorContext, closing: AbortSignal): void {
  app.addHook("onRequest", async (request, reply) => {
    if (isControlPlane(request.url)) {
      guardControlPlane(request);
      return;
    }
    const call: ApiCall = {
      startedAt: process.hrtime.bigint(),
      auth: detectAuthKind(request.headers, ctx.credentials),
    };
    request.apiCall = call;
    // The platform's gateway limits before anything else sees the request, so a request over the
    // limit is neither faulted nor authenticated.
    const limited = ctx.rateLimit.check(request.headers, call.auth);
    if (limited) {
      call.rateLimited = true;
      throw limited;
    }
    const fault = ctx.faults.match(request.method, pathOf(request.url));
    if (fault) {
      call.fault = fault.kind;
      if (await applyFault(fault, request, reply, ctx, closing)) return;
    }
    const policy = request.routeOptions.config.auth;
    if (policy) enforceAuth(call.auth, policy);
  });

  app.addHook("onResponse", async (request, reply) => {
    if (request.apiCall) logCall(ctx, request, reply.statusCode);
  });

  // A client that gives up (its timeout) still made the call: log it as 499, nginx's "client
  // closed request", so tests can count every attempt. The server goes on processing it, as a
  // real one would, which is what makes a client's retries need to be idempotent.
  app.addHook("onRequestAbort", async (request) => {
    if (request.apiCall) logCall(ctx, request, 499);
  });
}

/** Answers errors and unknown operations with the platform's error body. */
function registerErrorAnswers(app: FastifyInstance, ctx: EmulatorContext): void {
  app.setErrorHandler((err, _request, reply) => {
    const apiError = toApiError(err);
    if (apiError.statusCode >= 500 && !(err instanceof ApiError)) {
      ctx.warn(`internal error: ${(err as Error).stack ?? String(err)}`);
    }
    return reply.code(apiError.statusCode).headers(apiError.headers).send(apiError.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError(404, "RESOURCE_NOT_FOUND", `No operation ${request.method} ${pathOf(request.url)}`);
    return reply.code(404).send(error.toBody());
  });
}

/** Answers a URL fastify cannot route (a bad escape, an over-long parameter) with the platform's 400. */
function answerUnroutable(code: string, reply: FastifyReply): void {
  const answer =
    code === "FST_ERR_MAX_PARAM_LENGTH"
      ? badRequest(`A path parameter is over ${MAX_PATH_PARAMETER} characters; no id of the API is that long`)
      : badRequest("The path is not a valid URL: a % that starts no UTF-8 escape");
  void reply.code(answer.statusCode).send(answer.toBody());
}

/**
 * Carries out a fired fault. Returns true when the request is finished (connection reset) and the
 * normal chain must not run; a status fault throws so that the error handler answers it.
 */
async function applyFault(
  fault: FiredFault,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: EmulatorContext,
  closing: AbortSignal,
): Promise<boolean> {
  const { action } = fault;
  if ("delayMs" in action) {
    try {
      await sleep(action.delayMs, undefined, { signal: closing });
      return false;
    } catch {
      // The server is closing and has dropped the connection already: nothing is left to answer.
      reply.hijack();
      return true;
    }
  }
  if ("reset" in action) {
    logCall(ctx, request, 0);
    reply.hijack();
    request.raw.socket.destroy();
    return true;
  }
  const headers: Record<string, string> =
    action.retryAfter === undefined ? {} : { "retry-after": String(action.retryAfter) };
  const message = action.message ?? `Fault injected by the emulator (rule ${fault.ruleId})`;
  throw new ApiError(action.status, defaultErrorCode(action.status), message, "error", headers);
}

function logCall(ctx: EmulatorContext, request: FastifyRequest, status: number): void {
  const call = request.apiCall;
  if (!call) return;
  // Logged once: a reset is logged by the fault and must not be logged again if the reply finishes.
  request.apiCall = null;
  const durationMs = Number(process.hrtime.bigint() - call.startedAt) / 1e6;
  ctx.requests.record({
    time: new Date(Date.now() - durationMs).toISOString(),
    method: request.method,
    path: pathOf(request.url),
    query: { ...(request.query as Record<string, unknown>) },
    status,
    auth: call.auth,
    durationMs: Math.round(durationMs * 100) / 100,
    ...(call.fault && { fault: call.fault }),
    ...(call.rateLimited && { rateLimited: true as const }),
    ...linkedAccountOf(request),
  });
}

/**
 * The linked account a request names, for the journal: the platform's `linked_account_id` header,
 * else the same name in the query (env value lists) or in a JSON body (env value writes).
 */
function linkedAccountOf(request: FastifyRequest): { linkedAccountId?: string } {
  const candidates = [
    request.headers.linked_account_id,
    (request.query as Record<string, unknown> | undefined)?.linked_account_id,
    isPlainObject(request.body) ? request.body.linked_account_id : undefined,
  ];
  const named = candidates.find((value): value is string => typeof value === "string" && value !== "");
  return named === undefined ? {} : { linkedAccountId: named };
}

/** The largest JSON body taken, in characters, and its deepest nesting: far past the API's real objects. */
const MAX_BODY_CHARS = 256 * 1024;
const MAX_BODY_DEPTH = 32;

/** How deeply a parsed JSON value nests (a scalar is 0), without recursion: the input is hostile. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_BODY_DEPTH) return deepest;
    if (item !== null && typeof item === "object")
      for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function isControlPlane(url: string): boolean {
  const path = pathOf(url);
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

// The dashboard on the control plane (docs/emulator.md, "Dashboard"): the page and its assets at
// /_emulator/, and the JSON views it reads under /_emulator/dashboard/. Its changes go through the
// control plane's own operations (faults, rate limit, reset), which the gate guards (controlGuard.ts).
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { EmulatorContext } from "./context";
import { DASHBOARD_ASSETS, type DashboardAsset } from "./dashboardAssets";
import {
  appsView,
  envView,
  journalFilter,
  linkedAccountDetail,
  linkedAccountsPage,
  summaryView,
  webhooksView,
} from "./dashboardViews";
import { notFound } from "./errors";
import { parseInput } from "./validation";

/**
 * The page's policy: its own scripts, styles and requests only, nothing inline, nothing from
 * elsewhere, never in a frame; a value that slipped into the page as markup could run nothing.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Largest page of the linked accounts' table and of the journal. */
export const DASHBOARD_MAX_PAGE = { linkedAccounts: 100, journal: 500 };

const accountsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(DASHBOARD_MAX_PAGE.linkedAccounts).default(50),
  q: z.string().max(256).optional(),
});

const journalQuerySchema = z.object({
  since: z.coerce.number().int().min(0).optional(),
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(DASHBOARD_MAX_PAGE.journal).default(100),
  method: z.string().max(16).optional(),
  status: z
    .string()
    .regex(/^(\d{1,3}|[1-5]xx)$/, { error: 'must be a status ("429") or a class ("4xx")' })
    .optional(),
  account: z.string().max(256).optional(),
  path: z.string().max(256).optional(),
  flagged: z.enum(["true", "false"]).optional(),
});

/** Registers the page, its assets and its views under `prefix` (the control plane's). */
export function registerDashboard(app: FastifyInstance, prefix: string, ctx: EmulatorContext): void {
  const { store } = ctx;
  app.get(prefix, async (_request, reply) => reply.redirect(`${prefix}/`));
  app.get(`${prefix}/`, async (request, reply) =>
    sendAsset(reply, DASHBOARD_ASSETS["index.html"], request.headers["if-none-match"]),
  );
  app.get<{ Params: { name: string } }>(`${prefix}/assets/:name`, async (request, reply) => {
    const asset = Object.hasOwn(DASHBOARD_ASSETS, request.params.name)
      ? DASHBOARD_ASSETS[request.params.name]
      : undefined;
    if (!asset) throw notFound(`No dashboard asset ${request.params.name}`);
    return sendAsset(reply, asset, request.headers["if-none-match"]);
  });

  const views = `${prefix}/dashboard`;
  // Read afresh on every poll: never kept by the browser.
  app.addHook("onSend", async (request, reply) => {
    if (request.url.startsWith(`${views}/`)) reply.header("cache-control", "no-store");
  });
  app.get(`${views}/summary`, async () => summaryView(ctx));
  app.get(`${views}/linked-accounts`, async (request) =>
    linkedAccountsPage(store, parseInput(accountsQuerySchema, request.query, "query")),
  );
  app.get<{ Params: { id: string } }>(`${views}/linked-accounts/:id`, async (request) => {
    const detail = linkedAccountDetail(store, request.params.id);
    if (!detail) throw notFound(`Linked account ${request.params.id} not found`);
    return detail;
  });
  app.get(`${views}/env`, async () => envView(store));
  app.get(`${views}/apps`, async () => appsView(store));
  app.get(`${views}/journal`, async (request) => {
    const { since, before, limit, flagged, ...filter } = parseInput(journalQuerySchema, request.query, "query");
    const window = ctx.requests.window({
      since,
      before,
      limit,
      filter: journalFilter({ ...filter, flagged: flagged === "true" }),
    });
    return window;
  });
  app.get(`${views}/webhooks`, async () => webhooksView(ctx));
}

/** Answers with an asset, or 304 when the browser holds this version already. */
function sendAsset(reply: FastifyReply, asset: DashboardAsset, ifNoneMatch: string | undefined): FastifyReply {
  reply.headers({
    "content-security-policy": DASHBOARD_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
    etag: asset.etag,
  });
  if (ifNoneMatch === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

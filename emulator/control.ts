// The control plane under /_emulator, for tests and demos: the emulator's own operations (reset,
// state, request log, fault rules, rate limit) and the dashboard, never authenticated, logged or faulted.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { rateLimitTextProblem } from "./rateLimit";
import type { EmulatorContext } from "./context";
import { registerRunAndWebhookRoutes } from "./controlWebhooks";
import { registerDashboard } from "./dashboardRoutes";
import { notFound } from "./errors";
import { sinceQuerySchema } from "./requests";
import { parseInput } from "./validation";

/** Prefix of the control plane: never under /api, never authenticated, logged or faulted. */
export const CONTROL_PREFIX = "/_emulator";

/** The path of one fault rule. */
export const faultIdSchema = z.object({
  id: z.coerce
    .number()
    .int()
    .min(1)
    .meta({ description: "The rule's id, as listed", examples: [1] }),
});

/** The body of `PUT /_emulator/rate-limit`; text only: the object form of the limit is the library's. */
export const rateLimitChangeSchema = z.strictObject({
  rateLimit: z
    .string()
    .superRefine((value, ctx) => {
      const problem = rateLimitTextProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  retryAfter: z.boolean().optional(),
  status: z.union([z.literal(429), z.literal(403)]).optional(),
});

/**
 * Control plane for tests and demos: health, reset, snapshots, state, request log, fault rules,
 * rate limit, workflow runs, webhooks and the dashboard.
 */
export function registerControlPlane(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store, rateLimit, faults, requests } = ctx;
  registerRunAndWebhookRoutes(app, CONTROL_PREFIX, ctx);
  registerDashboard(app, CONTROL_PREFIX, ctx);
  app.get(`${CONTROL_PREFIX}/health`, async () => ({ status: "ok" }));

  // A reset or a restore starts a test afresh: every credential gets its full burst back, and the
  // runs, deliveries and receivers registered here belonged to the test that made them.
  const afresh = () => {
    rateLimit.reset();
    ctx.runs.reset();
    ctx.webhooks.reset();
  };

  app.post(`${CONTROL_PREFIX}/reset`, async () => {
    await store.reset();
    afresh();
    return { status: "ok" };
  });

  app.get(`${CONTROL_PREFIX}/snapshots`, async () => ({ snapshots: await ctx.snapshots.list() }));

  app.put(`${CONTROL_PREFIX}/snapshots/:name`, async (request) =>
    ctx.snapshots.save((request.params as { name: string }).name),
  );

  app.post(`${CONTROL_PREFIX}/snapshots/:name/restore`, async (request) => {
    const info = await ctx.snapshots.restore((request.params as { name: string }).name);
    afresh();
    return info;
  });

  app.delete(`${CONTROL_PREFIX}/snapshots/:name`, async (request) => {
    const { name } = request.params as { name: string };
    if (!(await ctx.snapshots.remove(name))) throw notFound(`no snapshot named "${name}" to delete`);
    return { deleted: name };
  });

  // Shows encrypted env values in clear: this is a test-only window onto the state, and tests
  // need to see what was stored behind "[REDACTED]".
  app.get(`${CONTROL_PREFIX}/state`, async () => store.state);

  app.get(`${CONTROL_PREFIX}/requests`, async (request) => {
    const { since } = parseInput(sinceQuerySchema, request.query, "query");
    return requests.list(since);
  });

  app.delete(`${CONTROL_PREFIX}/requests`, async () => ({ cleared: requests.clear() }));

  app.get(`${CONTROL_PREFIX}/faults`, async () => ({ rules: faults.list() }));

  app.post(`${CONTROL_PREFIX}/faults`, async (request) => ({ rules: faults.addFromBody(request.body) }));

  app.delete(`${CONTROL_PREFIX}/faults`, async () => {
    faults.clear();
    return { rules: faults.list() };
  });

  app.delete<{ Params: { id: string } }>(`${CONTROL_PREFIX}/faults/:id`, async (request) => {
    const { id } = parseInput(faultIdSchema, request.params, "params");
    if (!faults.remove(id)) throw notFound(`No fault rule ${id} to delete`);
    return { rules: faults.list() };
  });

  app.get(`${CONTROL_PREFIX}/rate-limit`, async () => rateLimit.get());

  app.put(`${CONTROL_PREFIX}/rate-limit`, async (request) =>
    rateLimit.set(parseInput(rateLimitChangeSchema, request.body)),
  );
}

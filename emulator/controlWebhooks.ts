// The control plane's workflow runs and webhooks (docs/emulator.md, "Workflow runs" and "Webhooks"):
// a test asks for a run, registers receivers, and reads or repeats deliveries here.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { WebhookInputError } from "../contract/webhookReceivers";
import type { EmulatorContext } from "./context";
import { badRequest, notFound } from "./errors";
import type { RunRequest } from "./runs";
import { parseInput } from "./validation";
import { webhookReceiverBodySchema } from "./webhooks";

const sinceQuerySchema = z.object({ since: z.coerce.number().int().min(0).default(0) });

/** Registers /_emulator/workflow-runs and /_emulator/webhooks under `prefix`. */
export function registerRunAndWebhookRoutes(
  app: FastifyInstance,
  prefix: string,
  { runs, webhooks }: EmulatorContext,
): void {
  app.post(`${prefix}/workflow-runs`, async (request, reply) => {
    const run = await runs.start(request.body as RunRequest);
    return reply.code(201).send({ run });
  });

  app.get(`${prefix}/workflow-runs`, async () => ({ runs: runs.list() }));

  app.get<{ Params: { id: string } }>(`${prefix}/workflow-runs/:id`, async (request) => {
    const run = runs.get(request.params.id);
    if (!run) throw notFound(`Workflow run ${request.params.id} not found`);
    return { run };
  });

  app.post<{ Params: { id: string } }>(`${prefix}/workflow-runs/:id/stop`, async (request) => ({
    run: await runs.stop(request.params.id),
  }));

  app.get(`${prefix}/webhooks/receivers`, async () => ({ receivers: webhooks.listReceivers(), ...webhooks.settings }));

  app.post(`${prefix}/webhooks/receivers`, async (request, reply) => {
    const input = parseInput(webhookReceiverBodySchema, request.body);
    try {
      return await reply.code(201).send({ receiver: webhooks.addReceiver(input) });
    } catch (err) {
      if (err instanceof WebhookInputError) throw badRequest(err.message);
      throw err;
    }
  });

  app.delete<{ Params: { id: string } }>(`${prefix}/webhooks/receivers/:id`, async (request) => {
    if (!webhooks.removeReceiver(request.params.id)) throw notFound(`Webhook receiver ${request.params.id} not found`);
    return { receivers: webhooks.listReceivers() };
  });

  app.get(`${prefix}/webhooks/deliveries`, async (request) => {
    const { since } = parseInput(sinceQuerySchema, request.query, "query");
    return { deliveries: webhooks.deliveries(since), pending: webhooks.pending };
  });

  app.get<{ Params: { id: string } }>(`${prefix}/webhooks/deliveries/:id`, async (request) => {
    const delivery = webhooks.delivery(request.params.id);
    if (!delivery) throw notFound(`Webhook delivery ${request.params.id} not found (the log keeps the newest 1,000)`);
    return { delivery };
  });

  app.post<{ Params: { id: string } }>(`${prefix}/webhooks/deliveries/:id/redeliver`, async (request, reply) => {
    const delivery = webhooks.redeliver(request.params.id);
    if (!delivery) throw notFound(`Webhook delivery ${request.params.id} not found (the log keeps the newest 1,000)`);
    return reply.code(201).send({ delivery });
  });
}

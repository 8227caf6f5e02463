// The control plane's workflow runs and webhooks (docs/emulator.md, "Workflow runs" and "Webhooks"):
// a test asks for a run, registers receivers, and reads or repeats deliveries here.
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { WebhookInputError } from "../contract/webhookReceivers";
import type { EmulatorContext } from "./context";
import { badRequest, notFound } from "./errors";
import type { RunRequest } from "./runs";
import { pathParameter, sinceQuerySchema } from "./requests";
import { parseInput } from "./validation";
import { webhookReceiverBodySchema } from "./webhooks";

/** The path of one workflow run. */
export const runParamsSchema = z.object({ id: pathParameter("The run's instance_id") });
/** The path of one webhook receiver. */
export const receiverParamsSchema = z.object({ id: pathParameter('The receiver\'s id, "rcv_" and a number') });
/** The path of one webhook delivery. */
export const deliveryParamsSchema = z.object({ id: pathParameter('The delivery\'s id, "dlv_" and a number') });

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

  app.get(`${prefix}/workflow-runs/:id`, async (request) => {
    const { id } = parseInput(runParamsSchema, request.params, "params");
    const run = runs.get(id);
    if (!run) throw notFound(`Workflow run ${id} not found`);
    return { run };
  });

  app.post(`${prefix}/workflow-runs/:id/stop`, async (request) => ({
    run: await runs.stop(parseInput(runParamsSchema, request.params, "params").id),
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

  app.delete(`${prefix}/webhooks/receivers/:id`, async (request) => {
    const { id } = parseInput(receiverParamsSchema, request.params, "params");
    if (!webhooks.removeReceiver(id)) throw notFound(`Webhook receiver ${id} not found`);
    return { receivers: webhooks.listReceivers() };
  });

  app.get(`${prefix}/webhooks/deliveries`, async (request) => {
    const { since } = parseInput(sinceQuerySchema, request.query, "query");
    return { deliveries: webhooks.deliveries(since), pending: webhooks.pending };
  });

  app.get(`${prefix}/webhooks/deliveries/:id`, async (request) => {
    const { id } = parseInput(deliveryParamsSchema, request.params, "params");
    const delivery = webhooks.delivery(id);
    if (!delivery) throw notFound(`Webhook delivery ${id} not found (the log keeps the newest 1,000)`);
    return { delivery };
  });

  app.post(`${prefix}/webhooks/deliveries/:id/redeliver`, async (request, reply) => {
    const { id } = parseInput(deliveryParamsSchema, request.params, "params");
    const delivery = webhooks.redeliver(id);
    if (!delivery) throw notFound(`Webhook delivery ${id} not found (the log keeps the newest 1,000)`);
    return reply.code(201).send({ delivery });
  });
}

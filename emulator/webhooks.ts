// Webhook deliveries: each workflow run's end is sent to the receivers registered for its event,
// signed as the platform signs, retried with backoff, and logged. docs/emulator.md, "Webhooks",
// has the rules; the bounds below keep a slow or absent receiver from wedging the emulator.
import axios, { type AxiosError, type AxiosInstance } from "axios";
import axiosRetry from "axios-retry";
import fastq from "fastq";
import { z } from "zod";
import { receiverUrlProblem, webhookEventOf, WebhookInputError } from "../contract/webhookReceivers";
import {
  WEBHOOK_EVENTS,
  WEBHOOK_RETRIES,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  type WebhookPayload,
} from "../contract/webhooks";
import { parseReceiverOption, type WebhookReceiverInput } from "./webhookReceivers";
import { signDelivery } from "./webhookSigning";
/** Default time a receiver may take to answer one attempt. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
/** Default first backoff; each retry waits twice the one before (1 s, 2 s, 4 s). */
export const DEFAULT_WEBHOOK_BACKOFF_MS = 1_000;
/** Deliveries sent at once; the rest wait in the queue. */
export const WEBHOOK_CONCURRENCY = 8;
/** Deliveries that may wait in the queue; beyond it a delivery is recorded as dropped. */
export const WEBHOOK_QUEUE_CAPACITY = 10_000;
/** Finished deliveries kept in the log; older ones are forgotten. */
export const WEBHOOK_LOG_CAPACITY = 1_000;
/** Receivers that may be registered at once. */
export const MAX_WEBHOOK_RECEIVERS = 100;

/** Where a delivery is: waiting, being sent (or between retries), or finished one way or another. */
export type DeliveryState = "queued" | "sending" | "delivered" | "failed" | "dropped" | "cancelled";

/** One attempt to deliver: its HTTP status, or the error when there was no answer. */
export interface DeliveryAttempt {
  /** 1 for the first attempt, up to 1 + WEBHOOK_RETRIES. */
  number: number;
  /** When it was sent (ISO 8601). */
  startedAt: string;
  /** How long the receiver took to answer or fail. */
  durationMs: number;
  /** The receiver's status, or null without an answer. */
  status: number | null;
  /** Why it failed without an answer ("timeout after 5000 ms", "connection refused", ...), or null. */
  error: string | null;
}

/** One event sent to one receiver, with every attempt. */
export interface Delivery {
  /** Grows by one per delivery, across resets, so `since` cursors stay valid. */
  seq: number;
  /** "dlv_" and the sequence number. */
  id: string;
  receiverId: string;
  url: string;
  event: WebhookEvent;
  payload: WebhookPayload;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  createdAt: string;
  finishedAt: string | null;
  /** The delivery this one repeats, when it was asked for by redeliver. */
  redeliveryOf: string | null;
}

/** A registered receiver: a URL and the events it wants. */
export interface WebhookReceiver {
  /** "rcv_" and a number. */
  id: string;
  url: string;
  events: WebhookEvent[];
  /** Who registered it: the emulator's options (the command line's --webhook) or the control plane. */
  source: "options" | "control plane";
}

/** Timing and bounds of deliveries; tests shorten the times. */
export interface WebhookSettings {
  /** Receivers registered from the start (the command line's --webhook). */
  receivers?: (WebhookReceiverInput | string)[];
  /** Time a receiver may take to answer one attempt (default 5,000 ms). */
  timeoutMs?: number;
  /** First retry's wait; each next one doubles (default 1,000 ms). */
  backoffMs?: number;
}

/** Schema of a control plane request to register a receiver. */
export const webhookReceiverBodySchema = z.strictObject({
  url: z.string().min(1).max(2048),
  events: z.array(z.string().max(64)).min(1).max(4).optional(),
});

/**
 * Sends workflow events to registered receivers. Deliveries go through a bounded queue, a few at
 * a time; each attempt has a time limit and failures are retried with exponential backoff.
 */
export class WebhookDispatcher {
  private readonly receivers = new Map<string, WebhookReceiver>();
  private readonly log = new Map<string, Delivery>();
  private readonly finished: string[] = [];
  /** Deliveries being sent, or waiting between their retries, each with what cancels it. */
  private readonly sending = new Map<Delivery, AbortController>();
  private readonly queue: fastq.queueAsPromised<Delivery, void>;
  private readonly http: AxiosInstance;
  private readonly timeoutMs: number;
  private readonly backoffMs: number;
  private nextSeq = 1;
  private nextReceiver = 1;
  private closed = false;

  /** `signingKey` is the API key: deliveries are signed with it, as the platform signs them. */
  constructor(
    private readonly signingKey: string,
    settings: WebhookSettings = {},
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.timeoutMs = positive(settings.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS, "webhook timeout");
    this.backoffMs = nonNegative(settings.backoffMs ?? DEFAULT_WEBHOOK_BACKOFF_MS, "webhook backoff");
    for (const receiver of settings.receivers ?? [])
      this.addReceiver(typeof receiver === "string" ? parseReceiverOption(receiver) : receiver, "options");
    this.http = axios.create({
      timeout: this.timeoutMs,
      // A receiver answers; it does not send the delivery elsewhere.
      maxRedirects: 0,
      maxContentLength: 64 * 1024,
      responseType: "text",
      // The body is sent as the exact text that was signed.
      transformRequest: [(data: unknown) => data],
      headers: { "content-type": "application/json", "user-agent": "pulumi-integration-platform-emulator" },
    });
    // Each attempt, retries included: a cancelled delivery sends nothing more, and the whole
    // answer (not only the silence between bytes) must come within the timeout.
    // A cancel signal per delivery, so that a reset or shutdown reaches each one it interrupts.
    this.http.interceptors.request.use((config) => {
      const cancel = this.cancelOf(config);
      if (!cancel) throw new axios.CanceledError("delivery cancelled");
      config.signal = AbortSignal.any([cancel.signal, AbortSignal.timeout(this.timeoutMs)]);
      return config;
    });
    axiosRetry(this.http, {
      retries: WEBHOOK_RETRIES,
      shouldResetTimeout: true,
      // Non-2xx, no answer, no connection: all retried, unless the delivery was cancelled.
      retryCondition: (error) => this.cancelOf(error.config) !== undefined,
      retryDelay: (retry) => this.backoffMs * 2 ** (retry - 1),
      onRetry: (_retry, error, config) => {
        this.recordAttempt(this.log.get(deliveryIdOf(config)), error);
        // The backoff waits on the delivery's cancel signal only: a reset or shutdown ends it at
        // once, an attempt's timeout (which has fired) must not.
        config.signal = this.cancelOf(config)?.signal;
      },
    });
    this.queue = fastq.promise((delivery: Delivery) => this.send(delivery), WEBHOOK_CONCURRENCY);
  }

  /** The timing in force. */
  get settings(): { timeoutMs: number; backoffMs: number; retries: number } {
    return { timeoutMs: this.timeoutMs, backoffMs: this.backoffMs, retries: WEBHOOK_RETRIES };
  }

  /** Registers a receiver; throws WebhookInputError for a bad URL, an unknown event or too many receivers. */
  addReceiver(input: WebhookReceiverInput, source: WebhookReceiver["source"] = "control plane"): WebhookReceiver {
    const problem = receiverUrlProblem(input.url);
    if (problem) throw new WebhookInputError(problem);
    if (this.receivers.size >= MAX_WEBHOOK_RECEIVERS)
      throw new WebhookInputError(`at most ${MAX_WEBHOOK_RECEIVERS} receivers may be registered`);
    const events = input.events ? [...new Set(input.events.map(webhookEventOf))] : Object.values(WEBHOOK_EVENTS);
    const receiver: WebhookReceiver = { id: `rcv_${this.nextReceiver++}`, url: input.url, events, source };
    this.receivers.set(receiver.id, receiver);
    return receiver;
  }

  /** Unregisters a receiver; its queued deliveries are still sent. Returns whether it existed. */
  removeReceiver(id: string): boolean {
    return this.receivers.delete(id);
  }

  /** The registered receivers, oldest first. */
  listReceivers(): WebhookReceiver[] {
    return [...this.receivers.values()];
  }

  /** Queues one delivery of `payload` per receiver registered for its event; returns them. */
  emit(payload: WebhookPayload): Delivery[] {
    return this.listReceivers()
      .filter((receiver) => receiver.events.includes(payload.event))
      .map((receiver) => this.enqueue(receiver.id, receiver.url, payload, null));
  }

  /** Sends a logged delivery's payload again to the same URL, as a new delivery; undefined when not in the log. */
  redeliver(id: string): Delivery | undefined {
    const original = this.log.get(id);
    return original && this.enqueue(original.receiverId, original.url, original.payload, original.id);
  }

  /** One logged delivery. */
  delivery(id: string): Delivery | undefined {
    return this.log.get(id);
  }

  /** Logged deliveries with a sequence number above `since`, oldest first. */
  deliveries(since = 0): Delivery[] {
    return [...this.log.values()].filter((d) => d.seq > since);
  }

  /** Deliveries queued or being sent. */
  get pending(): number {
    return this.queue.length() + this.queue.running();
  }

  /**
   * Cancels what is queued or being sent, forgets the log, and unregisters the control plane's
   * receivers (the options' stay).
   */
  reset(): void {
    this.cancelAll();
    for (const receiver of this.receivers.values())
      if (receiver.source === "control plane") this.receivers.delete(receiver.id);
    this.log.clear();
    this.finished.length = 0;
  }

  /** Cancels every queued and running delivery and waits (briefly) for them to settle; for shutdown. */
  async close(): Promise<void> {
    this.closed = true;
    this.cancelAll();
    // Aborted requests settle at once; the bound is for a receiver that ignores the reset.
    await Promise.race([this.queue.drained(), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  }

  private cancelAll(): void {
    for (const delivery of this.queue.getQueue()) this.finish(delivery, "cancelled");
    this.queue.kill();
    for (const [delivery, cancel] of this.sending) {
      this.finish(delivery, "cancelled");
      cancel.abort();
    }
    this.sending.clear();
  }

  /** The cancel controller of the delivery a request belongs to, while it is being sent. */
  private cancelOf(config: object | undefined): AbortController | undefined {
    const delivery = this.log.get(deliveryIdOf(config));
    return delivery?.state === "sending" ? this.sending.get(delivery) : undefined;
  }

  private enqueue(receiverId: string, url: string, payload: WebhookPayload, redeliveryOf: string | null): Delivery {
    const seq = this.nextSeq++;
    const delivery: Delivery = {
      seq,
      id: `dlv_${seq}`,
      receiverId,
      url,
      event: payload.event,
      payload,
      state: "queued",
      attempts: [],
      createdAt: new Date().toISOString(),
      finishedAt: null,
      redeliveryOf,
    };
    this.log.set(delivery.id, delivery);
    if (this.closed) this.finish(delivery, "cancelled");
    else if (this.queue.length() >= WEBHOOK_QUEUE_CAPACITY) {
      this.finish(delivery, "dropped");
      this.warn(`webhook queue full (${WEBHOOK_QUEUE_CAPACITY} waiting): ${delivery.id} to ${url} dropped`);
    } else {
      this.queue.push(delivery).catch((err: unknown) => this.warn(`webhook ${delivery.id}: ${(err as Error).message}`));
    }
    return delivery;
  }

  private async send(delivery: Delivery): Promise<void> {
    if (delivery.state !== "queued") return;
    delivery.state = "sending";
    this.sending.set(delivery, new AbortController());
    const body = JSON.stringify(delivery.payload);
    const config = {
      headers: { [WEBHOOK_SIGNATURE_HEADER]: signDelivery(body, this.signingKey) },
      [DELIVERY]: delivery.id,
    };
    try {
      const response = await this.http.post(delivery.url, body, config);
      if (delivery.state !== "sending") return;
      this.recordAttempt(delivery, undefined, response.status, response.config);
      this.finish(delivery, "delivered");
    } catch (err) {
      // A cancelled delivery was finished by cancelAll.
      if (delivery.state !== "sending") return;
      this.recordAttempt(delivery, err as AxiosError);
      this.finish(delivery, "failed");
    } finally {
      this.sending.delete(delivery);
    }
  }

  // One attempt's record; its start is the time axios-retry stamped on the request.
  private recordAttempt(delivery: Delivery | undefined, error?: AxiosError, status?: number, config?: object): void {
    if (!delivery) return;
    const started =
      ((config ?? error?.config) as Record<string, { lastRequestTime?: number } | undefined>)?.["axios-retry"]
        ?.lastRequestTime ?? Date.now();
    delivery.attempts.push({
      number: delivery.attempts.length + 1,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      status: status ?? error?.response?.status ?? null,
      error: error && !error.response ? failureText(error, this.timeoutMs) : null,
    });
  }

  private finish(delivery: Delivery, state: DeliveryState): void {
    delivery.state = state;
    delivery.finishedAt = new Date().toISOString();
    this.finished.push(delivery.id);
    while (this.finished.length > WEBHOOK_LOG_CAPACITY) this.log.delete(this.finished.shift()!);
  }
}

/**
 * Where a request's config carries its delivery's id, for axios-retry's onRetry (axios copies
 * objects in a config, not strings).
 */
const DELIVERY = "__delivery";

function deliveryIdOf(config: object | undefined): string {
  return String((config as Record<string, unknown> | undefined)?.[DELIVERY]);
}

function failureText(error: AxiosError, timeoutMs: number): string {
  // ERR_CANCELED: the attempt's timeout signal fired (a cancelled delivery records no attempt).
  if (error.code === "ECONNABORTED" || error.code === "ETIMEDOUT" || error.code === "ERR_CANCELED")
    return `no answer within ${timeoutMs} ms`;
  if (error.code === "ECONNREFUSED") return "connection refused";
  if (error.code === "ECONNRESET") return "connection reset";
  if (error.code === "ERR_FR_TOO_MANY_REDIRECTS" || error.code === "ERR_FR_MAX_BODY_LENGTH_EXCEEDED")
    return error.message;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

function positive(value: number, what: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new WebhookInputError(`${what} must be a positive number of milliseconds, got ${value}`);
  return value;
}

function nonNegative(value: number, what: string): number {
  if (!Number.isFinite(value) || value < 0)
    throw new WebhookInputError(`${what} must be zero or a positive number of milliseconds, got ${value}`);
  return value;
}

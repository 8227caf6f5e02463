// Shards on one machine share one pacer. `shards` serves it on the loopback address and hands its
// address to every stack; each shard's provider then takes every request's turn there, so a shard
// that is done or not running leaves its part to the others, and shards starting together cannot
// burst past the limit (docs/guides/rate-limits.md, "Shards share one pacer").
import { randomBytes } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Pacer } from "./pacing";

/** The environment variable that carries the broker's address to every shard's provider. */
export const RATE_BROKER_ENV = "INTEGRATION_PLATFORM_RATE_BROKER";

/** A pacer served to other processes of this machine. */
export interface RateBroker {
  /** The address to hand to the shards: `http://127.0.0.1:<port>/<secret>`. */
  url: string;
  /** The served pacer: the API key's whole rate, cut by any shard's 429. */
  pacer: Pacer;
  /** Turns granted so far. */
  readonly turns: number;
  /** The address for stack `shard`: the same pacer, its turns told apart for `firstTurn`. */
  urlFor(shard: number): string;
  /** Resolves once stack `shard` (at `urlFor(shard)`) has asked for its first turn: its first request. */
  firstTurn(shard: number): Promise<void>;
  /** Stops serving, and drops every connection: called once every stack has finished. */
  close(): Promise<void>;
}

/**
 * Serves one pacer at `requestsPerSecond` on 127.0.0.1. Only a caller that knows the random path
 * gets turns; no credential ever reaches it.
 */
export async function startRateBroker(requestsPerSecond: number, pacer: Pacer = new Pacer()): Promise<RateBroker> {
  pacer.configure(requestsPerSecond);
  const secret = randomBytes(16).toString("hex");
  // `/<secret>/turn`, or `/<secret>/stack/<n>/turn` from stack n (urlFor), and the same for rate-limited.
  const route = new RegExp(`^/${secret}(?:/stack/(\\d{1,6}))?/(turn|rate-limited)$`);
  let turns = 0;
  const firsts = new Map<number, { asked: Promise<void>; resolve: () => void }>();
  const first = (shard: number) => {
    if (!firsts.has(shard)) {
      let resolve!: () => void;
      const asked = new Promise<void>((r) => (resolve = r));
      firsts.set(shard, { asked, resolve });
    }
    return firsts.get(shard)!;
  };
  const server = http.createServer((request, response) => {
    const answer = (status: number) => response.writeHead(status, { "content-length": "0" }).end();
    request.resume();
    if (request.method !== "POST") return answer(405);
    const asked = route.exec(request.url ?? "");
    if (asked?.[2] === "turn") {
      if (asked[1] !== undefined) first(Number(asked[1])).resolve();
      void pacer.turn().then(() => {
        turns++;
        answer(204);
      });
      return;
    }
    if (asked?.[2] === "rate-limited") {
      pacer.rateLimited();
      return answer(204);
    }
    answer(404);
  });
  // Many turns wait at once, each an open request: none may time out while it waits its turn.
  server.requestTimeout = 0;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${secret}`,
    pacer,
    get turns() {
      return turns;
    },
    urlFor: (shard) => `http://127.0.0.1:${port}/${secret}/stack/${shard}`,
    firstTurn: (shard) => first(shard).asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A plugin that outlives its stack may keep a connection open: it must not keep `shards` waiting.
        server.closeAllConnections();
      }),
  };
}

/**
 * Why a broker address is refused, or undefined: it must be plain http on the loopback address,
 * since a turn must never leave the machine.
 */
export function brokerUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not a URL";
  }
  if (
    parsed.protocol !== "http:" ||
    parsed.hostname !== "127.0.0.1" ||
    parsed.username ||
    parsed.password ||
    parsed.search ||
    parsed.hash
  ) {
    return "must be http://127.0.0.1:<port>/<path>, as `shards` sets it";
  }
  return undefined;
}

/** Asks a broker for turns; false from `turn` once it cannot be reached, so the caller paces alone. */
export class RateBrokerClient {
  private readonly agent = new http.Agent({ keepAlive: true });
  private unreachable = false;

  /** `url` as `startRateBroker` gave it (checked with brokerUrlProblem first). */
  constructor(readonly url: string) {}

  /** Whether the broker stopped answering; then every turn is the caller's own. */
  get failed(): boolean {
    return this.unreachable;
  }

  /** Resolves true when the broker grants a turn, false when it cannot be reached. */
  async turn(): Promise<boolean> {
    if (this.unreachable) return false;
    const ok = await this.post("turn");
    if (!ok) this.unreachable = true;
    return ok;
  }

  /** Tells the broker that the platform answered 429, so that every shard slows down. */
  rateLimited(): void {
    if (!this.unreachable) void this.post("rate-limited");
  }

  private post(what: string): Promise<boolean> {
    return new Promise((resolve) => {
      const request = http.request(`${this.url}/${what}`, { method: "POST", agent: this.agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode === 204));
        response.on("error", () => resolve(false));
      });
      request.on("error", () => resolve(false));
      request.end();
    });
  }
}

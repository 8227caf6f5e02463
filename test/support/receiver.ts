// A real HTTP webhook receiver for tests: records every request as received (raw bytes, headers,
// arrival time) and answers as each test says: a status, or no answer at all.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request the receiver got. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** performance.now() when the body had arrived. */
  at: number;
}

/** How to answer the n-th request (1-based): a status, "hang" to never answer, or "trickle": a 200 whose body never ends. */
export type Answer = (n: number, request: ReceivedRequest) => number | "hang" | "trickle";

/** A running receiver. */
export interface TestReceiver {
  url: string;
  received: ReceivedRequest[];
  /** Changes how the next requests are answered. */
  answer: Answer;
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port; answers 200 unless told otherwise. */
export async function startReceiver(answer: Answer = () => 200, path = "/hook"): Promise<TestReceiver> {
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const receiver: TestReceiver = {
    url: "",
    received,
    answer,
    waitFor: async (count, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`the receiver got ${received.length} requests, expected ${count}, within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return received.slice(0, count);
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        at: performance.now(),
      };
      received.push(request);
      const reply = receiver.answer(received.length, request);
      if (reply === "hang") hanging.add(res);
      else if (reply === "trickle") {
        hanging.add(res);
        res.writeHead(200, { "content-type": "text/plain" });
        const timer = setInterval(() => res.write("."), 20);
        res.on("close", () => clearInterval(timer));
      } else res.writeHead(reply, { "content-type": "text/plain" }).end(reply < 300 ? "ok" : "no");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

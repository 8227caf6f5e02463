// Who may use the control plane: requests addressed to this machine (against DNS rebinding), and,
// for changes, not sent by another site's page (against cross-site request forgery). A page's
// script can make the browser send a request to localhost; only the dashboard's own page may change
// anything through it. Scripts and test clients send no Origin header, and pass.
import type { FastifyRequest } from "fastify";
import { ApiError } from "./errors";

/** Methods that read only: a cross-site page may send them but cannot read their answers (no CORS). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Throws the 403 to answer when a control-plane request may not pass; returns when it may. */
export function guardControlPlane(request: FastifyRequest): void {
  // Against DNS rebinding: a web page's script can reach this port under its own host name,
  // never under a loopback one.
  if (!isLoopbackHost(request.headers.host)) {
    throw new ApiError(
      403,
      "FORBIDDEN",
      "The control plane answers only requests addressed to this machine: Host localhost, 127.0.0.1 or [::1]",
    );
  }
  if (SAFE_METHODS.has(request.method)) return;
  // A browser names the page that sent a request in Origin (every POST, PUT and DELETE), and says
  // in Sec-Fetch-Site whether it came from another site; either one is enough to refuse.
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, request.socket.localPort)) {
    throw new ApiError(
      403,
      "FORBIDDEN",
      `The control plane refuses changes sent by another site's page (Origin ${origin.slice(0, 200)}); ` +
        "only its own dashboard and clients that send no Origin (scripts, tests) may change it",
    );
  }
  if (request.headers["sec-fetch-site"] === "cross-site") {
    throw new ApiError(403, "FORBIDDEN", "The control plane refuses changes sent by another site's page");
  }
}

/** Whether a Host header names this machine: localhost, 127.0.0.0/8 or [::1], with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    return isLoopbackName(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/** Whether an Origin header is this emulator's own: http, a loopback host and the port it was reached on. */
function isOwnOrigin(origin: string, port: number | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (a sandboxed frame, a file) and anything else unparsable is not this emulator's page.
    return false;
  }
  const urlPort = url.port === "" ? 80 : Number(url.port);
  return url.protocol === "http:" && isLoopbackName(url.hostname) && urlPort === port;
}

function isLoopbackName(hostname: string): boolean {
  const name = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return name === "localhost" || name === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

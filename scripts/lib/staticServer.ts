// A folder served over HTTP on 127.0.0.1, as a release's files are served from a registry or a
// GitHub release: what `scripts/verify-release.ts --from <folder>` and its test install from.
// Files only, by GET or HEAD, never outside the folder (no `..`, no link leading out), names
// with `+` as they are (a snapshot's version has one); a folder answers an HTML list of links,
// the page pip's `--find-links` reads. Every request is recorded, so that a test can say which
// files were fetched. Node's own http and fs: a library would bring more than these few lines.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

/** One request the server answered. */
export interface ServedRequest {
  method: string;
  /** The decoded path asked for (`/goproxy/…/@v/v0.6.0-dev.3.zip`). */
  path: string;
  status: number;
}

/** A running server of a folder. */
export interface StaticServer {
  /** Its address, with a trailing slash: `http://127.0.0.1:<port>/`. */
  url: string;
  /** Every request so far, in order. */
  requests: ServedRequest[];
  /** Stops it. */
  close(): Promise<void>;
}

/** The types clients read (pip reads the listing as HTML); every other file is bytes. */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".info": "application/json",
  ".mod": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".pom": "text/xml",
  ".xml": "text/xml",
};

/** The file under `root` that `urlPath` names, or why none: a segment `..` or a link leading out is refused. */
export function resolveInFolder(root: string, urlPath: string): { file: string } | { status: number } {
  let segments: string[];
  try {
    segments = urlPath.split("/").map((segment) => decodeURIComponent(segment));
  } catch {
    return { status: 400 };
  }
  if (segments.some((s) => s === ".." || s === "." || s.includes("\\") || s.includes("/") || s.includes("\0")))
    return { status: 403 };
  const file = path.join(root, ...segments);
  if (!fs.existsSync(file)) return { status: 404 };
  // A symbolic link inside the folder may point out of it: compare the real paths.
  const real = fs.realpathSync(file);
  const realRoot = fs.realpathSync(root);
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return { status: 403 };
  return { file: real };
}

/** An HTML page of links to a folder's entries (what `python -m http.server` answers, and pip reads). */
function listing(dir: string, urlPath: string): string {
  const links = fs
    .readdirSync(dir, { withFileTypes: true })
    .map((entry) => entry.name + (entry.isDirectory() ? "/" : ""))
    .sort()
    .map((name) => {
      const href = name.endsWith("/") ? `${encodeURIComponent(name.slice(0, -1))}/` : encodeURIComponent(name);
      const text = name.replace(/&/g, "&amp;").replace(/</g, "&lt;");
      return `<a href="${href}">${text}</a><br>`;
    });
  const title = urlPath.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body>\n${links.join("\n")}\n</body></html>\n`;
}

/** Serves `root` on 127.0.0.1 (`port` 0: a free one) until `close()`. */
export async function serveFolder(root: string, port = 0): Promise<StaticServer> {
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory())
    throw new Error(`${root} is not a folder: give the release folder (npm run release writes release/v<version>/)`);
  const requests: ServedRequest[] = [];
  const server = http.createServer((req, res) => {
    const method = req.method ?? "GET";
    const urlPath = new URL(req.url ?? "/", "http://localhost").pathname;
    let decoded = urlPath;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      // Recorded as asked; resolveInFolder refuses it.
    }
    const answer = (status: number, headers: http.OutgoingHttpHeaders = {}, body?: string | fs.ReadStream) => {
      requests.push({ method, path: decoded, status });
      // no-store: a client must not answer a later run (another folder, the same version) from its cache.
      res.writeHead(status, { "cache-control": "no-store", ...headers });
      if (body === undefined || method === "HEAD") res.end();
      else if (typeof body === "string") res.end(body);
      // A file gone between the look and the read ends the answer instead of the process.
      else body.on("error", () => res.destroy()).pipe(res);
    };
    if (method !== "GET" && method !== "HEAD") return answer(405, { allow: "GET, HEAD" });
    const found = resolveInFolder(root, urlPath);
    if ("status" in found) return answer(found.status);
    if (fs.statSync(found.file).isDirectory()) {
      // Relative links resolve against the folder's own address, which ends with a slash.
      if (!urlPath.endsWith("/")) return answer(301, { location: `${urlPath}/` });
      const page = listing(found.file, decoded);
      return answer(200, { "content-type": TYPES[".html"], "content-length": Buffer.byteLength(page) }, page);
    }
    const type = TYPES[path.extname(found.file)] ?? "application/octet-stream";
    // No stream for HEAD: one never read would open the file later, maybe once the folder is gone.
    answer(
      200,
      { "content-type": type, "content-length": fs.statSync(found.file).size },
      method === "HEAD" ? undefined : fs.createReadStream(found.file),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A real S3-compatible object store (versitygw, built by scripts/ensure-s3.sh) as the tests' and
// benchmarks' self-managed Pulumi backend: `pulumi login s3://...` against it exercises the CLI's
// own S3 client (gocloud.dev on the AWS SDK v2), its request signing and its lock files, which a
// mock of S3 or a file:// backend would not.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "./engine";

/** What `startS3Backend` may be told; every field has a default. */
export interface S3BackendOptions {
  /** The bucket holding the Pulumi state (default "pulumi-state"). */
  bucket?: string;
  /** The region the server signs for and the URL names (default "us-east-1"). */
  region?: string;
  /** How long the server may take to answer, in milliseconds (default 15 s). */
  startTimeoutMs?: number;
}

/** A running S3 server with one empty bucket, ready for `pulumi login`. */
export interface S3Backend {
  /** The backend URL, for PULUMI_BACKEND_URL or `pulumi login`. */
  readonly url: string;
  /** The variables the CLI needs beside the URL: the credentials, and blanks over a developer's own AWS settings. */
  readonly env: Record<string, string>;
  /** The server's base URL, e.g. http://127.0.0.1:40123, for direct requests. */
  readonly endpoint: string;
  /** The bucket's name. */
  readonly bucket: string;
  /** The directory the server stores the buckets in (one subdirectory per bucket). */
  readonly dataDir: string;
  /** Everything the server printed so far. */
  output(): string;
  /** Stops the server and removes its data; safe to call more than once. */
  stop(): Promise<void>;
}

let binDir: Promise<string> | undefined;

/**
 * Runs ensure-s3.sh once per process (it builds versitygw on first use) and returns the directory holding `versitygw`.
 */
export function s3BinDir(): Promise<string> {
  binDir ??= new Promise<string>((resolve, reject) => {
    // stderr is inherited so that a first, minutes-long build shows its progress.
    const child = spawn("bash", [path.join(REPO, "scripts", "ensure-s3.sh")], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(stdout.trim().split("\n").pop()!);
      else reject(new Error(`scripts/ensure-s3.sh exited ${code}; its reasons are on stderr above`));
    });
  });
  // A failure is not cached, so that a later test may try again.
  binDir.catch(() => (binDir = undefined));
  return binDir;
}

// The servers still running and their data directories, removed at exit in case a test never
// called stop().
const running = new Map<ChildProcess, string>();
process.on("exit", () => {
  for (const [child, dataDir] of running) {
    killGroup(child, "SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// Runs the server under a small shell guard that reads its stdin, a pipe from this process. The
// pipe closes whenever this process ends, even by SIGKILL or a crash, when no exit handler runs;
// the guard then stops the server. It exits with the server, too. (sh, not bash: bash reads
// ~/.bashrc when its stdin is a socket, as Node's pipes are.) fd 3 is taken before `&`, which
// would point the background reader's stdin at /dev/null.
const GUARD = `
exec 3<&0
"$@" </dev/null 3<&- &
server=$!
{ read -r _ <&3; kill -TERM "$server" 2>/dev/null; } &
reader=$!
exec 3<&-
wait "$server"
status=$?
kill "$reader" 2>/dev/null
exit "$status"
`;

/**
 * Starts versitygw on a free 127.0.0.1 port with a fresh data directory and random credentials, and creates the
 * bucket.
 */
export async function startS3Backend(options: S3BackendOptions = {}): Promise<S3Backend> {
  const bucket = options.bucket ?? "pulumi-state";
  const region = options.region ?? "us-east-1";
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  const bin = path.join(await s3BinDir(), "versitygw");
  const credentials = {
    accessKeyId: `AK${randomBytes(9).toString("hex").toUpperCase()}`,
    secretAccessKey: randomBytes(24).toString("base64url"),
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-s3-"));

  // A port found free may be taken before the server binds it; then it exits and we try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const child = spawn(
      "sh",
      [
        "-c",
        GUARD,
        "s3-guard",
        bin,
        "--access",
        credentials.accessKeyId,
        "--secret",
        credentials.secretAccessKey,
        "--port",
        `127.0.0.1:${port}`,
        "--region",
        region,
        "--quiet",
        "posix",
        dataDir,
      ],
      // Its own process group, so that stop() can kill the guard and the server together; and a
      // bare environment, so that a developer's VGW_* or ROOT_ACCESS_KEY* settings cannot leak in.
      { detached: true, stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } },
    );
    running.set(child, dataDir);
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-64 * 1024));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    const exited = new Promise<void>((resolve) => child.on("close", () => (running.delete(child), resolve())));
    let stopped = false;
    const stop = async () => {
      if (!stopped) {
        stopped = true;
        // Closing the pipe makes the guard stop the server; SIGKILL only if that hangs.
        child.stdin!.end();
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    };

    try {
      await waitUntilAnswering(endpoint, credentials, region, timeoutMs, () => running.has(child));
      const created = await signedRequest(endpoint, "PUT", `/${bucket}`, credentials, region);
      if (created.status !== 200)
        throw new Error(`creating bucket ${bucket} answered ${created.status}: ${created.body}`);
    } catch (error) {
      await stop();
      if (/address already in use/.test(output) && attempt < 5) {
        fs.mkdirSync(dataDir);
        continue;
      }
      throw new Error(`versitygw did not start: ${(error as Error).message}\n--- its output\n${output}`, {
        cause: error,
      });
    }

    // The CLI's gocloud.dev driver needs the endpoint (with its scheme: the AWS SDK v2 would
    // otherwise assume https), path-style addressing (else it looks up <bucket>.127.0.0.1) and
    // the region the server signs for (else the SDK signs for "" and the server refuses).
    // The CLI itself adds request_checksum_calculation=when_required for any custom endpoint.
    const url = `s3://${bucket}?endpoint=${endpoint}&use_path_style=true&region=${region}`;
    const env = {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: region,
      // Empty is unset to the AWS SDK: a developer's session token would be sent with our key
      // and refused, a profile unknown to the files below fails the CLI's S3 set-up, and an
      // endpoint override could redirect.
      AWS_SESSION_TOKEN: "",
      AWS_PROFILE: "",
      AWS_ENDPOINT_URL: "",
      AWS_ENDPOINT_URL_S3: "",
      // The shared files (~/.aws) may set credentials, addressing or checksums of their own.
      AWS_CONFIG_FILE: path.join(dataDir, "no-aws-config"),
      AWS_SHARED_CREDENTIALS_FILE: path.join(dataDir, "no-aws-credentials"),
    };
    return { url, env, endpoint, bucket, dataDir, output: () => output, stop };
  }
}

/** Kills a detached child's whole process group (the guard and the server); one already gone is not an error. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls with a signed ListBuckets until it succeeds, the process dies (`alive` false) or the time is up. */
async function waitUntilAnswering(
  endpoint: string,
  credentials: Credentials,
  region: string,
  timeoutMs: number,
  alive: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  for (;;) {
    if (!alive()) throw new Error(`it exited (last attempt: ${last})`);
    try {
      const answer = await signedRequest(endpoint, "GET", "/", credentials, region);
      if (answer.status === 200) return;
      last = `HTTP ${answer.status}: ${answer.body}`;
    } catch (error) {
      last = (error as Error).message; // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`no answer after ${timeoutMs} ms (last attempt: ${last})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * One bodiless S3 request signed with AWS Signature Version 4, which is all the set-up needs (no
 * AWS SDK in node_modules). `pathname` must need no escaping (bucket names do not).
 */
function signedRequest(
  endpoint: string,
  method: string,
  pathname: string,
  credentials: Credentials,
  region: string,
): Promise<{ status: number; body: string }> {
  const { host } = new URL(endpoint);
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, ""); // 20260101T120000Z
  const day = amzDate.slice(0, 8);
  const payloadHash = sha256(""); // S3 requires the hash of the (empty) body.
  const signedHeaders = "host;x-amz-content-sha256;x-amz-date";
  const canonicalRequest = [
    method,
    pathname,
    "",
    `host:${host}`,
    `x-amz-content-sha256:${payloadHash}`,
    `x-amz-date:${amzDate}`,
    "",
    signedHeaders,
    payloadHash,
  ].join("\n");
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = [day, region, "s3", "aws4_request"].reduce<Buffer>(
    (k, part) => hmac(k, part),
    Buffer.from(`AWS4${credentials.secretAccessKey}`),
  );
  const signature = hmac(key, stringToSign).toString("hex");
  const headers = {
    "x-amz-content-sha256": payloadHash,
    "x-amz-date": amzDate,
    "content-length": "0",
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
  return new Promise((resolve, reject) => {
    const request = http.request(`${endpoint}${pathname}`, { method, headers, timeout: 5_000 }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end();
  });
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function hmac(key: Buffer, text: string): Buffer {
  return createHmac("sha256", key).update(text).digest();
}

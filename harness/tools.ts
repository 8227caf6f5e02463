// The project's tools (the Pulumi CLI, the language hosts, rcodesign, Node.js for the release…),
// each found or built by its scripts/ensure-*.sh, which prints the path it provides last.
import { execFileSync } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";

/** The repository's root. */
export const REPO = path.resolve(__dirname, "..");

/**
 * Where the tools and everything built for them are kept between runs: $PULUMI_IP_CACHE_DIR, else
 * pulumi-integration-platform under $XDG_CACHE_HOME or ~/.cache (scripts/lib/ensure.sh's rule).
 */
export function cacheRoot(): string {
  return (
    process.env.PULUMI_IP_CACHE_DIR ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-integration-platform")
  );
}

/**
 * Runs `scripts/<script>` in the repository and returns the last line it printed: the path of
 * what it provides. Its progress goes to this process's stderr; a failure throws.
 */
export function ensureTool(script: string, options: { timeoutMinutes?: number; args?: string[] } = {}): string {
  const out = execFileSync("bash", [path.join(REPO, "scripts", script), ...(options.args ?? [])], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: (options.timeoutMinutes ?? 30) * 60_000,
  });
  return out.trim().split("\n").pop()!;
}

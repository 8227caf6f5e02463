// The emulator's command line as a child process (emulator/main.ts through ts-node), for tests of
// its options, banner and signals.
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";

const MAIN = resolve(__dirname, "../../emulator/main.ts");
// Transpile-only keeps each child's start-up around a second; the type check runs elsewhere.
const NODE_ARGS = ["-r", "ts-node/register/transpile-only", MAIN];

/** How the child ended, with everything it printed. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A started emulator process: the child, its exit, and its output so far. */
export interface EmulatorProcess {
  child: ChildProcess;
  exited: Promise<Exit>;
  output: () => string;
}

/** Starts `pulumi-integration-platform-emulator` with `args`. */
export function runEmulator(args: string[]): EmulatorProcess {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
    cwd: resolve(__dirname, "../.."),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<Exit>((resolvePromise) =>
    child.on("exit", (code, signal) => resolvePromise({ code, signal, stdout, stderr })),
  );
  return { child, exited, output: () => stdout };
}

/** Waits for the start-up banner (up to 15 s) and returns it; rejects if the process exits first. */
export async function waitForBanner({ output, exited }: Pick<EmulatorProcess, "output" | "exited">): Promise<string> {
  const deadline = Date.now() + 15_000;
  let done = false;
  void exited.then(() => (done = true));
  while (!output().includes("Control plane:")) {
    if (done) throw new Error(`emulator exited early: ${JSON.stringify(await exited)}`);
    if (Date.now() > deadline) throw new Error(`no banner after 15 s: ${output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return output();
}

/** The base URL the banner announces. */
export function bannerUrl(banner: string): string {
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(banner);
  if (!url) throw new Error(`no URL in the banner:\n${banner}`);
  return url[1];
}

// Where the CLI reads and writes: the process's streams, or a test's own.

/** Where the CLI reads and writes; tests pass their own. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** The environment `import` reads its connection from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal, where `import` updates its progress in place (default: false). */
  stderrIsTTY?: boolean;
}

/** All of a stream's text, as UTF-8. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Whether the reader of standard output went away (`summarize … | head`): the rest of the output
 * is dropped, quietly, and the command still ends with its own exit status, as `git log | head` does.
 */
let stdoutClosed = false;

/** Writes to standard output until its reader has gone. */
function writeStdout(text: string): void {
  if (stdoutClosed) return;
  if (process.stdout.listenerCount("error") === 0) {
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
      stdoutClosed = true;
    });
  }
  process.stdout.write(text);
}

/** The process's own streams and environment. */
export const processIo: Io = {
  stdout: writeStdout,
  stderr: (text) => process.stderr.write(text),
  readStdin: () => readAll(process.stdin),
  env: process.env,
  stderrIsTTY: process.stderr.isTTY === true,
};

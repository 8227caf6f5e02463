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

/** The process's own streams and environment. */
export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: () => readAll(process.stdin),
  env: process.env,
  stderrIsTTY: process.stderr.isTTY === true,
};

// The emulator's files: the fixture and data file it reads, checked against the state's schema, and
// the atomic, one-at-a-time writer that keeps the data file up to date. The store (store.ts) uses them.
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { packageAsset } from "../contract/packageFiles";
import { emulatorStateSchema, type EmulatorState } from "./model";
import { safeParseState } from "./validation";

const PACKAGE_NAME = "pulumi-integration-platform";

/** A fixture or data file that cannot be used; the CLI reports its message and exits 2. */
export class EmulatorConfigError extends Error {
  /** Wraps a message that already names the file and the bad path. */
  constructor(message: string) {
    super(message);
    this.name = "EmulatorConfigError";
  }
}

/** Root of the installed package, found by walking up to its package.json (works from source and from dist). */
export function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === PACKAGE_NAME
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${from}`);
  }
}

/** Path of the fixture the emulator seeds from when none is given. */
export function defaultFixturePath(): string {
  return join(packageRoot(), "emulator", "fixtures", "default.json");
}

/** Reads and validates a fixture, data file or snapshot; `what` names it in error messages. */
export async function readStateFile(path: string, what: "fixture" | "data file" | "snapshot"): Promise<EmulatorState> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new EmulatorConfigError(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
  return parseStateText(text, `${what} ${path}`);
}

/** The package's version: its package.json's, the single executable's asset or the package's file. */
export function packageVersion(): string {
  const manifest = packageAsset("package.json") ?? readFileSync(join(packageRoot(), "package.json"), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
}

/** The default fixture: the single executable's asset, or the package's file (defaultFixturePath). */
export async function readDefaultFixture(): Promise<EmulatorState> {
  const asset = packageAsset("emulator/fixtures/default.json");
  return asset === undefined
    ? readStateFile(defaultFixturePath(), "fixture")
    : parseStateText(asset, "the default fixture");
}

/** Parses and validates a state's text; `named` says which file in error messages. */
function parseStateText(text: string, named: string): EmulatorState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EmulatorConfigError(`${named} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = safeParseState(emulatorStateSchema, json);
  if (!parsed.ok) throw new EmulatorConfigError(`${named} is invalid: ${parsed.problem}`);
  return parsed.value;
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  const d = {} as Deferred;
  d.promise = new Promise<void>((resolve, reject) => Object.assign(d, { resolve, reject }));
  return d;
}

/**
 * Writes snapshots of the state atomically, one write in flight at a time. Saves requested while a
 * write runs share a single follow-up write, which snapshots the state after all of them.
 */
export class StateFileWriter {
  private pending: Deferred | null = null;
  private draining: Promise<void> | null = null;

  /** Writes to `path` what `snapshot` returns at the time of each write. */
  constructor(
    private readonly path: string,
    private readonly snapshot: () => string,
  ) {}

  /** Asks for a write; resolves once a snapshot taken after this call is on disk. */
  save(): Promise<void> {
    this.pending ??= deferred();
    const done = this.pending.promise;
    this.draining ??= this.drain();
    return done;
  }

  /** Waits until every requested write has finished. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    // Yield first: `draining` must be assigned before this clears it, even when the first
    // snapshot throws before any await (a value that cannot be serialized).
    await Promise.resolve();
    while (this.pending) {
      const batch = this.pending;
      this.pending = null;
      try {
        // 0600: the file holds encrypted env values in clear.
        await writeFileAtomic(this.path, this.snapshot(), { mode: 0o600 });
        batch.resolve();
      } catch (err) {
        batch.reject(err);
      }
    }
    this.draining = null;
  }
}

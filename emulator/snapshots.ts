// Snapshots of the emulator's state under a name, for test suites that go back to a known state
// between cases faster than a restart: kept in memory, and also as files when the emulator has a
// snapshot folder (`--snapshots DIR`), so a later emulator can restore them. docs/emulator.md, "Snapshots".
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import { badRequest, notFound } from "./errors";
import { parseInput } from "./validation";
import type { EmulatorState } from "./model";
import { readStateFile } from "./stateFile";
import type { EmulatorStore } from "./store";

/** A snapshot's name: it becomes a file name, so no path separator, no leading dot, at most 64 characters. */
export const snapshotNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    "a snapshot's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  );

/** Refuses a name that is not a snapshot's (400 on the control plane, with the reason). */
function checkName(name: string): void {
  parseInput(snapshotNameSchema, name, "snapshot name");
}

/** What the emulator tells of a snapshot: never the state itself, which holds encrypted values in clear. */
export interface SnapshotInfo {
  /** The name it was saved under. */
  name: string;
  /** When it was saved (ISO 8601). */
  savedAt: string;
  /** How many linked accounts it holds, a quick check that it is the one meant; absent for a file not read yet. */
  linkedAccounts?: number;
  /** The file it is kept in, when the emulator has a snapshot folder. */
  file?: string;
}

interface Saved {
  state: EmulatorState;
  info: SnapshotInfo;
}

/** Snapshots of one store's state by name, in memory and, with a folder, on disk. */
export class Snapshots {
  private readonly saved = new Map<string, Saved>();
  private readonly dir: string | undefined;

  /** `dir`: the folder that keeps each snapshot as `<name>.json` (mode 0600: it holds env values in clear). */
  constructor(
    private readonly store: EmulatorStore,
    dir?: string,
  ) {
    this.dir = dir === undefined ? undefined : resolve(dir);
  }

  /** Saves the current state under `name`, replacing a snapshot of that name. */
  async save(name: string): Promise<SnapshotInfo> {
    checkName(name);
    const state = this.store.snapshot();
    const info: SnapshotInfo = {
      name,
      savedAt: new Date().toISOString(),
      linkedAccounts: state.linkedAccounts.length,
      ...(this.dir ? { file: this.fileOf(name) } : {}),
    };
    if (this.dir) {
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.fileOf(name), `${JSON.stringify(state)}\n`, { mode: 0o600 });
    }
    this.saved.set(name, { state, info });
    return info;
  }

  /** Puts the state saved under `name` back in place of the current one (as reset does the fixture's). */
  async restore(name: string): Promise<SnapshotInfo> {
    checkName(name);
    const saved = this.saved.get(name) ?? (await this.fromFile(name));
    if (!saved) throw notFound(this.missing(name));
    await this.store.replace(saved.state);
    return saved.info;
  }

  /** Every snapshot, in memory or in the folder, by name. */
  async list(): Promise<SnapshotInfo[]> {
    const byName = new Map([...this.saved].map(([name, { info }]) => [name, info]));
    if (this.dir && existsSync(this.dir)) {
      for (const entry of await readdir(this.dir)) {
        const name = entry.endsWith(".json") ? entry.slice(0, -".json".length) : "";
        if (byName.has(name) || !snapshotNameSchema.safeParse(name).success) continue;
        const file = this.fileOf(name);
        // The count is read only on restore: listing a folder of large snapshots stays fast.
        byName.set(name, { name, savedAt: (await stat(file)).mtime.toISOString(), file });
      }
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Deletes the snapshot `name` from memory and from the folder; false when there was none. */
  async remove(name: string): Promise<boolean> {
    checkName(name);
    const inMemory = this.saved.delete(name);
    const file = this.dir ? this.fileOf(name) : undefined;
    const onDisk = file !== undefined && existsSync(file);
    if (onDisk) await rm(file);
    return inMemory || onDisk;
  }

  private fileOf(name: string): string {
    return join(this.dir!, `${name}.json`);
  }

  private async fromFile(name: string): Promise<Saved | undefined> {
    if (!this.dir || !existsSync(this.fileOf(name))) return undefined;
    let state: EmulatorState;
    try {
      state = await readStateFile(this.fileOf(name), "snapshot");
    } catch (err) {
      // Not the caller's request but the file: say which, and what is wrong with it.
      throw badRequest(`${(err as Error).message}; save it again or delete it`, "INVALID_SNAPSHOT");
    }
    const info: SnapshotInfo = {
      name,
      savedAt: (await stat(this.fileOf(name))).mtime.toISOString(),
      linkedAccounts: state.linkedAccounts.length,
      file: this.fileOf(name),
    };
    this.saved.set(name, { state, info });
    return { state, info };
  }

  private missing(name: string): string {
    const where = this.dir
      ? `in memory or in ${this.dir}`
      : "in memory (start the emulator with --snapshots DIR to keep them in files)";
    return `no snapshot named "${name}" ${where}: save one with PUT /_emulator/snapshots/${name} first`;
  }
}

// Where `import` writes the project: checked before the first request, written only when
// everything was read, and put back as it was when a write fails.
import { constants as fsConstants } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { z } from "zod";
import { jsonProblem, shapeProblem } from "../input";
import { plural } from "../text";
import { FoundRecord } from "./found";
import type { ProjectFiles } from "./project";
import { ImportInputError } from "./read";

/**
 * Checks, before any request, that the project can be written to `out`: an empty or missing
 * directory whose nearest existing parent is writable, or any directory with --force.
 */
export async function checkOutDir(out: string, force: boolean): Promise<{ dir: string; existed: boolean }> {
  const dir = path.resolve(out);
  const code = (error: unknown) => (error as NodeJS.ErrnoException).code;
  let existing = dir;
  for (;;) {
    try {
      const stat = await fs.stat(existing);
      if (!stat.isDirectory()) {
        throw new ImportInputError(
          existing === dir
            ? `--out ${out} is a file, not a directory: name a new or empty directory`
            : `cannot create --out ${out}: ${existing} is a file, not a directory. Name a directory that can ` +
                `be created`,
        );
      }
      break;
    } catch (error) {
      if (error instanceof ImportInputError) throw error;
      if (code(error) !== "ENOENT" && code(error) !== "ENOTDIR") throw error;
      if (path.dirname(existing) === existing) break;
      existing = path.dirname(existing);
    }
  }
  try {
    await fs.access(existing, fsConstants.W_OK);
  } catch (error) {
    throw new ImportInputError(
      `cannot write to --out ${out}: ${existing === dir ? "the directory" : `its parent ${existing}`} is not ` +
        `writable (${code(error)}). Choose a directory you can write to`,
    );
  }
  if (existing !== dir) return { dir, existed: false };
  const entries = await fs.readdir(dir);
  if (entries.length > 0 && !force) {
    throw new ImportInputError(
      `--out ${out} is not empty (${plural(entries.length, "entry", "entries")}, e.g. ` +
        `${entries.slice(0, 3).join(", ")}): ` +
        "name a new or empty directory, or pass --force to rewrite the project's files there (other files are kept)",
    );
  }
  return { dir, existed: true };
}

/**
 * The records of a found.json an earlier import wrote into `dir`, if there is one; read before
 * any request, so that one the import could not keep stops it with nothing read or written.
 */
export async function earlierFound(dir: string, out: string): Promise<FoundRecord[] | undefined> {
  const file = path.join(dir, "found.json");
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ImportInputError(`cannot read ${path.join(out, "found.json")}: ${(error as Error).message}`);
  }
  const refuse = (why: string) =>
    new ImportInputError(
      `${path.join(out, "found.json")} is not what import writes (${why}); it holds what destroy puts back, so ` +
        `it is kept on --force: ` +
        "restore it from version control, or delete it to record what the platform holds now",
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw refuse(`not JSON: ${jsonProblem(text, error)}`);
  }
  const parsed = z.array(FoundRecord).safeParse(json);
  if (!parsed.success) throw refuse(shapeProblem(parsed.error.issues[0], json));
  return parsed.data;
}

/**
 * Opens a file to write without following a symbolic link at its place (O_NOFOLLOW): --force writes
 * only real files.
 */
async function writeNoFollow(file: string, data: string | Buffer): Promise<void> {
  const handle = await fs.open(
    file,
    fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/** Refuses a folder on the way to a file (`src/` of a Java project) that is a link or not a folder. */
async function refuseLinkedFolders(dir: string, name: string, out: string): Promise<void> {
  const parts = name.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const folder = parts.slice(0, i).join("/");
    const stat = await fs.lstat(path.join(dir, folder)).catch(() => undefined);
    if (stat && !stat.isDirectory()) {
      throw new ImportInputError(
        `${path.join(out, folder)} is ${stat.isSymbolicLink() ? "a symbolic link" : "not a folder"}: ` +
          `import never writes through one. Remove it, then run the import again`,
      );
    }
  }
}

/**
 * Writes the files, refusing first any place that holds other than a regular file (a link could
 * point anywhere). On a failure it puts back what it changed, and names what it could not.
 */
export async function writeProject(dir: string, existed: boolean, files: ProjectFiles, out: string): Promise<void> {
  const before = new Map<string, Buffer | undefined>();
  for (const name of Object.keys(files)) {
    const file = path.join(dir, name);
    if (existed) await refuseLinkedFolders(dir, name, out);
    const stat = existed
      ? await fs
          .lstat(file)
          .catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error)))
      : undefined;
    if (stat && !stat.isFile()) {
      throw new ImportInputError(
        `${path.join(out, name)} is ${stat.isSymbolicLink() ? "a symbolic link" : "not a regular file"}: ` +
          `import never writes through one. Remove it, then run the import again`,
      );
    }
    before.set(file, stat ? await fs.readFile(file) : undefined);
  }
  const touched: string[] = [];
  let created: string | undefined;
  try {
    if (!existed) created = await fs.mkdir(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(dir, name);
      touched.push(file);
      // Java's source sits in folders (src/main/java/platform); checked above not to be links.
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeNoFollow(file, text);
    }
  } catch (error) {
    const leftChanged: string[] = [];
    if (created) await fs.rm(created, { recursive: true, force: true }).catch(() => leftChanged.push(created!));
    else {
      for (const file of touched) {
        const was = before.get(file);
        await (was === undefined ? fs.rm(file, { force: true }) : writeNoFollow(file, was)).catch(() =>
          leftChanged.push(file),
        );
      }
    }
    throw new ImportInputError(
      `cannot write the project to --out ${out}: ${(error as Error).message}. Choose a directory you can write to`,
      leftChanged,
    );
  }
}

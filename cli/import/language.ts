// The language of the project `import` writes: --language, else the language of the Pulumi.yaml an
// earlier import (or the user) left in --out, else TypeScript. Kept apart from the renderers, so
// that the command's checks read it without loading every template.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { ImportInputError } from "./read";

/** The languages `import --language` writes a project in. */
export const LANGUAGES = ["typescript", "python", "go", "yaml", "java"] as const;

/** One language `import --language` writes a project in. */
export type Language = (typeof LANGUAGES)[number];

/** Whether a value given to --language is one of LANGUAGES. */
export const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/** The language of each Pulumi runtime `import` can write for; nodejs is TypeScript (Pulumi's own `pulumi new`). */
const RUNTIMES: Record<string, Language> = {
  nodejs: "typescript",
  python: "python",
  go: "go",
  yaml: "yaml",
  java: "java",
};

/**
 * The runtime a Pulumi.yaml names, in either form Pulumi reads (`runtime: go`, or `runtime:` with
 * `name: go` under it), or undefined when it names none.
 */
export function runtimeOf(pulumiYaml: string): string | undefined {
  // Read by hand rather than with a YAML parser, which the command line does not ship: Pulumi has these two forms.
  const inline = /^runtime:[ \t]*["']?([A-Za-z0-9_-]+)["']?[ \t]*(?:#.*)?$/m.exec(pulumiYaml);
  if (inline) return inline[1];
  const nested = /^runtime:[ \t]*(?:#.*)?\n(?:[ \t]+.*\n)*?[ \t]+name:[ \t]*["']?([A-Za-z0-9_-]+)["']?/m.exec(
    pulumiYaml,
  );
  return nested?.[1];
}

/**
 * The language to write in: the one asked for, else that of the Pulumi.yaml already in `dir`
 * (an import again with --force), else TypeScript. A Pulumi.yaml of another runtime stops the
 * import before any request, asking for --language.
 */
export async function chooseLanguage(asked: Language | undefined, dir: string, out: string): Promise<Language> {
  if (asked) return asked;
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, "Pulumi.yaml"), "utf8");
  } catch {
    return "typescript";
  }
  const runtime = runtimeOf(text);
  if (runtime !== undefined && Object.hasOwn(RUNTIMES, runtime)) return RUNTIMES[runtime];
  const named = runtime === undefined ? "no runtime" : `the runtime ${JSON.stringify(runtime)}`;
  throw new ImportInputError(
    `${path.join(out, "Pulumi.yaml")} names ${named}, ` +
      `which import cannot tell a language from: pass --language (one of ${LANGUAGES.join(", ")})`,
  );
}

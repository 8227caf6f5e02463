// The facts about the command and the package that the generated project's files mention: apart
// from project.ts, so that readme.ts can take them without importing what imports it.
import type { FoundRecord } from "./found";
import type { Language } from "./language";

/** Facts about the command and the package that the project's files mention. */
export interface ProjectMeta {
  /** The Pulumi project's name. */
  project: string;
  /** The language the project is written in. */
  language: Language;
  /** The command as run (arguments only, no settings). */
  command: string;
  /** Version ranges for package.json. */
  versions: { package: string; pulumi: string; typescript: string; typesNode: string };
  /** found.json's records, when not this plan's own (another import keeps the earlier ones: keepEarlierFound). */
  found?: FoundRecord[];
}

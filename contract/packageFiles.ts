// The package's own files that its commands read at run time: its version (package.json), the
// emulator's default fixture and the import command's program templates. Installed from npm they
// are files beside the code; in the release's single executables (docs/design/release.md) they are
// assets joined into the executable, since such an executable has no package folder to read from.
import * as sea from "node:sea";

/** Every file the commands read at run time, by its path in the repository; the release joins each as an asset. */
export const PACKAGE_FILES = [
  "package.json",
  "emulator/fixtures/default.json",
  "cli/import/programTemplate.ts",
  "cli/import/templates/__main__.py",
  "cli/import/templates/main.go",
  "cli/import/templates/App.java",
] as const;

/** One of the package's files read at run time. */
export type PackageFile = (typeof PACKAGE_FILES)[number];

/** Whether this process is one of the release's single executables (not `node` running the package's files). */
export function isSingleExecutable(): boolean {
  return sea.isSea();
}

/** The file's text from the single executable's assets, or undefined when this process runs the package's files. */
export function packageAsset(file: PackageFile): string | undefined {
  return sea.isSea() ? sea.getAsset(file, "utf8") : undefined;
}

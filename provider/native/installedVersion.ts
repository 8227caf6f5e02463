// The plugin refuses to serve when the Pulumi CLI installed it under another version than its own
// (`pulumi plugin install resource integration-platform <X> --file <archive of Y>`): the engine would
// believe it runs X, and a program pinned to X would get Y's resources without a word. The CLI keeps
// each plugin in `<PULUMI_HOME>/plugins/resource-integration-platform-v<X>/`; only that folder's name
// is read (no file is opened), so the check costs nothing at start.
import * as path from "node:path";

/** The folder name the Pulumi CLI installs this plugin's version X in: `resource-integration-platform-vX`. */
const PLUGIN_FOLDER = /^resource-integration-platform-v(\d+\.\d+\.\d+\S*)$/;

/** The release archive's os-arch for a Node.js platform and architecture (scripts/release/executables.ts TARGETS). */
function target(platform: string, arch: string): string {
  const os = platform === "win32" ? "windows" : platform;
  return `${os}-${arch === "x64" ? "amd64" : arch}`;
}

/**
 * The error to exit with when one of `paths` (the executable, the script) lies in a Pulumi plugin folder of
 * another version than `version`; undefined otherwise (a checkout's bin/, a folder named in Pulumi.yaml).
 */
export function wrongInstall(
  version: string,
  paths: (string | undefined)[],
  platform: string = process.platform,
  arch: string = process.arch,
): string | undefined {
  for (const file of paths) {
    if (!file) continue;
    const folder = path.dirname(file);
    const installed = PLUGIN_FOLDER.exec(path.basename(folder))?.[1];
    if (installed === undefined || installed === version) continue;
    const archive = `pulumi-resource-integration-platform-v${version}-${target(platform, arch)}.tar.gz`;
    return [
      `pulumi-resource-integration-platform: this plugin is version ${version},` +
        ` but it is installed as version ${installed} (${folder}).`,
      `Install it under its own version, and remove the wrong one:`,
      `  pulumi plugin install resource integration-platform ${version} --file ${archive}`,
      `  pulumi plugin rm resource integration-platform ${installed} --yes`,
    ].join("\n");
  }
  return undefined;
}

// This package's own package.json, read at run time: `--version` prints its version, and `import`
// writes the versions it depends on into the generated project.
import * as fs from "node:fs";
import * as path from "node:path";
import { packageAsset } from "../contract/packageFiles";

/** The parts of package.json the command line reads. */
export interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The package's name, which tells its package.json from any other on the way up. */
const NAME = "pulumi-integration-platform";

let cached: Manifest | undefined;

/**
 * This package's package.json: the single executable's asset, else found by walking up from this file (from cli/
 * under ts-node and from dist/cli/ alike).
 */
export function ownManifest(): Manifest {
  if (cached) return cached;
  const asset = packageAsset("package.json");
  if (asset !== undefined) return (cached = JSON.parse(asset) as Manifest);
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
      // A nearer package.json (a workspace's, or dist's own if one were added) is not ours: keep walking.
      if (manifest.name === NAME) return (cached = manifest);
    } catch {
      // None here, or not JSON: keep walking up.
    }
    if (path.dirname(dir) === dir) throw new Error(`${NAME}'s package.json was not found above ${__dirname}`);
  }
}

// Node's compile cache for the plugin run by `node` (the npm package): V8's code for every module the
// plugin loads, kept between starts, so that the next start compiles none of them (BENCHMARKS.md,
// "Start before and after issue 49"). The single executable carries its script's cache instead.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * Enables Node's compile cache in `folder` (Node's own default, `node-compile-cache` in the temporary
 * folder), unless the user's NODE_COMPILE_CACHE already did; returns whether it is on. The folder is made
 * here, without `recursive`: Node 24's recursive mkdir never returns for a path under /proc (a TMPDIR
 * there would hang the plugin), and a folder that cannot be made or written leaves the cache off.
 */
export function enableCompileCache(folder = path.join(os.tmpdir(), "node-compile-cache")): boolean {
  const nodeModule = require("node:module") as typeof import("node:module");
  if (typeof nodeModule.enableCompileCache !== "function") return false;
  try {
    fs.mkdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !fs.statSync(folder).isDirectory()) return false;
  }
  const { status } = nodeModule.enableCompileCache(folder);
  return (
    status === nodeModule.constants.compileCacheStatus.ENABLED ||
    status === nodeModule.constants.compileCacheStatus.ALREADY_ENABLED
  );
}

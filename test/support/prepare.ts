// What several suites share and one process must make, run by the test runner (scripts/test.ts)
// as a job of its own before the suites that need it start, so that no two suites build it at
// once: `prepare.ts release <dir>` (the release folder), `prepare.ts python` (the virtualenv of
// sdk/python), `prepare.ts java` (the Maven repository holding sdk/java).
import { javaSdkRepository, pythonBin } from "../../harness/languages";
import { buildRelease } from "./release";

const [what, out] = process.argv.slice(2);
if (what === "release" && out) buildRelease(out);
else if (what === "python") console.log(pythonBin());
else if (what === "java") console.log(javaSdkRepository());
else {
  console.error("usage: prepare.ts release <dir> | python | java");
  process.exit(2);
}

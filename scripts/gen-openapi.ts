// Writes emulator/openapi.json: the emulator's OpenAPI 3.1 document (emulator/openApiDocument.ts, generated
// with zod-openapi from the schemas its routes validate with) at package.json's version, the file
// the npm package ships; the release writes its own at the release's version. `--check` (npm run
// lint) fails when the file is not the document, so that it cannot drift from the routes.
//
//   npx ts-node --transpile-only scripts/gen-openapi.ts [--check]
import * as fs from "node:fs";
import * as path from "node:path";
import { openApiText } from "../emulator/openApiDocument";

/** The committed document's path. */
export const OPENAPI_FILE = path.join(__dirname, "..", "emulator", "openapi.json");

function main(): void {
  const text = openApiText();
  const current = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, "utf8") : "";
  if (process.argv.includes("--check")) {
    if (current !== text) {
      console.error("emulator/openapi.json is not the emulator's document: run `npm run gen:openapi` and commit it");
      process.exit(1);
    }
  } else if (current !== text) {
    fs.writeFileSync(OPENAPI_FILE, text);
    console.log("gen-openapi: wrote emulator/openapi.json");
  }
}

if (require.main === module) main();

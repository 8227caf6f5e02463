// Writes emulator/openapi.json: the emulator's OpenAPI 3.1 document (emulator/openApiDocument.ts, generated
// with zod-openapi from the schemas its routes validate with) at package.json's version, the file
// the npm package ships; the release writes its own at the release's version. Writes too docs/emulator.md's
// generated sections: the table of the public operations ("Operations"), from the same
// descriptions, and the list of platform objects ("Platform objects"), from OBJECTS. `--check`
// (npm run lint) fails when either is not what the routes describe, so that neither can drift.
//
//   npx ts-node --transpile-only scripts/gen-openapi.ts [--check]
import * as fs from "node:fs";
import { writeOrCheck } from "./lib/generated";
import * as path from "node:path";
import { API_PREFIX } from "../contract/api";
import { OBJECTS } from "../emulator/objects";
import { describedOperations, openApiText } from "../emulator/openApiDocument";
import type { Caller } from "../emulator/operationDoc";
import { pendingSections, wrapped } from "./generatedSections";

/** The committed document's path. */
export const OPENAPI_FILE = path.join(__dirname, "..", "emulator", "openapi.json");

/** The page whose "Operations" table is written here. */
export const EMULATOR_PAGE = path.join(__dirname, "..", "docs", "emulator.md");

const CREDENTIALS: Record<Caller, string> = {
  api_key: "API key only (bearer refused)",
  api_key_or_bearer: "API key or bearer",
  none: "none",
  "control plane": "loopback only",
};

/** docs/emulator.md's table of the platform's operations, in OBJECTS' order (the control plane's are elsewhere). */
export function operationsTable(): string {
  const rows = describedOperations()
    .filter(({ doc }) => doc.caller !== "control plane")
    .map(({ url, method, doc }) => {
      const where = url.startsWith(`${API_PREFIX}/`)
        ? `\`${url.slice(API_PREFIX.length)}\``
        : `\`${url}\` (at the root)`;
      return `| ${method.toUpperCase()} | ${where} | ${CREDENTIALS[doc.caller]} | ${doc.summary.replace(/\|/g, "\\|")} |`;
    });
  return ["", "", "| Method | Path | Credentials | What it does |", "|---|---|---|---|", ...rows, "", ""].join("\n");
}

/** docs/emulator.md's list of the platform objects, in OBJECTS' order. */
export function objectsList(): string {
  return wrapped(
    OBJECTS.map((object) => `\`${object.name}\``),
    ", ",
    100,
    "",
    50,
  );
}

/** The files this script writes, by path, that are missing or differ. */
export function pending(): Map<string, string> {
  const stale = new Map<string, string>();
  const text = openApiText();
  if (!fs.existsSync(OPENAPI_FILE) || fs.readFileSync(OPENAPI_FILE, "utf8") !== text) stale.set(OPENAPI_FILE, text);
  const page = pendingSections(EMULATOR_PAGE, { objects: objectsList(), operations: operationsTable() });
  if (page !== undefined) stale.set(EMULATOR_PAGE, page);
  return stale;
}

function main(): void {
  writeOrCheck("gen-openapi", pending(), "not what the routes describe", "npm run gen:openapi");
}

if (require.main === module) main();

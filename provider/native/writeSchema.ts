// `npm run gen:schema`: writes sdk/schema.json from the definitions; with `--check`, fails when the
// checked-in file differs (CI runs it so, as it checks the SDKs generated from the file).
import * as fs from "node:fs";
import * as path from "node:path";
import { packageSchema } from "./schema";

const root = path.resolve(__dirname, "../../..");
const file = path.join(root, "sdk", "schema.json");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const text = `${JSON.stringify(packageSchema(version), null, 2)}\n`;

if (process.argv.includes("--check")) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  if (current !== text) {
    console.error(
      "sdk/schema.json does not match the definitions: run `npm run gen:schema`, " +
        "then `bash scripts/gen-sdk.sh`, and commit both",
    );
    process.exit(1);
  }
  console.log("sdk/schema.json matches the definitions");
} else {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  console.log(`wrote ${path.relative(root, file)} (${text.length} bytes)`);
}

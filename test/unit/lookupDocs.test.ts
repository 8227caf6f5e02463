// What TypeScript users of the lookups read in their editor is what the schema (and so every SDK)
// says: each exported lookup's JSDoc is its function's description, and each property's JSDoc, of
// its arguments and of its result at any depth, is the property's description. Read with the
// compiler, as an editor reads them.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { packageSchema } from "../../provider/native/schema";

const REPO = path.resolve(__dirname, "../..");
const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
const schema = packageSchema(version);

type Spec = { description?: string; type?: string; items?: Spec; $ref?: string };
type ObjectSpec = { description?: string; properties: Record<string, Spec> };
type FunctionSpec = { description: string; inputs: ObjectSpec; outputs: ObjectSpec };

/** The package's public surface (provider/index.ts), compiled with the project's own options. */
function publicSurface() {
  const configFile = ts.readConfigFile(path.join(REPO, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, REPO);
  const program = ts.createProgram([path.join(REPO, "provider/index.ts")], { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const index = checker.getSymbolAtLocation(program.getSourceFile(path.join(REPO, "provider/index.ts"))!)!;
  const exports = new Map(checker.getExportsOfModule(index).map((s) => [s.name, s]));
  return { checker, exports };
}

/** A JSDoc's text as one line; tags (`@remarks`) are not part of it. */
function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, " ").trim();
}

describe("lookups' TypeScript docs", function () {
  // The compiler reads the provider and @pulumi/pulumi's declarations.
  this.timeout(120_000);

  it("say what the schema says: each lookup's JSDoc and each of its properties' JSDoc", () => {
    const { checker, exports } = publicSurface();
    const compared: string[] = [];
    const checkDoc = (label: string, symbol: ts.Symbol, expected: string | undefined) => {
      assert.ok(expected, `${label}: the schema has a description`);
      assert.equal(docOf(symbol, checker), expected, `${label}: its JSDoc is the schema's description`);
      compared.push(label);
    };

    /** A value's type against its spec: a named type's properties, an array's items. */
    const compareValue = (label: string, type: ts.Type, spec: Spec) => {
      const plain = checker.getNonNullableType(type);
      if (spec.$ref?.startsWith("#/types/")) {
        const object = schema.types[spec.$ref.slice("#/types/".length)] as ObjectSpec;
        compareObject(label, plain, object);
      } else if (spec.type === "array" && spec.items) {
        assert.ok(checker.isArrayType(plain), `${label} is a list in TypeScript too`);
        compareValue(`${label}[]`, checker.getTypeArguments(plain as ts.TypeReference)[0], spec.items);
      }
    };
    /** An object type's properties against the spec's: the same names, the same words. */
    const compareObject = (label: string, type: ts.Type, spec: ObjectSpec) => {
      const properties = checker.getPropertiesOfType(checker.getNonNullableType(type));
      assert.deepEqual(
        properties.map((p) => p.name).sort(),
        Object.keys(spec.properties).sort(),
        `${label}: the same properties in TypeScript and in the schema`,
      );
      for (const property of properties) {
        const name = `${label}.${property.name}`;
        checkDoc(name, property, spec.properties[property.name].description);
        compareValue(name, checker.getTypeOfSymbol(property), spec.properties[property.name]);
      }
    };

    const functions = Object.entries(schema.functions) as [string, FunctionSpec][];
    for (const [token, fn] of functions) {
      const name = token.split(":").pop()!;
      let symbol = exports.get(name);
      assert.ok(symbol, `${name} is exported by the package`);
      if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      checkDoc(name, symbol, fn.description);
      const [signature] = checker.getTypeOfSymbol(symbol).getCallSignatures();
      compareObject(`${name}(args)`, checker.getTypeOfSymbol(signature.parameters[0]), fn.inputs);
      const result = checker.getAwaitedType(signature.getReturnType())!;
      if (checker.isArrayType(result)) {
        // A list comes back under one name in the schema (`getLinkedAccounts(…).linkedAccounts`).
        const [listed, ...others] = Object.values(fn.outputs.properties);
        assert.equal(others.length, 0, `${name}: a list result is the function's one output`);
        compareValue(`${name}()`, result, listed);
      } else {
        compareObject(`${name}()`, result, fn.outputs);
      }
    }
    assert.equal(functions.length, 6, "every lookup, and getShard");
    assert.ok(compared.length >= 50, `compared ${compared.length} descriptions`);
  });
});

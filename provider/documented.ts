// A description is written once, as the property's JSDoc: what an editor shows. The build reads
// each JSDoc with the compiler into descriptions.ts (scripts/gen-descriptions.ts), and
// `documented` hands it to the property's zod schema, whose description the native schema, every
// SDK and the messages read; no TypeScript is needed at runtime.
import type { z } from "zod";
import { DESCRIPTIONS } from "./descriptions";

/**
 * `shape` with each property's schema described by that property's JSDoc; `scope` names the shape
 * (a resource type, a lookup, an object type), so `<scope>.<property>` is the description's key.
 */
export function documented<S extends z.ZodRawShape>(scope: string, shape: S): S {
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const text = DESCRIPTIONS[`${scope}.${name}`];
      if (text === undefined)
        throw new Error(
          `${scope}.${name} has no description: write its JSDoc, then run \`npm run build\` ` +
            "(scripts/gen-descriptions.ts writes provider/descriptions.ts)",
        );
      return [name, (schema as z.ZodType).describe(text)];
    }),
  ) as unknown as S;
}

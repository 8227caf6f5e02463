// The lookups as the native provider's functions: each one's arguments and result in the schema,
// and its run for Invoke, all read from its definition (provider/functions/). A function's result
// is an object, so a list comes back under a name: `getLinkedAccounts(...).linkedAccounts`.
import { z } from "zod";
import type { Connection } from "../connection";
import { LOOKUPS } from "../functions";
import type { AnyLookup } from "../functions/definition";
import { NATIVE_TYPE_PREFIX } from "../typeTokens";
import { objectOf, ObjectSpec } from "./types";

/** A function's entry in the schema. */
export interface FunctionSpec {
  /** What it returns: the lookup's description. */
  description: string;
  /** Its arguments, each with its description. */
  inputs: ObjectSpec;
  /** Its result; every property secret if the lookup is. */
  outputs: ObjectSpec;
}

/** The shape of a lookup's result as a function returns it: a list under its name, else the object's own. */
function resultShape(lookup: AnyLookup): z.ZodRawShape {
  if (lookup.listedAs) return { [lookup.listedAs]: lookup.result };
  if (lookup.result instanceof z.ZodObject) return lookup.result.shape;
  throw new Error(`${lookup.name}: a function's result is an object: give a list result its name with listedAs`);
}

/** A lookup's function in the schema; the object types it names are added to `types`. */
export function functionSpec(lookup: AnyLookup, types: Record<string, ObjectSpec>): FunctionSpec {
  const outputs = objectOf(resultShape(lookup), types);
  if (lookup.secret) for (const property of Object.values(outputs.properties)) property.secret = true;
  return { description: lookup.description, inputs: objectOf(lookup.args, types), outputs };
}

/** The lookup a function's token names (`integration-platform:index:getLinkedAccounts`), if the provider has it. */
export function lookupOfToken(token: string): AnyLookup | undefined {
  if (!token.startsWith(NATIVE_TYPE_PREFIX)) return undefined;
  const name = token.slice(NATIVE_TYPE_PREFIX.length);
  return LOOKUPS.find((lookup) => lookup.name === name);
}

/** Runs a lookup over the provider's connection; its result as the function returns it. */
export async function invokeLookup(
  connection: Connection,
  lookup: AnyLookup,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await lookup.over(connection)(args);
  return lookup.listedAs ? { [lookup.listedAs]: result } : { ...(result as Record<string, unknown>) };
}

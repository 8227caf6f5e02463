// How a zod schema becomes a type of the native schema: its type, its description, whether it
// may be left out, and the object types it names (docs/design/native.md). The package schema
// (schema.ts) and the functions (functions.ts) both build on it.
import { z } from "zod";
import { schemaTypeOf, TypeSpec } from "../resources/schemaTypes";
import { nativeToken } from "../typeTokens";

/** One property of a resource, a type, a function or the provider, as the schema writes it. */
export interface PropertySpec extends TypeSpec {
  /** What the property is, in the definition's words. */
  description?: string;
  /** Kept encrypted in state; the SDKs wrap it as a secret. */
  secret?: boolean;
  /** A change to it replaces the resource. */
  replaceOnChanges?: boolean;
  /** Default values the SDKs read from the environment (provider settings). */
  defaultInfo?: { environment: string[] };
}

/** An object type of the schema (`types`), or the shape of a function's inputs or outputs. */
export interface ObjectSpec {
  description?: string;
  type: "object";
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** The inputs or outputs of a function: an object of its zod shape. */
export function objectOf(shape: z.ZodRawShape, types: Record<string, ObjectSpec>): ObjectSpec {
  const entries = Object.entries(shape) as [string, z.ZodType][];
  return {
    type: "object",
    properties: Object.fromEntries(
      entries.map(([name, schema]) => [
        name,
        { ...typeOf(schema, types), ...(description(schema) ? { description: description(schema) } : {}) },
      ]),
    ),
    required: entries.filter(([, schema]) => !isOptional(schema)).map(([name]) => name),
  };
}

/** A property's description: its own, else its wrapped schema's (`.optional()` after `.describe()`). */
export function description(schema: z.ZodType): string | undefined {
  for (let s: z.ZodType | undefined = schema; s; s = inner(s)) if (s.description) return s.description;
  return undefined;
}

/** Whether the property may be left out. */
export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The schema a wrapper wraps (optional, nullable, default, readonly, pipe's input), if it is one. */
function inner(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  if (def.type === "pipe") return def.in;
  return def.innerType;
}

/** What typeOf reads of a zod schema's definition. */
interface Def {
  type: string;
  element?: z.ZodType;
  shape?: z.ZodRawShape;
  valueType?: z.ZodType;
  checks?: { _zod: { def: { check: string; format?: string } } }[];
}

/** A zod schema's type in the package schema; object types are added to `types` by their registered name. */
export function typeOf(schema: z.ZodType, types: Record<string, ObjectSpec>): TypeSpec {
  const registered = schemaTypeOf(schema);
  if (registered?.type) return registered.type;
  const def = schema._zod.def as Def;
  switch (def.type) {
    case "string":
    case "enum":
    case "literal":
      return { type: "string" };
    case "number":
      return { type: (def.checks ?? []).some((c) => c._zod.def.format === "safeint") ? "integer" : "number" };
    case "boolean":
      return { type: "boolean" };
    case "array":
      return { type: "array", items: typeOf(def.element!, types) };
    case "record":
      return { type: "object", additionalProperties: typeOf(def.valueType!, types) };
    case "object":
      return objectTypeRef(registered?.name, def.shape ?? {}, types);
    default: {
      const wrapped = inner(schema);
      if (wrapped) return typeOf(wrapped, types);
      return { $ref: "pulumi.json#/Any" };
    }
  }
}

/** A reference to the named object type, added to `types` the first time it is met. */
function objectTypeRef(name: string | undefined, shape: z.ZodRawShape, types: Record<string, ObjectSpec>): TypeSpec {
  if (!name)
    throw new Error(
      "an object schema without a name for the native schema: register it with objectType() " +
        `(${Object.keys(shape).join(", ")})`,
    );
  const token = nativeToken(name);
  if (!types[token]) {
    types[token] = { type: "object", properties: {} }; // placeholder first: a type may refer to itself
    types[token] = objectOf(shape, types);
  }
  return { $ref: `#/types/${token}` };
}

// What a property's zod schema cannot say by itself about its type in the native schema
// (docs/design/native.md): the name of an object type, or a type given outright where the
// schema is a custom check (a response sample is any JSON object).
import { z } from "zod";

/** A Pulumi schema type, as `schema.json` writes it (`type`, `items`, `additionalProperties`, `$ref`). */
export interface TypeSpec {
  /** string, number, integer, boolean, array or object; absent with `$ref`. */
  type?: string;
  /** The element type of an array. */
  items?: TypeSpec;
  /** The value type of a map. */
  additionalProperties?: TypeSpec;
  /** A named object type (`#/types/...`) or `pulumi.json#/Any`. */
  $ref?: string;
}

/** What the native schema needs beyond the zod schema: an object type's name, or a custom schema's type. */
export interface SchemaTypeOf {
  /** The object type's name, e.g. `NameValue`. */
  name?: string;
  /** The type, for a custom schema. */
  type?: TypeSpec;
}

// Keyed by the schema's definition, which `.describe()` and zod's other clones share: a property
// may add its own description to a named type without losing the name. Module state, written only
// as the definitions' schemas are declared at load: metadata of constants, never per session.
const registered = new WeakMap<object, SchemaTypeOf>();

/** What was registered for `schema` (by objectType or typedAs), if anything. */
export function schemaTypeOf(schema: z.ZodType): SchemaTypeOf | undefined {
  return registered.get(schema._zod.def);
}

/** Registers `schema` as the object type `name` of the native schema; returns it unchanged. */
export function objectType<T extends z.ZodType>(name: string, schema: T): T {
  registered.set(schema._zod.def, { name });
  return schema;
}

/** Gives a custom schema its type in the native schema; returns it unchanged. */
export function typedAs<T extends z.ZodType>(type: TypeSpec, schema: T): T {
  registered.set(schema._zod.def, { type });
  return schema;
}

// A resource's properties, each declared once: a zod schema with its JSDoc, in the group that says
// what a change to it does. Args, state and output types, check, diff, secrets and the change
// summary's tables are derived from it (docs/design/resources.md).
import { isDeepStrictEqual } from "node:util";
// Types from the SDK's index; values from its modules: the index also loads the Automation API and
// closure serialization (TypeScript itself), a second of the plugin's start (docs/design/native.md).
import type * as pulumi from "@pulumi/pulumi";
import { secret } from "@pulumi/pulumi/output";
import { mergeOptions } from "@pulumi/pulumi/resource";
import { z } from "zod";
import { checkProperties, containsUnknown } from "./inputs";

/** A group of properties: name to schema, each with its JSDoc. */
type Shape = z.ZodRawShape;

/** A resource's properties, in the groups that decide check, diff and state. */
export interface PropertyGroups<I extends Shape, S extends Shape, D extends Shape, O extends Shape> {
  /** Inputs that address the platform object: changing one replaces the resource (its description says so). */
  identity: I;
  /** Inputs the resource sets on the object: changing one updates it in place. */
  settings: S;
  /** Kept with the inputs, filled in by `check` from the platform's data; never the user's to set. */
  derived: D;
  /** State only: what the platform returned, and what delete restores. */
  outputs: O;
  /** Properties that are secrets (inputs or outputs): kept encrypted in state and never put in a message. */
  secret: readonly (keyof I | keyof S | keyof O)[];
}

/** A value the user may pass as a plain value, an Output or a Promise, at any depth, as Pulumi Args do. */
// The brackets keep a union (boolean is true | false) whole: Input<boolean>, not Input<true> | Input<false>.
export type Inputify<T> = [T] extends [string | number | boolean]
  ? pulumi.Input<T>
  : [T] extends [(infer U)[]]
    ? pulumi.Input<Inputify<U>[]>
    : [T] extends [object]
      ? pulumi.Input<{ [K in keyof T]: Inputify<T[K]> }>
      : pulumi.Input<T>;

/** The user's inputs of a resource: its identity and settings, each an Input. */
export type ArgsOf<P extends AnyProperties> = {
  [K in keyof InputsOf<P>]: Inputify<Exclude<InputsOf<P>[K], undefined>>;
};

/** The user's inputs of a resource as plain values, as zod reads them. */
type InputsOf<P extends AnyProperties> = z.input<z.ZodObject<P["groups"]["identity"] & P["groups"]["settings"]>>;

/** What a resource keeps in state: every group's values, as the provider's methods see them. */
export type StateOf<P extends AnyProperties> = z.output<
  z.ZodObject<P["groups"]["identity"] & P["groups"]["settings"] & P["groups"]["derived"] & P["groups"]["outputs"]>
>;

/** The output properties of a resource class, one per state property. */
export type OutputsOf<P extends AnyProperties> = { readonly [K in keyof StateOf<P>]-?: pulumi.Output<StateOf<P>[K]> };

/** Any resource's properties. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each group is its own resource's shape
export type AnyProperties = ResourceProperties<any, any, any, any>;

/**
 * What every identity property's description ends with, in the schema and every SDK: said by the
 * group, so that no JSDoc has to repeat it and none can forget it.
 */
export const REPLACES = "Changing it replaces the resource.";

/** The identity group, each property's description (its JSDoc, from documented()) followed by REPLACES. */
function replacing<I extends Shape>(identity: I): I {
  return Object.fromEntries(
    (Object.entries(identity) as [string, z.ZodType][]).map(([name, schema]) => [
      name,
      schema.describe(`${schema.description} ${REPLACES}`),
    ]),
  ) as unknown as I;
}

/** One resource's declared properties, and what follows from them. */
export class ResourceProperties<I extends Shape, S extends Shape, D extends Shape, O extends Shape> {
  /** The declared groups, each identity property's description ending with REPLACES. */
  readonly groups: PropertyGroups<I, S, D, O>;
  /** The schemas `check` validates: identity and settings. */
  readonly inputShape: I & S;
  /** Identity properties, in declaration order. */
  readonly identity: (keyof I & string)[];
  /** Setting properties, in declaration order. */
  readonly settings: (keyof S & string)[];
  /** Derived properties, in declaration order. */
  readonly derived: (keyof D & string)[];
  /** State-only properties, in declaration order. */
  readonly outputs: (keyof O & string)[];
  /** Secret properties. */
  readonly secret: (keyof I | keyof S | keyof O)[];

  /** Declares the groups; see PropertyGroups. */
  constructor(declared: PropertyGroups<I, S, D, O>) {
    const groups = { ...declared, identity: replacing(declared.identity) };
    this.groups = groups;
    this.inputShape = { ...groups.identity, ...groups.settings };
    this.identity = Object.keys(groups.identity);
    this.settings = Object.keys(groups.settings);
    this.derived = Object.keys(groups.derived);
    this.outputs = Object.keys(groups.outputs);
    this.secret = [...groups.secret];
  }

  /** Validates the user's inputs, each property on its own; unknown values pass (see checkProperties). */
  check(news: Record<string, unknown>) {
    return checkProperties(this.inputShape, news);
  }

  /** Diffs the user's properties: identity replaces, settings update in place. */
  diff(olds: object, news: object): pulumi.dynamic.DiffResult {
    const [o, n] = [olds as Record<string, unknown>, news as Record<string, unknown>];
    const changed = (key: string) => containsUnknown(n[key]) || !isDeepStrictEqual(o[key], n[key]);
    const replaces = this.identity.filter(changed);
    // Old and new address different platform objects, so the default create-before-delete is safe.
    return { changes: replaces.length > 0 || this.settings.some(changed), replaces };
  }

  /** The inputs (identity, settings, derived) of a state or an inputs object, without unset ones. */
  inputsOf<T extends object>(state: T): T {
    const keys = [...this.identity, ...this.settings, ...this.derived] as string[];
    return defined(Object.fromEntries(keys.map((key) => [key, (state as Record<string, unknown>)[key]]))) as T;
  }

  /**
   * The props a resource class registers: the user's args, a slot for every other state property
   * (the SDK creates an Output only for the props it is given), and each secret input wrapped in
   * `pulumi.secret`, because `additionalSecretOutputs` covers outputs only while state keeps inputs too.
   */
  resourceProps(args: object): Record<string, unknown> {
    const props: Record<string, unknown> = {};
    for (const key of [...this.identity, ...this.settings, ...this.derived, ...this.outputs] as string[])
      props[key] = undefined;
    Object.assign(props, args);
    for (const key of this.secret as string[]) if (props[key] !== undefined) props[key] = secret(props[key]);
    return props;
  }

  /** The resource options a class registers with: the user's, plus its secret properties as secret outputs. */
  resourceOptions(opts: pulumi.CustomResourceOptions | undefined): pulumi.CustomResourceOptions {
    return this.secret.length === 0
      ? (opts ?? {})
      : mergeOptions(opts, { additionalSecretOutputs: this.secret as string[] });
  }
}

/** Declares a resource's properties; `derived`, `outputs` and `secret` may be left out. */
export function declareProperties<
  I extends Shape,
  S extends Shape,
  D extends Shape = Record<never, never>,
  O extends Shape = Record<never, never>,
>(
  groups: Pick<PropertyGroups<I, S, D, O>, "identity" | "settings"> & Partial<PropertyGroups<I, S, D, O>>,
): ResourceProperties<I, S, D, O> {
  return new ResourceProperties<I, S, D, O>({ derived: {} as D, outputs: {} as O, secret: [], ...groups });
}

/** Copies the keys of `source` whose value is defined; state stays free of explicit undefineds. */
export function defined<T extends Record<string, unknown>>(source: T): Partial<T> {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined)) as Partial<T>;
}

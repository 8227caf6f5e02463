// One lookup, defined once: its name, description, arguments, result and secrecy. The exported
// function, its Output twin, the TypeScript types and the native provider's function are all
// derived from it (docs/design/native.md), as a resource's are from its definition.
// Types from the SDK's index; values from its modules: the index also loads the Automation API and
// closure serialization (TypeScript itself), a second of the plugin's start (docs/design/native.md).
import type * as pulumi from "@pulumi/pulumi";
import { output, secret as secretOutput } from "@pulumi/pulumi/output";
import { z } from "zod";
import type { Host } from "../resources/definition";
import type { PlatformReader } from "../client/http";
import { PROCESS_CONNECTION } from "../connection";

/** A lookup's arguments: name to schema, each described by its JSDoc (`documented()`, provider/documented.ts). */
type Shape = z.ZodRawShape;

/** The arguments a caller passes, as zod reads them: each property's JSDoc comes along. */
export type ArgsOf<A extends Shape> = z.input<z.ZodObject<A>>;

/** The arguments after validation, as the lookup's body sees them. */
type ParsedArgs<A extends Shape> = z.output<z.ZodObject<A>>;

/** The parts of a lookup's definition: it reads the platform (`run`) or answers from its arguments (`compute`). */
export type LookupDefinitionArgs<A extends Shape, R extends z.ZodType> = LookupParts<A, R> &
  (
    | {
        /** Reads the platform with the run's read-only operations. */
        run(reader: PlatformReader, args: ParsedArgs<A>): Promise<z.output<R>>;
        compute?: never;
      }
    | {
        /** The answer from the arguments alone: no session is opened, so no API key is needed and nothing is sent. */
        compute(args: ParsedArgs<A>): z.output<R>;
        run?: never;
      }
  );

/** What every lookup's definition has, whether it reads the platform or not. */
interface LookupParts<A extends Shape, R extends z.ZodType> {
  /** The exported function's name, and the end of the native function's token. */
  name: string;
  /** What it returns: the schema's description, and the exported function's JSDoc, word for word. */
  description: string;
  /** Its arguments, checked strictly (an unknown one is refused), and the schema's inputs. */
  args: A;
  /** Rules between arguments, checked with them before any request; each issue names its property. */
  refine?(args: ParsedArgs<A>, ctx: z.RefinementCtx): void;
  /** What it returns; object types registered with objectType() to be named in the schema. */
  result: R;
  /** For a list: the property the native function returns it under (`getLinkedAccounts(…).linkedAccounts`). */
  listedAs?: string;
  /** The result may hold readable secrets: the Output twin and the native function return it as a secret. */
  secret?: boolean;
}

/** A lookup, defined once. */
export class LookupDefinition<A extends Shape, R extends z.ZodType> {
  /** See LookupDefinitionArgs. */
  readonly name: string;
  /** See LookupDefinitionArgs. */
  readonly description: string;
  /** See LookupDefinitionArgs. */
  readonly args: A;
  /** See LookupDefinitionArgs. */
  readonly result: R;
  /** See LookupDefinitionArgs. */
  readonly listedAs: string | undefined;
  /** See LookupDefinitionArgs. */
  readonly secret: boolean;
  /** The arguments' validation: each argument's schema, no unknown one, then the rules between them. */
  readonly validation: z.ZodType<ParsedArgs<A>>;
  /**
   * The function the package exports (`getLinkedAccounts`): the lookup over the process's connection,
   * as a program calls it with its arguments alone (connection.ts). The native plugin serves it over
   * a connection of its own (`over`).
   */
  readonly inProgram: (args?: unknown) => Promise<z.output<R>>;
  private readonly body: (session: () => PlatformReader, args: ParsedArgs<A>) => Promise<z.output<R>>;

  /** Defines the lookup; see LookupDefinitionArgs. */
  constructor(args: LookupDefinitionArgs<A, R>) {
    this.name = args.name;
    this.description = args.description;
    this.args = args.args;
    this.result = args.result;
    this.listedAs = args.listedAs;
    this.secret = args.secret ?? false;
    const strict = z.object(args.args).strict();
    const refine = args.refine;
    this.validation = (refine ? strict.superRefine((value, ctx) => refine(value, ctx)) : strict) as z.ZodType<
      ParsedArgs<A>
    >;
    const { run, compute } = args;
    // A lookup that computes (getShard) opens no session: it needs no API key, and sends nothing.
    this.body = compute ? async (_reader, parsed) => compute(parsed) : (reader, parsed) => run!(reader(), parsed);
    this.inProgram = this.over(PROCESS_CONNECTION);
  }

  /**
   * The lookup over `host`'s session, handed it as a resource's provider is: checks the arguments
   * before any request (the error names the lookup), then reads with the session's reader.
   */
  over(host: Pick<Host, "session">): (args?: unknown) => Promise<z.output<R>> {
    const reader = () => host.session().reader;
    return async (args) => this.body(reader, parseArgs(this.name, this.validation, args));
  }

  /** The `...Output` twin: takes Inputs, returns an Output, a secret one if the lookup is secret. */
  output<P>(lookup: (args: P) => Promise<z.output<R>>): OutputTwin<P, z.output<R>> {
    return outputVersion(lookup, this.secret);
  }
}

/** Defines a lookup; see LookupDefinitionArgs. */
export function defineLookup<A extends Shape, R extends z.ZodType>(
  args: LookupDefinitionArgs<A, R>,
): LookupDefinition<A, R> {
  return new LookupDefinition(args);
}

/** Any lookup's definition. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each lookup has its own arguments and result
export type AnyLookup = LookupDefinition<any, z.ZodType>;

/** Validates a lookup's arguments; the error names the lookup, the property and the reason. */
function parseArgs<T extends z.ZodType>(lookup: string, schema: T, args: unknown): z.infer<T> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const reasons = result.error.issues.map((issue) => {
    const property = issue.path.join(".") || "(arguments)";
    const message = issue.code === "unrecognized_keys" ? `unknown ${issue.keys.join(", ")}` : issue.message;
    return `${property}: ${message}`;
  });
  throw new Error(`${lookup}: invalid arguments: ${reasons.join("; ")}`);
}

/** A lookup's arguments, each of which may be an Input. */
export type InputArgs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** A lookup's `...Output` twin: its arguments as Inputs, its result as an Output. */
export type OutputTwin<A, R> = (args: InputArgs<NonNullable<A>>) => pulumi.Output<R>;

/** Makes the `...Output` twin of a lookup: takes Inputs, returns an Output (a secret one if asked). */
export function outputVersion<A, R>(lookup: (args: A) => Promise<R>, secret = false): OutputTwin<A, R> {
  return (args) => {
    // Results are plain data (no Outputs inside), so Unwrap<R> is R.
    const result = output(args).apply((plain) => lookup(plain as A)) as pulumi.Output<R>;
    return secret ? (secretOutput(result) as pulumi.Output<R>) : result;
  };
}

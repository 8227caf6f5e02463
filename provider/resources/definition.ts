// One resource type, defined once: its type token, its properties, its operations against the
// platform and what the change summary says of it. The provider the hosts serve and the summary's
// entry are derived from it here; the class users construct is derived from it in dynamic/
// (docs/design/resources.md). Nothing here imports dynamic/ or native/: they are built on it.
// Types only from the SDK's index: its values load the Automation API and closure serialization
// (TypeScript itself), a second of the plugin's start (docs/design/native.md).
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, SettingsError } from "../client/errors";
import type { Session } from "../session";
import { idProblem } from "../client/ids";
import { containsUnknown } from "./inputs";
import { AnyProperties, StateOf } from "./properties";

/** What each operation receives: the command's session, and its claims under this resource's type. */
export interface Context {
  /** The command's session, made on first use: a check that needs no platform data needs no settings. */
  readonly session: Session;
  /** Records that this resource now manages platform object `id` (after a successful create). */
  claim(id: string): void;
  /** True when another resource of this type took `id` over earlier in this session: it is not ours to undo. */
  claimedByAnother(id: string): boolean;
  /**
   * Whether a check validates a change against the platform (`integration-platform:validateAtPreview`,
   * and nothing stopped it).
   */
  readonly validates: boolean;
}

/** What validation found: failures, and inputs it learned from the platform (derived properties). */
export interface Validation {
  failures: pulumi.dynamic.CheckFailure[];
  inputs?: Record<string, unknown>;
}

/**
 * What a host hands a definition's operations, and a lookup: the connection of the provider it
 * serves (connection.ts), for the command's session and whether and how checks validate.
 */
export interface Host {
  /** The connection's current session. */
  session(): Session;
  /** Whether checks validate against the platform now. */
  validates(): boolean;
  /** Stops validation for the command; true the first time, so that the problem is reported once. */
  stopValidation(problem: string): boolean;
}

/** A resource's operations against the platform, each handed the context. */
export interface Operations<State> {
  /** Checks inputs; by default each property against its schema, with no call. */
  check?(context: Context, olds: Partial<State>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
  /**
   * Checks checked inputs against the platform, as `up` would find them (docs/design/validation.md);
   * called only for a change whose identity is known, while `context.validates`.
   */
  validate?(context: Context, inputs: State): Promise<Validation>;
  /** Takes the platform object over; returns its id and state. */
  create(context: Context, inputs: State): Promise<{ id: string; outs: State }>;
  /** Refreshes the state from the platform; an empty id means the object is gone. */
  read(context: Context, id: string, props: State): Promise<pulumi.dynamic.ReadResult>;
  /** Applies changed settings. */
  update(context: Context, id: string, olds: State, news: State): Promise<{ outs: State }>;
  /** Puts back what create took over, or leaves the object as the resource documents. */
  delete(context: Context, id: string, props: State): Promise<void>;
}

/** Formats a summary's words: the change summary (cli/) supplies Markdown that escapes what it quotes. */
export interface SummaryText {
  /** An id or name from the user or the platform, quoted. */
  id(value: unknown): string;
  /** A property's name. */
  code(name: string): string;
  /** A property's value, quoted, never a secret's. */
  value(value: unknown): string;
  /** Free text from the platform, escaped. */
  text(text: string): string;
}

/** State as the summary reads it from a preview: any property may be missing. */
type Props = Record<string, unknown>;

/** What the change summary says of a resource of this type. */
export interface SummaryOf {
  /** Properties the title shows besides the identity: not repeated when the object is created. */
  titled?: string[];
  /** The section the object is listed under within its linked account's block; by default its app's. */
  section?(inputs: Props): string;
  /** The platform object, e.g. "field `hs_pipeline` of workflow `wf_x`". */
  title(inputs: Props, outputs: Props, text: SummaryText): string;
  /** What deleting the resource does to the platform object. */
  release(inputs: Props, outputs: Props, text: SummaryText): string;
}

/** The parts of a definition. */
export interface ResourceDefinitionArgs<T extends string, P extends AnyProperties> {
  /**
   * The type's name: the last part of its token, `pulumi-nodejs:dynamic/integration-platform:<type>`.
   * Frozen once released.
   */
  type: T;
  /** What the resource does, in one or two sentences: the schema's, the SDKs' and the class's description. */
  description: string;
  /** The properties, declared with declareProperties. */
  properties: P;
  /** The operations against the platform. */
  operations: Operations<StateOf<P>>;
  /** What the change summary says of it. */
  summary: SummaryOf;
  /**
   * How `pulumi import` finds the object from an id alone: the identity properties the id joins
   * with `/`, in order (an optional one may be empty), and what adopting records as found.
   * Absent: the type cannot be imported, and `why` says what to do instead.
   */
  importable?: { parts: string[]; adopt(state: Record<string, unknown>): Record<string, unknown> } | { why: string };
}

/** A resource type, defined once. */
export class ResourceDefinition<T extends string, P extends AnyProperties> {
  /** The type's name (see ResourceDefinitionArgs). */
  readonly type: T;
  /** The declared properties. */
  readonly properties: P;
  /** What the resource does (see ResourceDefinitionArgs). */
  readonly description: string;
  /** What the change summary says of it. */
  readonly summary: SummaryOf;
  private readonly operations: Operations<StateOf<P>>;
  private readonly importable: ResourceDefinitionArgs<T, P>["importable"];

  /** Defines the type; see ResourceDefinitionArgs. */
  constructor(args: ResourceDefinitionArgs<T, P>) {
    this.type = args.type;
    this.properties = args.properties;
    this.description = args.description;
    this.summary = args.summary;
    this.operations = args.operations;
    this.importable = args.importable;
  }

  /** The provider the host serves for this type: each engine call handed a context over the host's session. */
  provider(host: Host): ServedProvider {
    const { type, operations: ops, properties, importable } = this;
    const context: Context = {
      get session() {
        return host.session();
      },
      claim: (id) => host.session().claim(type, id),
      claimedByAnother: (id) => host.session().claimedByAnother(type, id),
      get validates() {
        return host.validates();
      },
    };
    return {
      check: async (olds, news) => {
        const checked = ops.check ? await ops.check(context, olds, news) : { ...properties.check(news) };
        const inputs = checked.inputs as StateOf<P>;
        const failures = checked.failures ?? [];
        const identityKnown = properties.identity.every(
          (key) => !containsUnknown((inputs as Record<string, unknown>)[key]),
        );
        // Unchanged resources were proven when applied: a preview without changes makes no call.
        const changed = Object.keys(olds).length === 0 || properties.diff(olds, inputs).changes;
        if (!ops.validate || failures.length > 0 || !identityKnown || !changed || !context.validates)
          return { inputs, failures };
        const found = await validating(host, () => ops.validate!(context, inputs));
        return { inputs: { ...inputs, ...found.inputs }, failures: found.failures };
      },
      diff: async (_id, olds, news) => properties.diff(olds, news),
      create: (inputs) => ops.create(context, inputs),
      read: (id, props) => ops.read(context, id, props),
      update: (id, olds, news) => ops.update(context, id, olds, news),
      delete: (id, props) => ops.delete(context, id, props),
      importById: async (id) => {
        if (!importable || "why" in importable)
          throw new Error(`${type} cannot be imported: ${importable?.why ?? "it has no import"}`);
        const identity = identityOf(type, importable.parts, id);
        const found = await ops.read(context, id, identity as StateOf<P>);
        if (!found.id)
          throw new Error(
            `${type} ${JSON.stringify(id)} was not found on the platform: ` +
              `check each part of the id (${importable.parts.join("/")})`,
          );
        return { ...found, props: importable.adopt(found.props as Record<string, unknown>) };
      },
    };
  }
}

/** The provider the hosts serve: the dynamic provider's methods, and the native provider's import by id. */
export interface ServedProvider extends pulumi.dynamic.ResourceProvider {
  /** Finds the object an import id names and adopts it as found: no write (`pulumi import`). */
  importById(id: string): Promise<pulumi.dynamic.ReadResult>;
}

/**
 * The identity an import id names: its parts joined with `/`, in `parts`' order; an empty part is an
 * absent optional id.
 */
function identityOf(type: string, parts: string[], id: string): Record<string, string> {
  const values = id.split("/");
  if (values.length !== parts.length) {
    throw new Error(
      `${type} import ids are ${parts.join("/")} (${parts.length} parts, an optional one may be empty); ` +
        `got ${values.length} part(s). ` +
        "An id that itself holds a / cannot be imported: declare the resource instead, " +
        "and create adopts the object without writing",
    );
  }
  const identity: Record<string, string> = {};
  parts.forEach((part, i) => {
    if (values[i] === "") return;
    const problem = idProblem(values[i]);
    if (problem) throw new Error(`${type} import id: ${part} ${problem}`);
    identity[part] = values[i];
  });
  return identity;
}

/**
 * Runs a validation; a problem that would fail every resource alike (refused credentials, an
 * unreachable platform, a missing setting) fails this one, stops validation for the command, and
 * so is reported once.
 */
async function validating(host: Host, validate: () => Promise<Validation>): Promise<Validation> {
  try {
    return await validate();
  } catch (error) {
    if (!(error instanceof ApiError || error instanceof SettingsError)) throw error;
    const reason =
      `the change could not be validated against the platform: ${error.message}. ` +
      `Fix this, or set integration-platform:validateAtPreview to false (docs/guides/pull-requests.md)`;
    return { failures: host.stopValidation(reason) ? [{ property: "", reason }] : [] };
  }
}

/** Defines a resource type; see ResourceDefinitionArgs. */
export function defineResource<T extends string, P extends AnyProperties>(
  args: ResourceDefinitionArgs<T, P>,
): ResourceDefinition<T, P> {
  return new ResourceDefinition(args);
}

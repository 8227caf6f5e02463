// One resource type, defined once: its type token, its properties, its operations against the
// platform and what the change summary says of it. The class users construct, the provider the
// host serves and the summary's entry are all derived from it (docs/design/resources.md).
import * as pulumi from "@pulumi/pulumi";
import type { Run } from "../run";
import { MODULE } from "../bridge/program";
import { AnyProperties, ArgsOf, OutputsOf, StateOf } from "./properties";

/** What each operation receives: the command's run, and the run's claims under this resource's type. */
export interface Context {
  /** The command's run, made on first use: a check that needs no platform data needs no settings. */
  readonly run: Run;
  /** Records that this resource now manages platform object `id` (after a successful create). */
  claim(id: string): void;
  /** True when another resource of this type took `id` over earlier in this run: it is not ours to undo. */
  claimedByAnother(id: string): boolean;
}

/** A resource's operations against the platform, each handed the context. */
export interface Operations<State> {
  /** Checks inputs; by default each property against its schema, with no call. */
  check?(context: Context, olds: Partial<State>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult>;
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
  /** The type's name: the last part of its token, `pulumi-nodejs:dynamic/integration-platform:<type>`. Frozen once released. */
  type: T;
  /** The properties, declared with declareProperties. */
  properties: P;
  /** The operations against the platform. */
  operations: Operations<StateOf<P>>;
  /** What the change summary says of it. */
  summary: SummaryOf;
}

/** The constructor of a resource class: the user's name, args and options. */
export type ResourceClass<P extends AnyProperties> = new (name: string, args: ArgsOf<P>, opts?: pulumi.CustomResourceOptions) => pulumi.dynamic.Resource & OutputsOf<P>;

/** A resource type, defined once. */
export class ResourceDefinition<T extends string, P extends AnyProperties> {
  /** The type's name (see ResourceDefinitionArgs). */
  readonly type: T;
  /** The declared properties. */
  readonly properties: P;
  /** What the change summary says of it. */
  readonly summary: SummaryOf;
  /** The base of the class users construct: `class ConfigField extends ConfigFieldDefinition.Resource {}`. */
  readonly Resource: ResourceClass<P>;
  private readonly operations: Operations<StateOf<P>>;

  /** Defines the type; see ResourceDefinitionArgs. */
  constructor(args: ResourceDefinitionArgs<T, P>) {
    this.type = args.type;
    this.properties = args.properties;
    this.summary = args.summary;
    this.operations = args.operations;
    this.Resource = resourceClass(args.type, args.properties);
  }

  /** The provider the host serves for this type: each engine call handed a context over `runOf()`. */
  provider(runOf: () => Run): pulumi.dynamic.ResourceProvider {
    const { type, operations: ops, properties } = this;
    const context: Context = {
      get run() {
        return runOf();
      },
      claim: (id) => runOf().claim(type, id),
      claimedByAnother: (id) => runOf().claimedByAnother(type, id),
    };
    return {
      check: async (olds, news) => {
        if (ops.check) return ops.check(context, olds, news);
        const { inputs, failures } = properties.check(news);
        return { inputs, failures };
      },
      diff: async (_id, olds, news) => properties.diff(olds, news),
      create: (inputs) => ops.create(context, inputs),
      read: (id, props) => ops.read(context, id, props),
      update: (id, olds, news) => ops.update(context, id, olds, news),
      delete: (id, props) => ops.delete(context, id, props),
    };
  }
}

/** Defines a resource type; see ResourceDefinitionArgs. */
export function defineResource<T extends string, P extends AnyProperties>(args: ResourceDefinitionArgs<T, P>): ResourceDefinition<T, P> {
  return new ResourceDefinition(args);
}

/** The class users construct, registering its type with the frozen forwarder of bridge/providers/<type>. */
function resourceClass<P extends AnyProperties>(type: string, properties: P): ResourceClass<P> {
  // A module's export, so that `__provider` is written as a bare `require` of it (bridge/program.ts).
  const forwarder = require(`../bridge/providers/${type}`) as pulumi.dynamic.ResourceProvider;
  class Resource extends pulumi.dynamic.Resource {
    constructor(name: string, args: ArgsOf<P>, opts?: pulumi.CustomResourceOptions) {
      super(forwarder, name, properties.resourceProps(args), properties.resourceOptions(opts), MODULE, type);
    }
  }
  return Resource as unknown as ResourceClass<P>;
}

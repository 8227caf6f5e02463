// What the summary knows of each resource type, taken from the type's one definition
// (provider/resources/definition.ts): its order, its properties' roles, and its summary words.
import type { SummaryText } from "../../provider/resources/definition";
import { RESOURCES } from "../../provider/resources";
import { code, escape, show, showId } from "./markdown";
import type { Props } from "./values";

/** What the summary knows of each resource type: how to name its object and what delete does. */
export interface ObjectKind {
  /** The order of RESOURCES: fields before workflows before env values before events. */
  order: number;
  /** Properties that address the platform object: resources with equal values manage the same one. */
  identity: string[];
  /** Other properties the title shows; with the identity, not repeated when the object is created. */
  titled?: string[];
  /** The section the object is listed under in its linked account's block, when not its app's. */
  section?(inputs: Props): string;
  /** Properties the provider adds at preview: not the user's words, so never listed. */
  derived: string[];
  /** Properties that are secret whatever the JSON says. */
  secret: string[];
  /** The object, e.g. "field `hs_pipeline` of workflow `wf_x`". */
  title(inputs: Props, outputs: Props): string;
  /** What deleting the resource does to the platform object. */
  release(inputs: Props, outputs: Props): string;
}

/** The summary's Markdown, as the definitions' summary words are written with it. */
const MARKDOWN: SummaryText = { id: showId, code, value: show, text: escape };

/** Each resource type of this package, by its name after the type prefix. */
export const KINDS: Record<string, ObjectKind> = Object.fromEntries(
  RESOURCES.map(({ type, properties, summary }, order) => [
    type,
    {
      order,
      identity: [...properties.identity],
      titled: summary.titled,
      section: summary.section,
      derived: [...properties.derived],
      secret: properties.secret.map(String),
      title: (inputs: Props, outputs: Props) => summary.title(inputs, outputs, MARKDOWN),
      release: (inputs: Props, outputs: Props) => summary.release(inputs, outputs, MARKDOWN),
    },
  ]),
);

/** A platform type this version does not know yet: still listed, with every input shown. */
export const UNKNOWN_KIND: ObjectKind = {
  order: RESOURCES.length,
  identity: [],
  derived: [],
  secret: [],
  title: () => "object",
  release: () => "the stack stops managing it",
};

// What the summary knows of each resource type of this package: how to name its platform object,
// and what deleting the resource does to it.
import { ApplicationEventProperties } from "../../provider/resources/applicationEvent";
import { ConfigFieldProperties, MANAGED } from "../../provider/resources/configField";
import { EnvVariableValueProperties } from "../../provider/resources/envVariableValue";
import type { AnyProperties } from "../../provider/resources/properties";
import { WorkflowToggleProperties } from "../../provider/resources/workflowToggle";
import { code, escape, show, showId } from "./markdown";
import { isRecord, type Props } from "./values";

/** What the summary knows of each resource type: how to name its object and what delete does. */
export interface ObjectKind {
  /** Sorts fields before workflows before env values before events. */
  order: number;
  /** Properties that address the platform object: resources with equal values manage the same one. */
  identity: string[];
  /** Other properties the title shows; with the identity, not repeated when the object is created. */
  titled?: string[];
  /** Properties the provider adds at preview: not the user's words, so never listed. */
  derived: string[];
  /** Properties that are secret whatever the JSON says. */
  secret: string[];
  /** The object, e.g. "field `hs_pipeline` of workflow `wf_x`". */
  title(inputs: Props, outputs: Props): string;
  /** What deleting the resource does to the platform object. */
  release(inputs: Props, outputs: Props): string;
}

/** What a kind takes from its resource's one declaration of its properties (resources/properties.ts). */
function declared(properties: AnyProperties): Pick<ObjectKind, "identity" | "derived" | "secret"> {
  return { identity: [...properties.identity], derived: [...properties.derived], secret: properties.secret.map(String) };
}

/** Each resource type of this package, by its name after the type prefix. */
export const KINDS: Record<string, ObjectKind> = {
  ConfigField: {
    order: 0,
    ...declared(ConfigFieldProperties),
    title: (i) =>
      `field ${showId(i.fieldId)}${i.workflowId !== undefined ? ` of workflow ${showId(i.workflowId)}` : ""}` +
      (i.configId !== undefined && i.configId !== i.linkedAccountId ? ` in config ${showId(i.configId)}` : ""),
    release: (i, o) => {
      // A declared restoreOnDelete is put back as declared (see ConfigField's delete).
      if (isRecord(i.restoreOnDelete)) {
        const declared = Object.entries(i.restoreOnDelete).map(([key, value]) => `${code(key)} goes back to ${show(value)} (${code("restoreOnDelete")})`);
        return declared.length > 0 ? declared.join(", ") : "the field keeps its current values";
      }
      // Otherwise delete puts back what each managed property held before the stack took it over;
      // options and labels with nothing recorded go back to empty.
      const previous = isRecord(o.previous) ? o.previous : {};
      const restored = MANAGED
        .filter((key) => i[key] !== undefined && (key !== "name" || previous.name !== undefined))
        .map((key) => `${code(key)} goes back to ${show(previous[key] ?? [])}`);
      return restored.length > 0 ? restored.join(", ") : "the field keeps its current values";
    },
  },
  WorkflowToggle: {
    order: 1,
    ...declared(WorkflowToggleProperties),
    title: (i, o) => `workflow ${showId(i.workflowId)}${typeof o.workflowName === "string" && o.workflowName ? ` (${escape(o.workflowName)})` : ""}`,
    release: (i, o) => {
      const declared = typeof i.restoreOnDelete === "boolean";
      const restore = declared ? i.restoreOnDelete : o.previousEnabled;
      return typeof restore === "boolean" && restore !== i.enabled
        ? `${code("enabled")} goes back to ${show(restore)}${declared ? ` (${code("restoreOnDelete")})` : ""}`
        : `the workflow stays ${i.enabled === true ? "enabled" : "disabled"}`;
    },
  },
  EnvVariableValue: {
    order: 2,
    ...declared(EnvVariableValueProperties),
    title: (i) =>
      `env value of definition ${showId(i.definitionId)}${i.workflowId !== undefined ? ` for workflow ${showId(i.workflowId)}` : ""}` +
      (typeof i.scope === "string" ? `, scope ${code(i.scope)}` : ""),
    // The order of EnvVariableValue's delete; the values themselves are secrets and never shown.
    release: (i, o) =>
      i.restoreOnDelete !== undefined
        ? `the value is set to ${code("restoreOnDelete")}`
        : o.previousValue !== undefined
          ? "the value it replaced is put back"
          : o.foundExisting === true
            ? "the value stays on the platform (it replaced an encrypted value that could not be read)"
            : "the value is deleted from the platform",
  },
  ApplicationEvent: {
    order: 3,
    ...declared(ApplicationEventProperties),
    titled: ["name"],
    title: (i) => `event ${i.name !== undefined ? `${showId(i.name)} ` : ""}(id ${showId(i.eventId)})`,
    release: (i) =>
      isRecord(i.restoreOnDelete)
        ? `the event goes back to ${code("restoreOnDelete")}`
        : `the event keeps its last declared name and response (no ${code("restoreOnDelete")})`,
  },
};

/** A platform type this version does not know yet: still listed, with every input shown. */
export const UNKNOWN_KIND: ObjectKind = {
  order: 4,
  identity: [],
  derived: [],
  secret: [],
  title: () => "object",
  release: () => "the stack stops managing it",
};

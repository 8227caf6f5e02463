// What `pulumi refresh --preview-only --json` prints, read as preview steps: Pulumi's own drift
// check, which compares the platform with the last deployment (docs/guides/drift.md). The CLI's
// single JSON document does not carry a resource's refreshed state (v3.259: each step's new side
// is its old one), so only its counts can be read; with PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true
// it streams engine events instead, one JSON object a line, whose outputs events carry both sides.
import { z } from "zod";
import { shapeProblem } from "../input";
import { PreviewJsonError, type PreviewJson } from "./preview";

/** The parts of an engine event the report reads. */
const EngineEvent = z.looseObject({
  sequence: z.number(),
  resourcePreEvent: z
    .looseObject({
      metadata: z.looseObject({
        op: z.string(),
        urn: z.string(),
        old: z.unknown().optional(),
        new: z.unknown().optional(),
      }),
    })
    .optional(),
  resOutputsEvent: z
    .looseObject({
      metadata: z.looseObject({
        op: z.string(),
        urn: z.string(),
        old: z.unknown().optional(),
        new: z.unknown().optional(),
      }),
    })
    .optional(),
  diagnosticEvent: z
    .looseObject({ urn: z.string().nullish(), message: z.string().nullish(), severity: z.string().nullish() })
    .optional(),
  summaryEvent: z.looseObject({ resourceChanges: z.record(z.string(), z.number()).nullish() }).optional(),
});

/** The engine events of a streamed `--json` run, or undefined when `text` is not a stream of them. */
export function engineEventsOf(text: string): unknown[] | undefined {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines.length < 2 || !lines[0].trimStart().startsWith('{"sequence"')) return undefined;
  try {
    return lines.map((line) => JSON.parse(line) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * Streamed events as a preview: each refreshed resource a `refresh` step of its deployed state,
 * and each drifted one a step whose op is the refresh's (`update`, `delete`) with the deployed
 * state as its old side and the platform's as its new side.
 */
export function previewOfEvents(events: unknown[]): PreviewJson {
  const preview: PreviewJson = { steps: [], changeSummary: {}, diagnostics: [], refreshOnly: "events" };
  for (const raw of events) {
    const parsed = EngineEvent.safeParse(raw);
    if (!parsed.success) {
      const sequence = JSON.stringify((raw as { sequence?: unknown })?.sequence ?? null);
      throw new PreviewJsonError(
        `not a stream of Pulumi engine events: in event ${sequence}, ` +
          `${shapeProblem(parsed.error.issues[0], raw).replace("the document", "the event")}`,
      );
    }
    const event = parsed.data;
    const pre = event.resourcePreEvent?.metadata;
    if (pre?.op === "refresh") preview.steps.push({ op: "refresh", urn: pre.urn, oldState: stateOf(pre.old) });
    const done = event.resOutputsEvent?.metadata;
    if (done && done.op !== "same" && done.op !== "refresh")
      preview.steps.push({ op: done.op, urn: done.urn, oldState: stateOf(done.old), newState: stateOf(done.new) });
    const diagnostic = event.diagnosticEvent;
    if (diagnostic)
      preview.diagnostics!.push({ urn: diagnostic.urn, message: diagnostic.message, severity: diagnostic.severity });
    if (event.summaryEvent?.resourceChanges) preview.changeSummary = event.summaryEvent.resourceChanges;
  }
  return preview;
}

/** True when a preview is a refresh's alone: every step of it refreshes. */
export function isRefreshOnly(preview: PreviewJson): boolean {
  return preview.refreshOnly !== undefined || preview.steps.every((step) => step.op === "refresh");
}

/** How many objects a refresh found changed or gone, by its counts (all a single `--json` document tells). */
export function driftCount(preview: PreviewJson): number {
  return (preview.changeSummary?.update ?? 0) + (preview.changeSummary?.delete ?? 0);
}

function stateOf(value: unknown): PreviewJson["steps"][number]["oldState"] {
  if (typeof value !== "object" || value === null || typeof (value as { type?: unknown }).type !== "string")
    return undefined;
  return value as PreviewJson["steps"][number]["oldState"];
}

// What `pulumi preview --json` prints, as the summary reads it: checked with zod, and merged
// across the stacks of a sharded program. docs/design/cli.md says what the JSON holds.
import { z } from "zod";
import { shapeProblems } from "../input";

/** One side of a step, before or after, as the preview shows it. */
export const PreviewState = z.looseObject({
  type: z.string(),
  inputs: z.record(z.string(), z.unknown()).nullish(),
  outputs: z.record(z.string(), z.unknown()).nullish(),
  additionalSecretOutputs: z.array(z.string()).nullish(),
});

/** One step of the preview: an op on one resource. */
export const PreviewStep = z.looseObject({
  op: z.string(),
  urn: z.string().startsWith("urn:pulumi:", "must be a Pulumi URN"),
  oldState: PreviewState.nullish(),
  newState: PreviewState.nullish(),
  replaceReasons: z.array(z.string()).nullish(),
});

/** The parts of `pulumi preview --json` output that the summary reads. */
export const PreviewJson = z.looseObject({
  steps: z.array(PreviewStep),
  changeSummary: z.record(z.string(), z.number()).nullish(),
  diagnostics: z
    .array(z.looseObject({ urn: z.string().nullish(), severity: z.string().nullish(), message: z.unknown() }))
    .nullish(),
  /** Set when read from a refresh's streamed engine events (refresh.ts). */
  refreshOnly: z.literal("events").optional(),
});
/** Parsed `pulumi preview --json` output. */
export type PreviewJson = z.infer<typeof PreviewJson>;
/** One side of a step, parsed. */
export type PreviewState = z.infer<typeof PreviewState>;
/** One step, parsed. */
export type PreviewStep = z.infer<typeof PreviewStep>;

/** The input is not the output of `pulumi preview --json`; the message names the first problems. */
export class PreviewJsonError extends Error {
  /**
   * What is wrong with the JSON's shape, when that is the problem: the command adds what to run to get
   * the right file.
   */
  readonly problems?: string[];

  constructor(message: string, problems?: string[]) {
    super(message);
    this.name = "PreviewJsonError";
    this.problems = problems;
  }
}

/** Validates parsed JSON as preview output, or throws a PreviewJsonError naming each bad path in words. */
export function parsePreview(data: unknown): PreviewJson {
  const parsed = PreviewJson.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = shapeProblems(parsed.error, data);
  throw new PreviewJsonError(`not the output of \`pulumi preview --json\`: ${problems.join("; ")}`, problems);
}

/**
 * Several stacks' previews as one (the shards of one program, docs/guides/scaling.md): their steps,
 * change counts and diagnostics together, so that one summary covers every stack.
 */
export function mergePreviews(previews: PreviewJson[]): PreviewJson {
  if (previews.length === 1) return previews[0];
  const changeSummary: Record<string, number> = {};
  for (const preview of previews)
    for (const [op, n] of Object.entries(preview.changeSummary ?? {})) changeSummary[op] = (changeSummary[op] ?? 0) + n;
  const merged: PreviewJson = {
    steps: previews.flatMap((preview) => preview.steps),
    changeSummary,
    diagnostics: previews.flatMap((preview) => preview.diagnostics ?? []),
  };
  return previews.every((preview) => preview.refreshOnly === "events") ? { ...merged, refreshOnly: "events" } : merged;
}

/** A step's resource type: its state's, else the last type in its URN. */
export function typeOf(step: PreviewStep): string {
  const stated = step.newState?.type ?? step.oldState?.type;
  if (stated) return stated;
  // The URN's type part lists parent types too, separated by `$`; the last one is the resource's.
  return step.urn.split("::")[2]?.split("$").pop() ?? "";
}

/** A resource's name: what its URN holds after the type. */
export function resourceName(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

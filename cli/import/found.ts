// found.json: what the import found in each data line's config, frozen apart from the data for
// `pulumi destroy` to put back (index.ts declares it as each resource's restoreOnDelete).
import { z } from "zod";
import { NameValue } from "../../provider/client/configs";
import type { ImportPlan } from "./plan";
import { literal } from "./program";

/**
 * One record of found.json: one data line's fields as found, and whether each of its config's
 * workflows was enabled.
 */
export const FoundRecord = z.looseObject({
  linkedAccountId: z.string(),
  slug: z.string(),
  fields: z
    .array(
      z.looseObject({
        fieldId: z.string(),
        workflowId: z.string().optional(),
        name: z.string().optional(),
        options: z.array(NameValue).optional(),
        labels: z.array(NameValue).optional(),
        value: z.unknown().optional(),
      }),
    )
    .optional(),
  workflows: z.record(z.string(), z.boolean()),
  env: z.array(z.string()).optional(),
});
/** One record of found.json. */
export type FoundRecord = z.infer<typeof FoundRecord>;

/** found.json's records for a plan: one per data line whose config the import read (none for a 404). */
export function foundRecords(plan: ImportPlan): FoundRecord[] {
  return plan.setups
    .filter((setup) => setup.workflowStates !== undefined)
    .map((setup) => ({
      linkedAccountId: setup.linkedAccountId,
      slug: setup.slug,
      fields: setup.fields.length > 0 ? setup.fields.map((field) => ({ ...field })) : undefined,
      workflows: setup.workflowStates!,
      // Which env values were there: one added to the data later declares noValueBefore (program.ts).
      env: [
        ...setup.env.keys(),
        ...[...setup.workflowEnv].flatMap(([workflowId, values]) =>
          [...values.keys()].map((definitionId) => `${definitionId}/${workflowId}`),
        ),
      ],
    }));
}

/**
 * The earlier found.json's records, whole, and records only for the data lines it lacks: the
 * platform may hold the stack's own writes by now (docs/design/cli.md).
 */
export function keepEarlierFound(
  earlier: FoundRecord[],
  now: FoundRecord[],
): { records: FoundRecord[]; kept: number; added: number } {
  const line = (r: FoundRecord) => JSON.stringify([r.linkedAccountId, r.slug]);
  const known = new Set(earlier.map(line));
  const added = now.filter((record) => !known.has(line(record)));
  return { records: [...earlier, ...added], kept: earlier.length, added: added.length };
}

/** found.json's text: one record per line, so that a diff of it shows which data line changed. */
export function renderFound(records: FoundRecord[]): string {
  const lines = records.map((record) => `  ${literal(record, (name) => JSON.stringify(name))}`);
  return lines.length === 0 ? "[]\n" : `[\n${lines.join(",\n")}\n]\n`;
}

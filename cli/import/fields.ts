// Which field names, options and labels a config sets of its own: the API shows a field as the
// config sees it, the app's definition and the config's override merged.
import { NameValue, type Config } from "../../provider/client/configs";

/**
 * Fewer configs cannot tell an app's own field name or options from a config's override: then each
 * config's is declared.
 */
export const CONFIGS_TO_TELL_DEFAULTS = 3;

/** A `{name, value}` list as declared. */
export type NameValues = NameValue[];

/** A field's key in fieldDefaults' map: its workflow (none for a global field) and its id. */
export const fieldKey = (workflowId: string | undefined, fieldId: string) =>
  JSON.stringify([workflowId ?? null, fieldId]);

/** Every field of a config, global first, with its workflow. */
export function fieldsOf(config: Config) {
  return [
    ...config.fields.map((field) => ({ field, workflowId: undefined as string | undefined })),
    ...config.workflows.flatMap((w) =>
      (w.fields ?? []).map((field) => ({ field, workflowId: w.id as string | undefined })),
    ),
  ];
}

/**
 * A list as `{name, value}` pairs, the shape ConfigField compares and sends; undefined when an
 * element is not such a pair, since declaring the list would then change it.
 */
export function strictNameValues(list: unknown[] | null | undefined): NameValues | undefined {
  const pairs: NameValues = [];
  for (const item of list ?? []) {
    const parsed = NameValue.safeParse(item);
    if (!parsed.success) return undefined;
    pairs.push({ name: parsed.data.name, value: parsed.data.value });
  }
  return pairs;
}

/**
 * The app's own name and options of each field: what more than half of the configs hold, since the
 * API shows them merged with a config's override. Undefined without a majority, or too few configs.
 */
export function fieldDefaults(configs: Config[]): Map<string, { name?: string; options?: string }> {
  const seen = new Map<string, { total: number; names: Map<string, number>; options: Map<string, number> }>();
  for (const config of configs) {
    for (const { field, workflowId } of fieldsOf(config)) {
      const key = fieldKey(workflowId, field.id);
      const entry = seen.get(key) ?? { total: 0, names: new Map(), options: new Map() };
      seen.set(key, entry);
      entry.total++;
      const name = JSON.stringify(field.name ?? null);
      entry.names.set(name, (entry.names.get(name) ?? 0) + 1);
      const options = JSON.stringify(strictNameValues(field.options) ?? null);
      entry.options.set(options, (entry.options.get(options) ?? 0) + 1);
    }
  }
  const majority = (counts: Map<string, number>, total: number) =>
    total >= CONFIGS_TO_TELL_DEFAULTS ? [...counts].find(([, n]) => n * 2 > total)?.[0] : undefined;
  return new Map(
    [...seen].map(([key, { total, names, options }]) => [
      key,
      { name: majority(names, total), options: majority(options, total) },
    ]),
  );
}

import type { UnmappedField } from './types.ts';

/**
 * Counts what an importer read but could not map, by field, so the import ends with one summary
 * line per field (`12 x agent_result.rollout_details: token ids and logprobs are not kept`) instead of
 * dropping it silently.
 */
export class UnmappedFields {
  readonly #fields = new Map<string, { count: number; reason: string }>();

  note(field: string, reason: string, count = 1): void {
    const entry = this.#fields.get(field);
    if (entry === undefined) this.#fields.set(field, { count, reason });
    else entry.count += count;
  }

  /** Keys of `value` outside `known`: a field the importer does not read, noted under `prefix`. */
  unknownKeys(value: unknown, known: ReadonlySet<string>, prefix: string): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (!known.has(key)) this.note(`${prefix}${key}`, 'a field this importer does not read');
    }
  }

  list(): UnmappedField[] {
    return [...this.#fields]
      .map(([field, { count, reason }]) => ({ field, count, reason }))
      .sort((a, b) => a.field.localeCompare(b.field));
  }
}

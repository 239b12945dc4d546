import { z } from 'zod';
import { HarnessEventSchema } from './events.ts';

/** Where the published schema lives in the repository (and the npm package). */
export const HARNESS_EVENTS_SCHEMA_FILE = 'schemas/harness-events.schema.json';

/**
 * The JSON Schema of one line of a `HARNESSEVAL_EVENTS` file, for harness authors in any language.
 * Generated from `HarnessEventSchema` (input side: fields with defaults are optional), so it cannot
 * drift from what the runner accepts; a test checks the committed file is current.
 */
export function harnessEventsJsonSchema(): Record<string, unknown> {
  const json = z.toJSONSchema(HarnessEventSchema, { io: 'input', target: 'draft-2020-12' });
  return {
    ...json,
    $id: 'https://harnesseval.dev/schemas/harness-events.schema.json',
    title: 'HarnessEval harness event (one JSON line of the HARNESSEVAL_EVENTS file)',
  };
}

/** The schema file's text: two-space JSON with a final newline. */
export function harnessEventsSchemaText(): string {
  return `${JSON.stringify(harnessEventsJsonSchema(), null, 2)}\n`;
}

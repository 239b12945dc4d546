import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../../src/instrument/events.ts';
import {
  HARNESS_EVENTS_SCHEMA_FILE,
  harnessEventsJsonSchema,
  harnessEventsSchemaText,
} from '../../../src/instrument/events-json-schema.ts';

const file = fileURLToPath(new URL(`../../../${HARNESS_EVENTS_SCHEMA_FILE}`, import.meta.url));

describe('the published events JSON Schema', () => {
  it('is up to date with HarnessEventSchema (UPDATE_SCHEMAS=1 rewrites it)', async () => {
    if (process.env['UPDATE_SCHEMAS'] === '1') await writeFile(file, harnessEventsSchemaText(), 'utf8');
    expect(await readFile(file, 'utf8')).toBe(harnessEventsSchemaText());
  });

  const validate = new Ajv2020({ strict: false }).compile(harnessEventsJsonSchema());
  const good = [
    { type: 'agent_call', role: 'planner', model: 'gpt-4o', tokens_in: 10, tokens_out: 2, cost_usd: 0.01 },
    { type: 'prompt', kind: 'unplanned', text: 'try again' },
    { type: 'human', action: 'approve', kind: 'planned', minutes: 2 },
    { type: 'circuit_breaker', breaker: 'CB2:review-rejection', trigger: 'rejected twice' },
    { type: 'tool_call', tool_name: 'bash', args: { cmd: 'ls' } },
    { type: 'cost', cost_usd: 0.2 },
    { type: 'first_pass_approval', approved: true },
  ];
  const bad = [
    { type: 'agent_call', tokens_in: -1 },
    { type: 'prompt', kind: 'sometimes' },
    { type: 'human', action: 'shrug', kind: 'planned' },
    { type: 'circuit_breaker' },
    { type: 'tool_call' },
    { type: 'cost' },
    { type: 'telemetry', x: 1 },
    { kind: 'planned' },
  ];

  it('accepts every event the runner accepts', () => {
    for (const event of good) expect(validate(event), JSON.stringify(event)).toBe(true);
    expect(parseEvents(good.map((e) => JSON.stringify(e)).join('\n')).trace.malformed_events).toEqual([]);
  });

  it('rejects what the runner reports as malformed', () => {
    for (const event of bad) expect(validate(event), JSON.stringify(event)).toBe(false);
    const parsed = parseEvents(bad.map((e) => JSON.stringify(e)).join('\n'));
    expect(parsed.trace.malformed_events).toHaveLength(bad.length);
  });
});

import { appendFileSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';
import { newSha256 } from '../util/sha256.ts';
import type { ModelApi, RequestView } from './protocol.ts';

/** One recorded exchange: the request's normalised hash, and the response exactly as it came. */
export const CassetteEntrySchema = z.object({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  api: z.enum(['anthropic-messages', 'openai-chat', 'openai-responses']),
  model: z.string(),
  /** The request's last user text (truncated, redacted), to name a request in a miss. */
  summary: z.string(),
  status: z.number().int(),
  content_type: z.string(),
  body: z.string(),
});
export type CassetteEntry = z.infer<typeof CassetteEntrySchema>;

/** Fields that change from run to run without changing what is asked. */
const VOLATILE_FIELDS = new Set([
  'metadata',
  'user',
  'prompt_cache_key',
  'client_metadata',
  'safety_identifier',
]);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/**
 * HarnessEval's per-trial temporary folders (`mkdtemp`: `harnesseval-<name>-XXXXXX`): a CLI names
 * its own config folder or a slug of the workspace path in its prompts.
 */
const TRIAL_TEMP = /harnesseval-([A-Za-z0-9._-]*)-[A-Za-z0-9]{6}\b/g;
const MIN_MASKED_LENGTH = 8;
const DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;

function normalise(value: unknown, vars: readonly [string, string][]): unknown {
  if (typeof value === 'string') {
    // The masks first: a trial's own value may sit inside a temporary folder's name.
    let text = value
      .replace(UUID, '<uuid>')
      .replace(DATE, '<date>')
      .replace(TRIAL_TEMP, 'harnesseval-$1-<tmp>');
    for (const [name, val] of vars) text = text.split(val).join(`{{${name}}}`);
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => normalise(v, vars));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([k]) => !VOLATILE_FIELDS.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, normalise(v, vars)]));
  }
  return value;
}

/**
 * The cassette key of a request: a hash of its body with the trial's own values (its workspace
 * path, HarnessEval's temporary folders), UUIDs, dates and per-run fields masked, keys sorted. The same question in another trial
 * or on another day hashes the same.
 */
export function requestKey(api: ModelApi, body: unknown, vars: Readonly<Record<string, string>>): string {
  // Values that differ from trial to trial (a workspace path), longest first so that a path inside
  // another is replaced whole. Short ones (an epoch number) would mask ordinary text.
  const ordered = Object.entries(vars)
    .filter(([, value]) => value.length >= MIN_MASKED_LENGTH)
    .map(([name, value]): [string, string] => [name, normalise(value, []) as string])
    .sort(([, a], [, b]) => b.length - a.length);
  return newSha256()
    .update(`${api}\n${JSON.stringify(normalise(body, ordered))}`)
    .digest('hex');
}

/** The user's words in a request, to name it in a miss (Claude Code's system reminders left out). */
export function requestSummary(view: RequestView): string {
  return view.last_user_text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

/** A cassette to replay: entries by key, each key's entries served in order (the last one repeats). */
export class Cassette {
  private constructor(
    readonly file: string,
    private readonly entries: ReadonlyMap<string, readonly CassetteEntry[]>,
  ) {}

  static load(file: string): Cassette {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new HarnessEvalError('not_found', `cannot read cassette ${file}`, { cause: error });
    }
    const entries = new Map<string, CassetteEntry[]>();
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      let parsed: z.ZodSafeParseResult<CassetteEntry>;
      try {
        parsed = CassetteEntrySchema.safeParse(JSON.parse(line));
      } catch (error) {
        throw new HarnessEvalError('invalid_input', `${file}:${index + 1}:1: not JSON`, { cause: error });
      }
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HarnessEvalError(
          'invalid_input',
          `${file}:${index + 1}:1: ${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}`,
        );
      }
      const list = entries.get(parsed.data.key) ?? [];
      list.push(parsed.data);
      entries.set(parsed.data.key, list);
    });
    return new Cassette(file, entries);
  }

  /** The `use`-th recorded answer to this key (0-based); undefined on a miss. */
  find(key: string, use: number): CassetteEntry | undefined {
    const list = this.entries.get(key);
    if (list === undefined || list.length === 0) return undefined;
    return list[Math.min(use, list.length - 1)];
  }

  get size(): number {
    return [...this.entries.values()].reduce((n, l) => n + l.length, 0);
  }
}

/** Appends recorded exchanges to a cassette file, one JSON line each. */
export class CassetteRecorder {
  constructor(readonly file: string) {}

  append(entry: CassetteEntry): void {
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }
}

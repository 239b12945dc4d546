import { z } from 'zod';

/** Names longer than this many Unicode code points are cut to it (and flagged `truncated`). */
export const MAX_NAME_CODE_POINTS = 64;

export const GreetingSchema = z.object({
  greeting: z.string().describe('The greeting text, e.g. "Hello, Ada!"'),
  name: z.string().describe('The name as greeted: NFC-normalised, trimmed, at most 64 code points'),
  timestamp: z.iso.datetime().describe('When the greeting was made (ISO 8601, UTC)'),
  truncated: z.boolean().describe('True when the given name was longer than 64 code points and was cut'),
});
export type Greeting = z.infer<typeof GreetingSchema>;

/**
 * The whole behaviour of the `hello_world` tool, kept apart from the MCP plumbing so it can be
 * tested alone.
 *
 * - The name is NFC-normalised (so `Zoe\u0308` and `Zoë` greet alike) and trimmed.
 * - An empty or whitespace-only name greets nobody in particular: `Hello!` with name `""`.
 * - A name longer than 64 code points is cut to 64 (never inside a surrogate pair) and
 *   `truncated` is true; the tool does not reject it, because a greeting is still possible.
 * - Everything else (quotes, `<`, `&`, emoji) is data and comes back verbatim: nothing is
 *   escaped, because the output is plain text, not HTML.
 */
export function greet(rawName: string, now: Date = new Date()): Greeting {
  const codePoints = Array.from(rawName.normalize('NFC').trim());
  const truncated = codePoints.length > MAX_NAME_CODE_POINTS;
  const name = codePoints.slice(0, MAX_NAME_CODE_POINTS).join('').trimEnd();
  const greeting = name === '' ? 'Hello!' : `Hello, ${name}!`;
  return { greeting, name, timestamp: now.toISOString(), truncated };
}

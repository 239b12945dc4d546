/**
 * Reads who to greet from a prompt such as "Greet Ada", "Say hello to Ada", "Say hi to Ada",
 * "Greet Ada please" or `Greet "Tom & Jerry"`. Deliberately simple: a prompt it does not
 * understand is reported as such, never guessed at.
 */
export type NameFromPrompt = { ok: true; name: string } | { ok: false; reason: string };

const REQUEST = /^(?:please[,\s]+)?(?:greet|say\s+(?:hello|hi)\s+to|wave\s+to)(?:\s+|$)(.*)$/is;
const NO_NAME = /^(?:someone\s+|somebody\s+)?with\s+(?:an?\s+)?(?:empty|blank|no)\s+name\b/i;
const QUOTED = /^(?:"([^"]*)"|“([^”]*)”|'([^']*)')/;
const PARENTHETICAL = /\s*\([^()]*\)\s*$/;
const POLITE_TAIL = /(?:^|[\s,]+)please$/i;
const END_PUNCTUATION = /[.!?]+$/;

export function nameFromPrompt(prompt: string): NameFromPrompt {
  const request = REQUEST.exec(prompt.trim());
  if (request === null) {
    return { ok: false, reason: 'expected a prompt like "Greet NAME" or "Say hello to NAME"' };
  }
  const rest = (request[1] ?? '').trim();
  if (NO_NAME.test(rest)) return { ok: true, name: '' };
  // A quoted name is taken verbatim: quotes are how a prompt says "exactly this".
  const quoted = QUOTED.exec(rest);
  if (quoted !== null) return { ok: true, name: quoted[1] ?? quoted[2] ?? quoted[3] ?? '' };
  let name = rest;
  for (const tail of [PARENTHETICAL, POLITE_TAIL, END_PUNCTUATION, POLITE_TAIL]) {
    name = name.replace(tail, '').trim();
  }
  name = name.replace(/\s+/g, ' ');
  if (name === '') return { ok: false, reason: 'the prompt does not say who to greet' };
  return { ok: true, name };
}

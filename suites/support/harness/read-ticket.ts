/**
 * How the scripted support agent reads a ticket and the policy: plain rules instead of a model.
 * Pure functions, so that the agent's decisions can be tested without a server.
 */

export interface PolicyNumbers {
  readonly windowDays: number;
  readonly agentLimit: number;
  readonly arrival: string;
  readonly billingAnswerDays: string;
}

/** The figures the policy document states, read from its text (it is the agent's only source). */
export function readPolicy(markdown: string): PolicyNumbers {
  // Sentences wrap across lines and carry emphasis: read the words only.
  const text = markdown.replace(/[*_`]/g, '').replace(/\s+/g, ' ');
  const number = (pattern: RegExp, what: string): string => {
    const found = pattern.exec(text)?.[1];
    if (found === undefined) throw new Error(`the policy does not say ${what}`);
    return found;
  };
  return {
    windowDays: Number(number(/within (\d+) days of delivery/, 'the refund window')),
    agentLimit: Number(
      number(/limit is \$([\d.,]+) per order/, "the agent's refund limit").replace(/,/g, ''),
    ),
    arrival: number(/reach the card in ([\d-]+) business days/, 'when refunds arrive'),
    billingAnswerDays: number(/billing answers within (\d+) business days/, 'when billing answers'),
  };
}

export type Request = 'damaged' | 'change_of_mind' | 'refund_status' | 'order_status';

const DAMAGE = /\b(broken|broke|cracked|crushed|pieces|damaged|defective|stopped|faulty|error)\b/i;
const FINE = /\b(fine|perfect|ok|okay|undamaged)\b/i;

/** What the customer asks for, from their words. */
export function classifyRequest(message: string): Request {
  if (/\b(changed my mind|don't want|no longer want|too loud|return (it|the))\b/i.test(message))
    return 'change_of_mind';
  if (/\b(still (have )?no refund|where is my refund|sent .* back|returned)\b/i.test(message))
    return 'refund_status';
  if (DAMAGE.test(message)) return 'damaged';
  return 'order_status';
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

/** Words of an item name a customer would use ("Tumbler glass" -> tumbler, glass). */
function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3 && w !== 'set');
}

const singular = (word: string): string => word.replace(/(es|s)$/, '');

export interface Affected {
  readonly sku: string;
  readonly quantity: number;
}

/**
 * The items a damage report is about: items named in a sentence with a damage word, minus those
 * the customer says are fine; the count is the first number word of that sentence, else all.
 */
export function affectedItems(
  message: string,
  items: readonly { sku: string; name: string; quantity: number }[],
): Affected[] {
  const sentences = message.split(/(?<=[.!?])\s+/);
  const mentioned = (sentence: string, item: { name: string }) => {
    const raw = sentence.toLowerCase().split(/[^a-z]+/);
    const words = new Set([...raw, ...raw.map(singular)]);
    return nameWords(item.name).some((w) => words.has(w) || words.has(singular(w)));
  };
  const affected: Affected[] = [];
  for (const item of items) {
    const damaged = sentences.find((s) => DAMAGE.test(s) && mentioned(s, item));
    const fine = sentences.some((s) => FINE.test(s) && !DAMAGE.test(s) && mentioned(s, item));
    if (damaged === undefined || fine) continue;
    const count = damaged
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .map((w) => NUMBER_WORDS[w] ?? (/^\d+$/.test(w) ? Number(w) : undefined))
      .find((n) => n !== undefined);
    affected.push({ sku: item.sku, quantity: Math.min(count ?? item.quantity, item.quantity) });
  }
  return affected;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2026-10-09` -> `9 October`. */
export function spokenDate(date: string): string {
  const [, month, day] = date.split('-').map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]}`;
}

export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

export const dollars = (amount: number): string => `$${amount.toFixed(2)}`;

import { describe, expect, it } from 'vitest';
import { GreetingSchema, greet, MAX_NAME_CODE_POINTS } from '../../../examples/hello-world/greeting.ts';
import { nameFromPrompt } from '../../../examples/hello-world/prompt-name.ts';

const at = new Date('2026-01-02T03:04:05.678Z');

describe('greet (the hello_world tool behaviour)', () => {
  it('greets a name and stamps the time in ISO 8601', () => {
    expect(greet('Ada', at)).toEqual({
      greeting: 'Hello, Ada!',
      name: 'Ada',
      timestamp: '2026-01-02T03:04:05.678Z',
      truncated: false,
    });
    expect(GreetingSchema.safeParse(greet('Ada')).success).toBe(true);
  });

  it('greets nobody in particular for an empty or whitespace-only name', () => {
    expect(greet('', at)).toMatchObject({ greeting: 'Hello!', name: '' });
    expect(greet(' \t\n ', at)).toMatchObject({ greeting: 'Hello!', name: '' });
  });

  it('NFC-normalises and trims', () => {
    expect(greet('  Zoe\u0308 ', at).name).toBe('Zo\u00eb');
  });

  it('returns special characters verbatim', () => {
    const name = `<script>alert("x")</script> & 'O'Brien' \${HOME}`;
    expect(greet(name, at).greeting).toBe(`Hello, ${name}!`);
  });

  it('keeps exactly 64 code points, cuts 65 and flags it', () => {
    const exact = 'a'.repeat(MAX_NAME_CODE_POINTS);
    expect(greet(exact, at)).toMatchObject({ name: exact, truncated: false });
    expect(greet(`${exact}b`, at)).toMatchObject({ name: exact, truncated: true });
  });

  it('counts code points, so an emoji is never cut in half', () => {
    const foxes = '🦊'.repeat(70);
    const { name, truncated } = greet(foxes, at);
    expect(truncated).toBe(true);
    expect(Array.from(name)).toHaveLength(64);
    expect(name).toBe('🦊'.repeat(64));
  });
});

describe('nameFromPrompt (the reference agent parser)', () => {
  it.each([
    ['Greet Ada', 'Ada'],
    ['Say hello to Grace', 'Grace'],
    ['Say hi to Linus', 'Linus'],
    ['Greet Alan please', 'Alan'],
    ['Greet Alan, please.', 'Alan'],
    ['Please greet Dennis', 'Dennis'],
    ['  greet   Katherine  ', 'Katherine'],
    ['Greet Ken.', 'Ken'],
    ['Greet Mary Jane Watson', 'Mary Jane Watson'],
    ['Greet Frank (check the timestamp)', 'Frank'],
    ['Greet "<Bobby> O\'Hara"', "<Bobby> O'Hara"],
    ['Greet “Tom & Jerry”!', 'Tom & Jerry'],
    ['Greet someone with an empty name', ''],
    ['Greet "   "', '   '],
    ['Greet 山田花子', '山田花子'],
  ])('%j -> %j', (prompt, name) => {
    expect(nameFromPrompt(prompt)).toEqual({ ok: true, name });
  });

  it.each(['Hello there', 'What is the weather?', 'Greet', 'Greet please', ''])('refuses %j', (prompt) => {
    expect(nameFromPrompt(prompt).ok).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { redactSecrets, secretsFromEnv } from '../../../src/store/redact.ts';

describe('redactSecrets', () => {
  it('replaces the values of secret-looking variables with their name', () => {
    const env = { OPENAI_API_KEY: 'sk-proj-abcdefgh', DB_PASSWORD: 'hunter2hunter2' };
    expect(redactSecrets('key sk-proj-abcdefgh and pw hunter2hunter2, twice sk-proj-abcdefgh', env)).toBe(
      'key [REDACTED:OPENAI_API_KEY] and pw [REDACTED:DB_PASSWORD], twice [REDACTED:OPENAI_API_KEY]',
    );
  });

  it('matches names case-insensitively on KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL and AUTH', () => {
    const names = ['my_key', 'GH_TOKEN', 'client_secret', 'Password', 'GOOGLE_CREDENTIALS', 'AUTH_HEADER'];
    const env = Object.fromEntries(names.map((name, i) => [name, `value-number-${i}`]));
    expect(
      secretsFromEnv(env)
        .map((s) => s.name)
        .sort(),
    ).toEqual([...names].sort());
  });

  it('leaves short values, unset values and ordinary variables alone', () => {
    const env = { API_KEY: 'short', EMPTY_TOKEN: undefined, HOME: '/home/someone-long' };
    const text = 'short /home/someone-long';
    expect(redactSecrets(text, env)).toBe(text);
  });

  it('scrubs the JSON-escaped form of a value with quotes or backslashes, keeping JSON valid', () => {
    const env = { WEIRD_SECRET: 'pa"ss\\word\n42' };
    const json = JSON.stringify({ header: `x ${env.WEIRD_SECRET} y` });
    const redacted = redactSecrets(json, env);
    expect(JSON.parse(redacted)).toEqual({ header: 'x [REDACTED:WEIRD_SECRET] y' });
  });

  it('scrubs the longer of two overlapping secrets whole', () => {
    const env = { SHORT_KEY: 'abcdefgh', LONG_KEY: 'abcdefgh-ijklmnop' };
    expect(redactSecrets('abcdefgh-ijklmnop / abcdefgh', env)).toBe(
      '[REDACTED:LONG_KEY] / [REDACTED:SHORT_KEY]',
    );
  });

  it('treats the value as text, not as a pattern', () => {
    const env = { REGEX_TOKEN: '.*.*.*.*' };
    expect(redactSecrets('abc .*.*.*.* def', env)).toBe('abc [REDACTED:REGEX_TOKEN] def');
  });
});

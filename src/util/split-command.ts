import { HarnessEvalError } from '../core/errors.ts';

/**
 * Splits a command line into argv the way a user expects, without a shell: whitespace separates
 * words, single or double quotes group them, a backslash escapes the next character (outside
 * single quotes). Pipes, `&&`, `$VAR` and globs are plain text.
 * @example splitCommand(`npm test -- --grep "login flow"`) // ['npm', 'test', '--', '--grep', 'login flow']
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (char === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined)
    throw new HarnessEvalError('invalid_config', `unterminated ${quote} quote in command: ${line}`);
  if (inWord) words.push(word);
  return words;
}

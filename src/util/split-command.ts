import { HarnessEvalError } from '../core/errors.ts';

/**
 * Splits a command line into argv the way a user expects from a shell, with none of a shell's
 * power: whitespace separates words, '…' groups literally, "…" groups with `\"` and `\\` escapes,
 * and a backslash outside quotes escapes the next character. `$`, `|`, `;`, globs and the like
 * are plain characters. Unbalanced quotes are an error.
 *
 * @example splitCommand(`node agent.js --name "Ada Lovelace"`) // ['node', 'agent.js', '--name', 'Ada Lovelace']
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i += 1) {
    const char = command.charAt(i);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) {
        word += command.charAt(i + 1);
        i += 1;
      } else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command.charAt(i + 1);
      inWord = true;
      i += 1;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) {
    throw new HarnessEvalError('invalid_config', `unbalanced ${quote} quote in command: ${command}`);
  }
  if (inWord) words.push(word);
  return words;
}

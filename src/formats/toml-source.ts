import { parse, TomlError } from 'smol-toml';
import type { Diagnostic, FieldPath } from '../core/diagnostic.ts';
import { type Locate, located, type Position } from './issues.ts';

/**
 * Where each key of a TOML document is written, read from its lines: table headers (`[a.b]`,
 * `[[steps]]`) set the current table, `key = value` lines (dotted keys too) name a field in it.
 * Enough to locate schema errors; the values themselves come from smol-toml.
 */
function keyLines(text: string): Map<string, Position> {
  const positions = new Map<string, Position>();
  const arrayCounts = new Map<string, number>();
  let table: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const header = /^\[(\[)?\s*([^\]]+?)\s*\]\]?/.exec(trimmed);
    if (header !== null) {
      const keys = splitKey(header[2] ?? '');
      if (header[1] !== undefined) {
        const base = keys.join('.');
        const index = arrayCounts.get(base) ?? 0;
        arrayCounts.set(base, index + 1);
        table = [...keys, String(index)];
      } else {
        // `[steps.agent]` after `[[steps]]` belongs to the last steps entry.
        const parent = keys.slice(0, -1).join('.');
        const count = arrayCounts.get(parent);
        table = count === undefined ? keys : [...keys.slice(0, -1), String(count - 1), keys.at(-1) ?? ''];
      }
      positions.set(table.join('.'), { line: i + 1, col: line.indexOf('[') + 1 });
      continue;
    }
    const assignment = /^([A-Za-z0-9_.\-"' ]+?)\s*=/.exec(trimmed);
    if (assignment !== null) {
      const path = [...table, ...splitKey(assignment[1] ?? '')].join('.');
      if (!positions.has(path)) positions.set(path, { line: i + 1, col: line.indexOf(trimmed) + 1 });
    }
  }
  return positions;
}

function splitKey(key: string): string[] {
  return key.split('.').map((part) => part.trim().replace(/^["']|["']$/g, ''));
}

export interface TomlSource {
  readonly value?: unknown;
  readonly diagnostics: readonly Diagnostic[];
  readonly locate: Locate;
}

/** Parses TOML; a syntax error is one located diagnostic, and `locate` finds keys for schema errors. */
export function parseTomlSource(file: string, text: string): TomlSource {
  const positions = keyLines(text);
  const locate: Locate = (path: FieldPath) => {
    for (let n = path.length; n > 0; n--) {
      const found = positions.get(path.slice(0, n).map(String).join('.'));
      if (found !== undefined) return found;
    }
    return { line: 1, col: 1 };
  };
  try {
    return { value: parse(text), diagnostics: [], locate };
  } catch (error) {
    if (error instanceof TomlError) {
      const message = error.message.split('\n')[0] ?? 'invalid TOML';
      return {
        diagnostics: [located(file, { line: error.line, col: error.column }, [], message, 'valid TOML')],
        locate,
      };
    }
    throw error;
  }
}

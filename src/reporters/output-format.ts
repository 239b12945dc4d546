import { extname } from 'node:path';
import { HarnessEvalError } from '../core/errors.ts';

/** A format name and the file extensions (lower-case, with the dot) that select it. */
export type FormatExtensions = Readonly<Record<string, readonly string[]>>;

/** The views of a comparison and of a timeline: the same four formats, chosen the same way. */
export const VIEW_FORMATS = {
  console: ['.txt'],
  markdown: ['.md', '.markdown'],
  json: ['.json'],
  html: ['.html', '.htm'],
} as const satisfies FormatExtensions;

export type ViewFormat = keyof typeof VIEW_FORMATS;

/** The format whose extensions include the file's; undefined when none does. */
export function formatForExtension<F extends FormatExtensions>(
  path: string,
  formats: F,
): (keyof F & string) | undefined {
  const extension = extname(path).toLowerCase();
  if (extension === '') return undefined;
  for (const name of Object.keys(formats) as (keyof F & string)[])
    if (formats[name]?.includes(extension)) return name;
  return undefined;
}

/**
 * The one rule of `report`, `compare` and `timeline` for picking an output format: `--format`
 * when given, else the extension of `-o FILE`, else `fallback` (stdout). An extension no format
 * claims is a usage error that lists the known ones, never a silent console dump into `out.pdf`.
 *
 * @example resolveOutputFormat({ output: 'pr.md', formats: VIEW_FORMATS, fallback: 'console' }) // "markdown"
 */
export function resolveOutputFormat<F extends FormatExtensions>(options: {
  readonly format?: (keyof F & string) | undefined;
  readonly output?: string | undefined;
  readonly formats: F;
  readonly fallback: keyof F & string;
}): keyof F & string {
  if (options.format !== undefined) return options.format;
  if (options.output === undefined) return options.fallback;
  const name = formatForExtension(options.output, options.formats);
  if (name !== undefined) return name;
  const extension = extname(options.output).toLowerCase();
  const known = Object.entries(options.formats).flatMap(([n, exts]) => exts.map((x) => `${x} (${n})`));
  throw new HarnessEvalError(
    'usage',
    `cannot tell the report format of "${options.output}" from its extension${extension === '' ? '' : ` ${extension}`}; use --format NAME or one of: ${known.join(', ')}`,
    { data: { path: options.output, known } },
  );
}

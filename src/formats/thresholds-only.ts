import { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import { type Threshold, ThresholdSchema } from '../core/suite.ts';
import { detectDocumentKind, hasDocumentExtension } from './detect.ts';
import { checkThresholds, type PluginNames } from './plugin-check.ts';
import { readDocument } from './read-file.ts';
import { parseYamlSource } from './yaml-source.ts';

const ThresholdsSchema = z.record(z.string(), ThresholdSchema);

/**
 * The `thresholds:` of a suite or benchmark file, read without converting its tests: `compare`
 * needs only those, and converting the 10,000 tests of a generated suite was a tenth of a
 * compare's time (bench/README.md). The thresholds get the checks a whole load gives them (the
 * schema, known metric names, bounds). Undefined when only a whole load can answer: another kind
 * of file (a dataset, task folders), or anything wrong with the file or its thresholds, which the
 * whole load then reports with its location.
 */
export function readThresholdsOnly(
  file: string,
  plugins?: PluginNames,
): Record<string, Threshold> | undefined {
  if (!hasDocumentExtension(file)) return undefined;
  let text: string;
  try {
    const document = readDocument(file);
    if (document.diagnostics.length > 0) return undefined;
    text = document.text;
  } catch {
    return undefined;
  }
  const source = parseYamlSource(file, text);
  if (source.diagnostics.length > 0) return undefined;
  const kind = detectDocumentKind(source.value);
  if (kind !== 'suite' && kind !== 'benchmark') return undefined;
  const raw = (source.value as Record<string, unknown>)['thresholds'];
  if (raw === undefined) return {};
  const diagnostics: Diagnostic[] = [];
  const ctx = { file, locate: source.locate, diagnostics, ...(plugins === undefined ? {} : { plugins }) };
  checkThresholds(ctx, raw);
  const parsed = ThresholdsSchema.safeParse(raw);
  return parsed.success && diagnostics.length === 0 ? parsed.data : undefined;
}

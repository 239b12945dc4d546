import type { Diagnostic } from '../core/diagnostic.ts';
import { type HarnessConfig, HarnessConfigSchema } from '../core/harness-config.ts';
import type { FileResult } from './benchmark.ts';
import { issuesToDiagnostics, type Locate } from './issues.ts';
import { checkAdapter, isRecord, type PluginNames } from './plugin-check.ts';
import { sandboxRelativeTo } from './sandbox-paths.ts';

const CONFIG_FIELDS = new Set(Object.keys(HarnessConfigSchema.shape));

/**
 * A harness config file. Keys that are not harness fields are adapter options written inline
 * (as a benchmark's `agent:` does); they are merged into `options` and checked against the
 * adapter's schema, so a typo is an unknown option, located at the key.
 */
export function harnessFileToConfig(
  file: string,
  raw: unknown,
  locate: Locate,
  plugins?: PluginNames,
): FileResult<HarnessConfig> {
  const diagnostics: Diagnostic[] = [];
  if (!isRecord(raw)) {
    const parsed = HarnessConfigSchema.safeParse(raw, { reportInput: true });
    return {
      ok: false,
      diagnostics: parsed.success ? [] : issuesToDiagnostics(parsed.error.issues, file, locate),
    };
  }
  const fields: Record<string, unknown> = {};
  const inline: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) (CONFIG_FIELDS.has(key) ? fields : inline)[key] = value;
  const nested = isRecord(raw['options']) ? raw['options'] : {};
  const options = { ...nested, ...inline };
  const parsed = HarnessConfigSchema.safeParse({ ...fields, options }, { reportInput: true });
  if (!parsed.success) diagnostics.push(...issuesToDiagnostics(parsed.error.issues, file, locate));
  const optionsPath = Object.keys(inline).length === 0 && isRecord(raw['options']) ? ['options'] : [];
  checkAdapter({ file, locate, diagnostics, plugins }, raw['adapter'], options, ['adapter'], optionsPath);
  if (!parsed.success || diagnostics.length > 0) return { ok: false, diagnostics };
  const config = parsed.data;
  if (config.sandbox !== undefined) config.sandbox = sandboxRelativeTo(config.sandbox, file);
  return { ok: true, value: config, count: 1 };
}

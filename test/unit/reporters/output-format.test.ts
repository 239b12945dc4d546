import { describe, expect, it } from 'vitest';
import { resolveOutputFormat, VIEW_FORMATS } from '../../../src/reporters/output-format.ts';
import { reporterForFile } from '../../../src/reporters/registry.ts';

// One extension -> format rule for report, compare and timeline.
describe('resolveOutputFormat', () => {
  it('prefers --format, then the extension of -o, then the fallback', () => {
    expect(
      resolveOutputFormat({ format: 'json', output: 'a.md', formats: VIEW_FORMATS, fallback: 'console' }),
    ).toBe('json');
    expect(resolveOutputFormat({ output: 'out/PR.MD', formats: VIEW_FORMATS, fallback: 'console' })).toBe(
      'markdown',
    );
    expect(resolveOutputFormat({ output: 'c.htm', formats: VIEW_FORMATS, fallback: 'console' })).toBe('html');
    expect(resolveOutputFormat({ formats: VIEW_FORMATS, fallback: 'console' })).toBe('console');
  });

  it('refuses an extension no format claims, naming the known ones', () => {
    expect(() =>
      resolveOutputFormat({ output: 'c.pdf', formats: VIEW_FORMATS, fallback: 'console' }),
    ).toThrow(
      /cannot tell the report format of "c.pdf" from its extension .pdf; use --format NAME or one of: .txt \(console\)/,
    );
  });

  it('is the rule the experiment reporters use too', () => {
    expect(reporterForFile('out/results.xml')).toBe('junit');
    expect(() => reporterForFile('out/results.pdf')).toThrow(/\.xml \(junit\)/);
  });
});

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostic.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';

describe('formatDiagnostic', () => {
  it('renders file:line:col: path: message (expected ...)', () => {
    const text = formatDiagnostic({
      file: 'cases.jsonl',
      line: 3,
      col: 1,
      path: 'case_id',
      message: 'invalid value "A"',
      expected: 'a string matching ^[a-z0-9][a-z0-9_-]{2,63}$',
      severity: 'error',
    });
    expect(text).toBe(
      'cases.jsonl:3:1: case_id: invalid value "A" (expected a string matching ^[a-z0-9][a-z0-9_-]{2,63}$)',
    );
  });

  it('omits the location for whole-file problems and marks warnings and rule codes', () => {
    const text = formatDiagnostic({
      file: 'a.jsonl',
      line: 0,
      col: 0,
      path: '',
      message: 'file is empty',
      severity: 'warning',
      code: 'x',
    });
    expect(text).toBe('a.jsonl: warning: file is empty [x]');
  });
});

describe('HarnessEvalError', () => {
  it('keeps code, diagnostics and cause', () => {
    const cause = new Error('low level');
    const error = new HarnessEvalError('not_found', 'no such file', { cause, data: { path: 'x' } });
    expect(HarnessEvalError.is(error)).toBe(true);
    expect(error.code).toBe('not_found');
    expect(error.cause).toBe(cause);
    expect(error.data).toEqual({ path: 'x' });
    expect(HarnessEvalError.is(new Error('x'))).toBe(false);
  });
});

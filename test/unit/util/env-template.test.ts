// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the template syntax under test.
import { describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { envTemplateNames, expandEnvTemplate } from '../../../src/util/env-template.ts';

describe('expandEnvTemplate', () => {
  it('expands every reference', () => {
    expect(expandEnvTemplate('Bearer ${TOKEN}/${TOKEN}-${ID}', { TOKEN: 't0k', ID: '7' })).toBe(
      'Bearer t0k/t0k-7',
    );
    expect(expandEnvTemplate('no references $HOME {X}', {})).toBe('no references $HOME {X}');
    expect(envTemplateNames('${A}${B}${A}')).toEqual(['A', 'B']);
  });

  it('names a missing variable and where it was used, without any value', () => {
    let error: unknown;
    try {
      expandEnvTemplate('${SECRET_KEY} ${OTHER}', { OTHER: 'visible-value' }, 'headers.Authorization');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HarnessEvalError);
    expect(error).toMatchObject({ code: 'invalid_config' });
    const message = error instanceof Error ? error.message : '';
    expect(message).toBe('environment variable SECRET_KEY is not set (in headers.Authorization)');
    expect(message).not.toContain('visible-value');
  });

  it('treats an empty variable as set', () => {
    expect(expandEnvTemplate('[${EMPTY}]', { EMPTY: '' })).toBe('[]');
  });
});

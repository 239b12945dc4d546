// examples/plugins/echo-adapter.contract.test.ts — run with `npx vitest run` in your project.
import { HarnessConfigSchema } from 'harnesseval';
import { adapterContract, notApplicable } from 'harnesseval/testing';
import { describe, expect, it } from 'vitest';
import { echoAdapter } from './echo-adapter.ts';

const echo = () =>
  echoAdapter.create(echoAdapter.options.parse({ fail_on: 'boom' }), {
    baseDir: '.',
    env: {},
    harness: HarnessConfigSchema.parse({ name: 'echo', adapter: 'echo' }),
  });

adapterContract(
  'echo',
  { describe, it, expect },
  {
    success: async () => ({ agent: await echo(), input: 'hi', output: 'echo: hi' }),
    errors: {
      'a refused input': async () => ({ agent: await echo(), input: 'boom', error_kind: 'agent' }),
    },
    hang: notApplicable('it answers at once: there is no call for a signal to stop'),
    orphans: notApplicable('it runs in this process and starts none'),
    usage: async () => ({ agent: await echo(), input: 'hi', usage: { tokens_in: 2, tokens_out: 2 } }),
    events: async () => ({ agent: await echo(), input: 'hi', tool_calls: ['echo'] }),
  },
);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpAdapter } from '../../src/adapters/http.ts';
import type { AgentV1 } from '../../src/adapters/types.ts';
import {
  adapterContract,
  notApplicable,
  type ScriptedHttpAgent,
  startScriptedHttpAgent,
} from '../../src/testing.ts';
import { contractScript, TOOLS, USAGE } from '../fixtures/contract/script.ts';
import { environment } from '../unit/adapters/trial-context.ts';

// A real HTTP service on 127.0.0.1 (a free port): the scripted agent served by harnesseval/testing.
let server: ScriptedHttpAgent;
beforeAll(async () => {
  server = await startScriptedHttpAgent(contractScript);
});
afterAll(async () => {
  await server.close();
});

async function httpAgent(options: Record<string, unknown> = server.adapterOptions): Promise<AgentV1> {
  return httpAdapter.create(httpAdapter.options.parse(options), environment('http'));
}

const subject = async (input: string) => ({ agent: await httpAgent(), input });

adapterContract(
  'http',
  { describe, it, expect },
  {
    success: async () => ({ ...(await subject('Ada')), output: 'Hello, Ada!' }),
    errors: {
      'an HTTP 500': async () => ({ ...(await subject('server error')), error_kind: 'transient' }),
      'an HTTP 422 refusal': async () => ({ ...(await subject('refuse')), error_kind: 'agent' }),
      'a dropped connection': async () => ({ ...(await subject('boom')), error_kind: 'transient' }),
      'a service that is not listening': async () => {
        const gone = await startScriptedHttpAgent(contractScript);
        await gone.close();
        return { agent: await httpAgent({ url: gone.url }), input: 'Ada', error_kind: 'config' };
      },
      'a response that is not the JSON the paths expect': async () => ({
        agent: await httpAgent({ url: server.url, output_path: '$.answer' }),
        input: 'Ada',
        error_kind: 'invalid_output',
      }),
    },
    hang: () => subject('hang'),
    orphans: notApplicable('the http adapter starts no process: the service runs on its own'),
    usage: async () => ({ ...(await subject('usage')), usage: USAGE }),
    events: async () => ({ ...(await subject('work')), agent_calls: 2, tool_calls: TOOLS }),
  },
);

describe('startScriptedHttpAgent', () => {
  it('listens on 127.0.0.1 and counts the requests it answered', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const before = server.requests();
    const response = await fetch(server.url, { method: 'POST', body: JSON.stringify({ input: 'Ada' }) });
    expect(await response.json()).toMatchObject({ output: 'Hello, Ada!', tool_calls: [], events: [] });
    expect(server.requests()).toBe(before + 1);
  });

  it('answers a body that is not JSON with a 400', async () => {
    const response = await fetch(server.url, { method: 'POST', body: '{nope' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: expect.stringContaining('not a JSON request') });
  });
});

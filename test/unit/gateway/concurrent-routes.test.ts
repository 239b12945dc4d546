import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../../src/gateway/server.ts';
import { anthropicStream, startUpstream } from './upstream-server.ts';

describe('sixteen concurrent trials through one gateway', () => {
  it('attributes every interleaved stream to its own route', async () => {
    // Each answer's usage encodes the trial that asked, and its events arrive in pieces, so the
    // sixteen streams interleave on the gateway.
    const upstream = await startUpstream((request) => {
      const trial = Number(
        String(
          request.body['messages'] && (request.body['messages'] as { content: string }[])[0]?.content,
        ).replace('trial ', ''),
      );
      return {
        contentType: 'text/event-stream',
        chunks: anthropicStream(
          `answer ${trial}`,
          { input: 1000 + trial, output: 10 + trial },
          `msg_${trial}`,
        ).map((text, i) => ({
          text,
          afterMs: (i * 7 + trial * 3) % 11,
        })),
      };
    });
    const gateway = await Gateway.start({
      upstream: { kind: 'forward', target: { baseUrl: new URL(upstream.url), label: 'up' } },
    });
    try {
      const trials = Array.from({ length: 16 }, (_, i) => i);
      const routes = trials.map(() => gateway.openRoute());
      const texts = await Promise.all(
        trials.map(async (trial) => {
          const route = routes[trial]!;
          const client = new Anthropic({ baseURL: route.baseUrl, apiKey: route.key, maxRetries: 0 });
          const answers = [];
          for (let call = 0; call < 2; call++) {
            const message = await client.messages
              .stream({
                model: 'claude-sonnet-4-5',
                max_tokens: 20,
                messages: [{ role: 'user', content: `trial ${trial}` }],
              })
              .finalMessage();
            answers.push(message.content[0]?.type === 'text' ? message.content[0].text : '');
          }
          return answers;
        }),
      );
      expect(texts).toEqual(trials.map((t) => [`answer ${t}`, `answer ${t}`]));
      for (const trial of trials) {
        const calls = await gateway.closeRoute(routes[trial]!);
        expect(calls.map((c) => [c.seq, c.response_id, c.usage.input_tokens, c.usage.output_tokens])).toEqual(
          [
            [1, `msg_${trial}`, 1000 + trial, 10 + trial],
            [2, `msg_${trial}`, 1000 + trial, 10 + trial],
          ],
        );
      }
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});

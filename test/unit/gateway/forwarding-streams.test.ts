import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../../src/gateway/server.ts';
import { anthropicStream } from './upstream-server.ts';

/**
 * An upstream on 127.0.0.1 that writes the given byte pieces `gapMs` apart (0: all in one tick, so
 * they arrive together with the end), then ends as `finish` says.
 */
async function pieceUpstream(pieces: readonly Buffer[], finish: 'end' | 'destroy', gapMs = 15) {
  const server = createServer((req, res: ServerResponse) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of pieces) {
        res.write(piece);
        if (gapMs > 0) await delay(gapMs);
      }
      if (finish === 'end') res.end();
      else res.socket?.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Cuts `bytes` at each offset: the upstream sends the pieces as separate writes. */
const cutAt = (bytes: Buffer, offsets: number[]) =>
  [0, ...offsets, bytes.length]
    .slice(1)
    .map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end));

async function callThrough(upstreamUrl: string) {
  const gateway = await Gateway.start({
    upstream: { kind: 'forward', target: { baseUrl: new URL(upstreamUrl), label: 'up' } },
    recordBodies: true,
  });
  try {
    const route = gateway.openRoute();
    const response = await fetch(`${route.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': route.key },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', stream: true, messages: [] }),
    });
    const received = Buffer.from(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
    const [call] = await gateway.closeRoute(route);
    return { status: response.status, received, call };
  } finally {
    await gateway.close();
  }
}

describe('the gateway forwarding streams cut at awkward places', () => {
  it('passes and records a stream with CRLF events cut inside multi-byte characters, byte for byte', async () => {
    const wire = anthropicStream('héllo — ✓ 🎉 done', { input: 21, output: 8 })
      .join('')
      .replaceAll('\n', '\r\n');
    const bytes = Buffer.from(wire);
    const emoji = bytes.indexOf(Buffer.from('🎉'));
    const check = bytes.indexOf(Buffer.from('✓'));
    // Inside the 4-byte emoji, inside the 3-byte check mark, and between a CR and its LF.
    const crlf = bytes.indexOf('\r\n\r\n') + 1;
    const upstream = await pieceUpstream(cutAt(bytes, [crlf, check + 1, emoji + 2]), 'end');
    try {
      const { status, received, call } = await callThrough(upstream.url);
      expect(status).toBe(200);
      expect(received.equals(bytes)).toBe(true);
      expect(call).toMatchObject({
        status: 200,
        response_id: 'msg_up',
        usage: { input_tokens: 21, output_tokens: 8 },
        usage_reported: true,
        stop_reason: 'end_turn',
        response_body: wire,
      });
      expect(call?.error).toBeUndefined();
      expect(call?.ttft_seconds).toBeGreaterThan(0);
    } finally {
      await upstream.close();
    }
  });

  it('passes and records a whole answer that arrives in one piece with its end, first output included', async () => {
    const events = anthropicStream('all at once', { input: 9, output: 4 });
    const upstream = await pieceUpstream(
      events.map((e) => Buffer.from(e)),
      'end',
      0,
    );
    try {
      const { status, received, call } = await callThrough(upstream.url);
      expect(status).toBe(200);
      expect(received.toString()).toBe(events.join(''));
      expect(call).toMatchObject({
        status: 200,
        usage: { input_tokens: 9, output_tokens: 4 },
        stop_reason: 'end_turn',
        response_body: events.join(''),
      });
      expect(call?.error).toBeUndefined();
      // The output events came in the last bytes, read after they were sent: the time is when they were.
      expect(call?.ttft_seconds).toBeGreaterThan(0);
      expect(call?.ttft_seconds).toBeLessThanOrEqual(call?.latency_seconds ?? 0);
    } finally {
      await upstream.close();
    }
  });

  it('records a stream the upstream ends inside an event as stream_truncated, with what it saw', async () => {
    const wire = anthropicStream('cut short', { input: 13, output: 6 }).join('');
    const bytes = Buffer.from(wire.slice(0, wire.indexOf('event: message_delta') + 40));
    const upstream = await pieceUpstream(cutAt(bytes, [bytes.length - 20]), 'end');
    try {
      const { status, call } = await callThrough(upstream.url);
      expect(status).toBe(200);
      expect(call).toMatchObject({
        status: 200,
        error: 'stream_truncated: the response stream ended inside an event',
        response_id: 'msg_up',
        usage: { input_tokens: 13, output_tokens: 1 },
      });
      expect(call?.stop_reason).toBeUndefined();
    } finally {
      await upstream.close();
    }
  });

  it('records an upstream connection that breaks mid-event as an error, and keeps serving', async () => {
    const wire = anthropicStream('broken', { input: 3, output: 2 }).join('');
    const bytes = Buffer.from(wire.slice(0, wire.indexOf('content_block_delta') + 30));
    const upstream = await pieceUpstream([bytes], 'destroy');
    try {
      const { call } = await callThrough(upstream.url);
      expect(call?.error).toMatch(/^the upstream stream broke: /);
      expect(call?.usage.input_tokens).toBe(3);
      // The gateway is still up: another call through a new one on the same upstream is recorded.
      const again = await callThrough(upstream.url);
      expect(again.call?.route).toBeDefined();
    } finally {
      await upstream.close();
    }
  });
});

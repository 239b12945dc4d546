import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser, sseJson, sseText } from '../../../src/gateway/sse.ts';

describe('SseParser', () => {
  it('reads named and bare events, multi-line data, comments and CRLF', () => {
    const parser = new SseParser();
    const text = 'event: a\ndata: {"x":1}\n\n: a comment\ndata: line1\r\ndata: line2\r\n\r\ndata:[DONE]\n\n';
    expect(parser.push(text)).toEqual([
      { event: 'a', data: '{"x":1}' },
      { data: 'line1\nline2' },
      { data: '[DONE]' },
    ]);
    expect(sseJson({ data: '[DONE]' })).toBeUndefined();
    expect(sseJson({ data: '{"x":1}' })).toEqual({ x: 1 });
  });

  it('gives the same events however the bytes are split, even inside a UTF-8 character or a CRLF', () => {
    const events = [
      { event: 'message_start', data: JSON.stringify({ text: 'héllo — ✓ 🎉' }) },
      { data: JSON.stringify({ n: 2 }) },
      { event: 'e', data: 'multi\nline' },
    ];
    const bytes = Buffer.from(
      events
        .map((e) => sseText(e.data, e.event))
        .join('')
        .replaceAll('\n', '\r\n'),
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set([0, ...cuts, bytes.length])].sort((a, b) => a - b);
        const parser = new SseParser();
        const got = [];
        for (let i = 1; i < points.length; i++)
          got.push(...parser.push(bytes.subarray(points[i - 1], points[i])));
        got.push(...parser.end());
        expect(got).toEqual(events);
      }),
    );
  });

  it('flushes an event the stream ended without a blank line after', () => {
    const parser = new SseParser();
    expect(parser.push('data: last')).toEqual([]);
    expect(parser.end()).toEqual([{ data: 'last' }]);
  });
});

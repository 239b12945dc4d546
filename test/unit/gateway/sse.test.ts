import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameData, frameName, type SseFrame, SseFramer, sseText } from '../../../src/gateway/sse.ts';

interface Seen {
  event?: string;
  data: string;
  /** The event's bytes as they came, up to the blank line after it. */
  raw: string;
  unterminated?: true;
}

const seen = (frame: SseFrame): Seen => {
  const event = frameName(frame);
  return {
    ...(event === undefined ? {} : { event }),
    data: frameData(frame),
    raw: frame.buf.toString('utf8', frame.start, frame.next),
    ...(frame.unterminated ? { unterminated: true as const } : {}),
  };
};

/** Feeds `bytes` to a framer cut at `cuts`, then ends the stream; the events in order. */
function frames(bytes: Buffer, cuts: readonly number[] = []): Seen[] {
  const points = [...new Set([0, ...cuts, bytes.length])].sort((a, b) => a - b);
  const framer = new SseFramer();
  const out: Seen[] = [];
  for (let i = 1; i < points.length; i++)
    framer.push(bytes.subarray(points[i - 1], points[i]), (f) => out.push(seen(f)));
  framer.end((f) => out.push(seen(f)));
  return out;
}

const cutsOf = (bytes: Buffer) => fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 14 });

describe('SseFramer', () => {
  it('frames named and bare events, multi-line data, comments, CRLF and lone CR', () => {
    const text =
      'event: a\ndata: {"x":1}\n\n: a comment\ndata: line1\r\ndata: line2\r\n\r\ndata:[DONE]\r\rdata\n\n';
    expect(frames(Buffer.from(text)).map(({ raw: _, ...e }) => e)).toEqual([
      { event: 'a', data: '{"x":1}' },
      { data: 'line1\nline2' },
      { data: '[DONE]' },
      { data: '' },
    ]);
  });

  it('gives the same events however the bytes are split: inside a UTF-8 character, a CRLF or a field name', () => {
    const events = [
      { event: 'message_start', data: JSON.stringify({ text: 'héllo — ✓ 🎉' }) },
      { data: JSON.stringify({ n: 2, s: '"quoted" \\ back' }) },
      { event: 'e', data: 'multi\nline ✓' },
    ];
    for (const newline of ['\n', '\r\n', '\r']) {
      const wire = events.map((e) => sseText(e.data, e.event).replaceAll('\n', newline));
      const bytes = Buffer.from(wire.join(''));
      fc.assert(
        fc.property(cutsOf(bytes), (cuts) => {
          expect(frames(bytes, cuts)).toEqual(events.map((e, i) => ({ ...e, raw: wire[i] })));
        }),
      );
    }
  });

  it('carries one large event over many small chunks', () => {
    const big = JSON.stringify({ text: 'ü'.repeat(50_000) });
    const bytes = Buffer.from(`data: ${big}\n\ndata: after\n\n`);
    const cuts = Array.from({ length: Math.floor(bytes.length / 7) }, (_, i) => i * 7 + 3);
    expect(frames(bytes, cuts).map((e) => e.data)).toEqual([big, 'after']);
  });

  it('gives an event the stream ended inside of, marked unterminated, and nothing for a bare comment', () => {
    expect(frames(Buffer.from('data: {"a":1}\n\ndata: {"b":'))).toEqual([
      { data: '{"a":1}', raw: 'data: {"a":1}\n\n' },
      { data: '{"b":', raw: 'data: {"b":', unterminated: true },
    ]);
    expect(frames(Buffer.from('event: message_delta\n'))).toEqual([
      { event: 'message_delta', data: '', raw: 'event: message_delta\n', unterminated: true },
    ]);
    expect(frames(Buffer.from(': keep-alive\n'))).toEqual([]);
    // A stream ending in a lone CR: the CR ends the line.
    expect(frames(Buffer.from('data: x\r'))[0]).toMatchObject({ data: 'x', unterminated: true });
  });

  it('ignores fields it does not read and names that only start like data or event', () => {
    const text = 'id: 7\nretry: 10\ndatum: no\nevents: no\ndata: yes\n\n';
    expect(frames(Buffer.from(text)).map((e) => e.data)).toEqual(['yes']);
  });
});

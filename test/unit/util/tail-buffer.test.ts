import { describe, expect, it } from 'vitest';
import { TailBuffer } from '../../../src/util/tail-buffer.ts';

describe('TailBuffer', () => {
  it('keeps everything below the limit', () => {
    const tail = new TailBuffer(10);
    tail.write('abc');
    tail.write(Buffer.from('def'));
    expect(tail.toString()).toBe('abcdef');
    expect(tail.truncated).toBe(false);
  });

  it('keeps exactly the last N bytes of a long stream', () => {
    const tail = new TailBuffer(5);
    for (let i = 0; i < 1000; i += 1) tail.write(`${i % 10}`);
    tail.write('xyz');
    expect(tail.toString()).toBe('89xyz');
    expect(tail.totalBytes).toBe(1003);
    expect(tail.truncated).toBe(true);
  });

  it('cuts inside one big chunk', () => {
    const tail = new TailBuffer(4);
    tail.write('0123456789');
    expect(tail.toString()).toBe('6789');
  });

  it('refuses a non-positive limit', () => {
    expect(() => new TailBuffer(0)).toThrow(RangeError);
  });
});

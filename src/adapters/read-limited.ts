import type { Readable } from 'node:stream';
import { TailBuffer } from '../util/tail-buffer.ts';

export type LimitedBody =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly receivedBytes: number };

/**
 * Reads a response body, stopping (and destroying the stream) as soon as it passes `maxBytes`,
 * so a runaway server cannot fill the memory of the run.
 */
export async function readLimited(body: Readable, maxBytes: number): Promise<LimitedBody> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    if (received > maxBytes) {
      body.destroy();
      return { ok: false, receivedBytes: received };
    }
    chunks.push(chunk);
  }
  return { ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) };
}

/** The last `maxBytes` of a body (an error page), reading no more than `scanBytes`. */
export async function readTail(body: Readable, maxBytes: number, scanBytes: number): Promise<string> {
  const tail = new TailBuffer(maxBytes);
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    tail.write(chunk);
    received += chunk.byteLength;
    if (received > scanBytes) {
      body.destroy();
      break;
    }
  }
  return tail.toString().trim();
}

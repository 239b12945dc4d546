import { TailBuffer } from '../util/tail-buffer.ts';

export type LimitedBody =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly receivedBytes: number };

/**
 * Reads a response body, stopping (and cancelling the stream) as soon as it passes `maxBytes`,
 * so a runaway server cannot fill the memory of the run.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<LimitedBody> {
  if (body === null) return { ok: true, bytes: Buffer.alloc(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, receivedBytes: received };
    }
    chunks.push(value);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/** The last `maxBytes` of a body (an error page), reading no more than `scanBytes`. */
export async function readTail(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  scanBytes: number,
): Promise<string> {
  if (body === null) return '';
  const tail = new TailBuffer(maxBytes);
  const reader = body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    tail.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    received += value.byteLength;
    if (received > scanBytes) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return tail.toString().trim();
}

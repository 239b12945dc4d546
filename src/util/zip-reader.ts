import { readFile } from 'node:fs/promises';
import * as zlib from 'node:zlib';

/**
 * A small reader for the zip files other tools write (an Inspect `.eval` log is one), with no
 * dependency: the central directory, then each entry stored or deflated (zstd where this Node has
 * it). Zip64 archives (over 4 GiB or 65535 entries) and encrypted entries are refused with a reason.
 */
export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly offset: number;
}

export class ZipError extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function endOfCentralDirectory(data: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535.
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--)
    if (data.readUInt32LE(i) === EOCD) return i;
  throw new ZipError('not a zip file (no end of central directory record)');
}

export class ZipArchive {
  readonly entries: ReadonlyMap<string, ZipEntry>;
  readonly #data: Buffer;

  constructor(data: Buffer) {
    this.#data = data;
    const end = endOfCentralDirectory(data);
    const count = data.readUInt16LE(end + 10);
    const start = data.readUInt32LE(end + 16);
    if (count === 0xffff || start === 0xffffffff) throw new ZipError('zip64 archives are not supported');
    const entries = new Map<string, ZipEntry>();
    let at = start;
    for (let i = 0; i < count; i++) {
      if (at + 46 > data.length || data.readUInt32LE(at) !== CENTRAL)
        throw new ZipError('corrupt central directory');
      const flags = data.readUInt16LE(at + 8);
      const nameLength = data.readUInt16LE(at + 28);
      const extra = data.readUInt16LE(at + 30);
      const comment = data.readUInt16LE(at + 32);
      const name = data.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
      if (flags & 0x1) throw new ZipError(`${name} is encrypted`);
      entries.set(name, {
        name,
        method: data.readUInt16LE(at + 10),
        compressedSize: data.readUInt32LE(at + 20),
        size: data.readUInt32LE(at + 24),
        offset: data.readUInt32LE(at + 42),
      });
      at += 46 + nameLength + extra + comment;
    }
    this.entries = entries;
  }

  static async open(path: string): Promise<ZipArchive> {
    return new ZipArchive(await readFile(path));
  }

  /** The entry's bytes, decompressed. */
  read(name: string): Buffer {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new ZipError(`no ${name} in the archive`);
    const at = entry.offset;
    if (this.#data.readUInt32LE(at) !== LOCAL) throw new ZipError(`${name}: corrupt local header`);
    const begin = at + 30 + this.#data.readUInt16LE(at + 26) + this.#data.readUInt16LE(at + 28);
    const raw = this.#data.subarray(begin, begin + entry.compressedSize);
    switch (entry.method) {
      case 0:
        return Buffer.from(raw);
      case 8:
        return zlib.inflateRawSync(raw);
      case 93: {
        const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
        if (zstd === undefined)
          throw new ZipError(
            `${name} is zstd-compressed, which this Node (${process.version}) cannot read (Node >= 22.15 can)`,
          );
        return zstd(raw);
      }
      default:
        throw new ZipError(
          `${name} uses compression method ${entry.method}; only stored, deflate and zstd are read`,
        );
    }
  }
}

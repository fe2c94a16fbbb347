import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { CallerContext } from '../context/signed-context.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * A file body a service stored as it arrived (a statement file), in place of its bytes: `req.body` of a file route
 * (`RouteContract.file`). Its facts were gathered while it streamed in, so nothing reads it twice to learn them.
 */
export class ReceivedFile {
  readonly id: string;
  readonly bytes: number;
  /** Hex SHA-256 of the bytes: the idempotency fingerprint takes it as the body's. */
  readonly sha256: string;
  /** Whether the bytes are valid UTF-8. */
  readonly utf8: boolean;
  /** Whether they hold a NUL byte (no text file does). */
  readonly binary: boolean;
  /** The first bytes (up to `HEAD_BYTES`), to tell a format by. */
  readonly head: Buffer;
  constructor(file: Pick<ReceivedFile, 'id' | 'bytes' | 'sha256' | 'utf8' | 'binary' | 'head'>) {
    this.id = file.id;
    this.bytes = file.bytes;
    this.sha256 = file.sha256;
    this.utf8 = file.utf8;
    this.binary = file.binary;
    this.head = file.head;
  }
}

export const HEAD_BYTES = 4096;

/** Where a service keeps the files it receives (its own table): written piece by piece, never whole in memory. */
export interface FileStore {
  /** A new, empty file of the context; its id. */
  open(ctx: CallerContext): Promise<string>;
  /** The next piece (numbered from 0). */
  append(id: string, seq: number, bytes: Buffer): Promise<void>;
  /** Every piece is there. */
  close(id: string, file: { bytes: number; sha256: string }): Promise<void>;
  /** Deletes the file unless a write of the request claimed it (it was refused, replayed, or cut). */
  release(id: string): Promise<void>;
}

/** Bytes per stored piece: big enough for few round trips, small enough to hold one per upload in memory. */
export const PIECE_BYTES = 256 * 1024;

/**
 * Whether bytes seen piece by piece are valid UTF-8 and free of NUL bytes (a NUL makes a file binary: no OFX or CSV
 * holds one). A multi-byte character split between two pieces is checked whole.
 */
export class Utf8Check {
  private tail: Uint8Array = new Uint8Array(0);
  private valid = true;
  private nul = false;

  write(bytes: Uint8Array): void {
    if (bytes.includes(0)) this.nul = true;
    if (!this.valid) return;
    const joined = this.tail.length === 0 ? bytes : Buffer.concat([this.tail, bytes]);
    const cut = incompleteTail(joined);
    this.tail = joined.slice(cut);
    if (!isUtf8(joined.subarray(0, cut))) this.valid = false;
  }

  /** The verdict once every piece was written. */
  end(): { utf8: boolean; binary: boolean } {
    return { utf8: this.valid && this.tail.length === 0, binary: this.nul };
  }
}

/** Where a last character the bytes do not finish starts (its lead byte asks for more than follow), else the end. */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

const tooLarge = (limit: number) =>
  new AppError(413, `Arquivo maior que ${limit / (1024 * 1024)} MiB`, { headers: { connection: 'close' } });

/**
 * A file route's body streamed into `store` as it arrives, in pieces of `PIECE_BYTES`, its SHA-256, size and
 * encoding learnt on the way; `req.body` becomes its `ReceivedFile`. Over `limit` bytes is 413 and nothing is kept;
 * a client that leaves mid-file leaves nothing; a file no write of the request claimed is deleted once the answer
 * is sent. Other media types pass untouched (the route's validation refuses them).
 */
export function receiveFile(store: FileStore, mediaTypes: string[], limit: number, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    // req.is: null without a body, false for another media type
    if (!req.is(mediaTypes)) {
      next();
      return;
    }
    const opened = store.open(res.locals.context as CallerContext);
    // the answer's end (or the client's) releases the file, even one that ends before it was opened
    res.on('close', () => {
      opened
        .then((id) => store.release(id))
        .catch((err) => logger.warn({ err: err.message, reqId: req.id }, 'received file not released'));
    });
    const id = await opened;
    const hash = createHash('sha256');
    const check = new Utf8Check();
    const head: Buffer[] = [];
    let headBytes = 0;
    let bytes = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // one piece is written while the next arrives
    let writing: Promise<void> = Promise.resolve();
    const flush = async () => {
      await writing;
      if (pendingBytes === 0) return;
      const piece = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      writing = store.append(id, seq++, piece);
      // awaited by the next flush; a failure left behind by a refusal is the release's to clean up
      writing.catch(() => undefined);
    };
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > limit) throw tooLarge(limit);
        hash.update(chunk);
        check.write(chunk);
        if (headBytes < HEAD_BYTES) {
          head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
          headBytes += Math.min(chunk.length, HEAD_BYTES - headBytes);
        }
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= PIECE_BYTES) await flush();
      }
      await flush();
      await writing;
    } catch (err) {
      // a client gone mid-file gets no answer; what it sent goes with the release
      if (req.destroyed && !(err instanceof AppError)) return;
      next(err);
      return;
    }
    const sha256 = hash.digest('hex');
    await store.close(id, { bytes, sha256 });
    req.body = new ReceivedFile({ id, bytes, sha256, ...check.end(), head: Buffer.concat(head) });
    next();
  };
}

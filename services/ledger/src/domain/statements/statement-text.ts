import { TextDecoder } from 'node:util';

/** A statement file the client must fix: 400 naming the line (1-based) when there is one; nothing is written. */
export class StatementRejected extends Error {
  readonly line: number | null;
  /** The reason alone, without the line (the `details` of a 400). */
  readonly reason: string;
  constructor(message: string, line: number | null = null) {
    super(line === null ? message : `linha ${line}: ${message}`);
    this.name = 'StatementRejected';
    this.line = line;
    this.reason = message;
  }
}

/** The longest piece of a refused value an error quotes: a 1 MiB date is named, not echoed. */
const QUOTE_MAX = 40;

/** A value as an error quotes it: `'…'`, cut to 40 characters (and `…`) so an answer stays small. */
export const quoted = (value: string): string =>
  `'${value.length > QUOTE_MAX ? `${value.slice(0, QUOTE_MAX)}…` : value}'`;

/** The text encodings a statement file is read in (told by its bytes while it was received: `ReceivedFile.utf8`). */
export type StatementEncoding = 'utf-8' | 'windows-1252';

/**
 * A file's text, piece by piece: UTF-8 when its bytes are valid UTF-8, else Windows-1252, the superset of
 * ISO-8859-1 that `CHARSET:1252` and Brazilian banks' Latin-1 exports use (a BOM dropped). The bytes decide, not
 * the declared charset: banks declare 1252 on UTF-8 files and the other way round, and Latin-1 text with accents
 * is never valid UTF-8.
 */
export class StatementDecoder {
  private readonly decoder: TextDecoder;
  private first = true;
  constructor(encoding: StatementEncoding) {
    this.decoder = new TextDecoder(encoding);
  }

  /** The text of the next bytes (a character split across two pieces comes whole with the second). */
  decode(bytes: Uint8Array): string {
    const text = this.decoder.decode(bytes, { stream: true });
    if (!this.first || text === '') return text;
    this.first = false;
    return text.replace(/^\uFEFF/, '');
  }

  end(): string {
    return this.decoder.decode();
  }
}

/** Lower case, no accents, blanks collapsed: how column names and descriptions are compared. */
export const normalizedText = (value: string) =>
  value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

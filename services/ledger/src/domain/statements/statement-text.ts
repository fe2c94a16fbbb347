/** A statement file the client must fix: 400 naming the line (1-based) when there is one; nothing is written. */
export class StatementRejected extends Error {
  readonly line: number | null;
  constructor(message: string, line: number | null = null) {
    super(line === null ? message : `linha ${line}: ${message}`);
    this.name = 'StatementRejected';
    this.line = line;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('windows-1252');

/**
 * A file's text: UTF-8 when its bytes are valid UTF-8 (a BOM dropped), else Windows-1252, the superset of
 * ISO-8859-1 that `CHARSET:1252` and Brazilian banks' Latin-1 exports use. The bytes decide, not the declared
 * charset: banks declare 1252 on UTF-8 files and the other way round, and Latin-1 text with accents is never
 * valid UTF-8.
 */
export function decodeStatement(bytes: Uint8Array): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = latin1.decode(bytes);
  }
  if (text.includes('\u0000')) throw new StatementRejected('o arquivo é binário, não um extrato OFX ou CSV');
  return text.replace(/^\uFEFF/, '');
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Lower case, no accents, blanks collapsed: how column names and descriptions are compared. */
export const normalizedText = (value: string) =>
  value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

import { type CalendarDate, parseCalendarDate } from '@finance/shared/calendar';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseAmount } from './money-text.ts';
import { lineAt, StatementRejected } from './statement-text.ts';

/** One `<STMTTRN>` of an OFX statement, as the file writes it. */
export interface OfxTransaction {
  line: number;
  type: string;
  /** The posting instant's calendar day: as written, or in `timeZone` when the file gives an offset. */
  date: CalendarDate;
  /** Signed cents: negative is money out of the account (or a charge on the card). */
  cents: number;
  negative: boolean;
  fitId: string | null;
  name: string;
  memo: string;
  checkNumber: string | null;
  /** A purchase in another currency (`<ORIGCURRENCY>`): its amount there and its ISO 4217 code. */
  original: { amount: string; currency: string } | null;
}

export interface OfxStatement {
  kind: 'bank' | 'card';
  currency: string | null;
  account: string | null;
  /** `<LEDGERBAL>`: the balance the bank states at a day. */
  ledgerBalance: { cents: number; date: CalendarDate; line: number } | null;
  transactions: OfxTransaction[];
}

type Node = Record<string, unknown>;

// a tag as OFX writes it: SGML names are letters, digits, dots and underscores
const TAG = /<(\/?)([A-Za-z0-9_.]{1,64})>/y;
// what XML may hold as entities once no DTD can define any: the predefined ones and character references
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/y;

/**
 * Files from outside are hostile (docs/decisions.md §9): a DTD, an entity declaration, any other markup
 * declaration or a processing instruction other than the XML and OFX headers is refused before any parser
 * sees the file, so no entity can be defined, expanded or fetched.
 */
function refuseDeclarations(text: string): void {
  const declaration = /<!(?!--)|<\?(?!xml[\s?]|OFX[\s?])/gi.exec(text);
  if (declaration) {
    throw new StatementRejected(
      'o arquivo traz uma declaração de DTD, entidade ou instrução de processamento, recusada por segurança',
      lineAt(text, declaration.index),
    );
  }
}

const escapeText = (text: string) => {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '&') {
      ENTITY.lastIndex = i;
      out += ENTITY.test(text) ? '&' : '&amp;';
    } else if (char === '<') out += '&lt;';
    else if (char === '>') out += '&gt;';
    else out += char;
  }
  return out;
};

/** Where the next tag starts at or after `from` (a `<` that starts no tag is text), else the end. */
function nextTag(body: string, from: number): number {
  for (let at = body.indexOf('<', from); at !== -1; at = body.indexOf('<', at + 1)) {
    TAG.lastIndex = at;
    if (TAG.test(body)) return at;
  }
  return body.length;
}

/**
 * OFX 1.x is SGML: aggregates are closed (`</STMTTRN>`) but elements are not (`<TRNAMT>-10,00`). Each element is
 * closed right after its value, so the XML parser's line numbers are the file's; an element with no value is an
 * aggregate when the file closes that name somewhere, else an empty element; text that is not a tag (`M&M`, `<3`)
 * is escaped. One pass, no backtracking.
 */
export function sgmlToXml(body: string): string {
  const closed = new Set(Array.from(body.matchAll(/<\/([A-Za-z0-9_.]{1,64})>/g), (match) => match[1]));
  let out = '';
  let i = 0;
  while (i < body.length) {
    const at = nextTag(body, i);
    out += escapeText(body.slice(i, at));
    if (at === body.length) break;
    TAG.lastIndex = at;
    const [whole, closing, name] = TAG.exec(body) as RegExpExecArray;
    i = at + whole.length;
    out += whole;
    if (closing) continue;
    const end = nextTag(body, i);
    const value = body.slice(i, end);
    const trimmed = value.trimEnd();
    const closeTag = `</${name}>`;
    const closedHere = body.startsWith(closeTag, end);
    if (trimmed.trim() === '') {
      // an aggregate's children follow; an empty element gets its closing tag
      if (!closed.has(name)) out += closeTag;
      continue;
    }
    out += `${escapeText(trimmed)}${closeTag}${value.slice(trimmed.length)}`;
    i = closedHere ? end + closeTag.length : end;
  }
  return out;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => ['STMTTRN', 'STMTTRNRS', 'CCSTMTTRNRS'].includes(name),
});

const text = (node: Node | undefined, name: string): string => {
  const value = node?.[name];
  return typeof value === 'string' ? value.trim() : '';
};

const OFX_DATE =
  /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(?:(\d{2})(?:\.\d{1,3})?)?)?(?:\s*\[\s*([+-]?\d{1,2}(?:[.:]\d{1,2})?)(?::[A-Za-z]{1,8})?\s*\])?$/;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD` of an instant in a zone; one formatter per zone (building one costs more than a statement line). */
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/**
 * An OFX date (`20240105`, `20240105120000`, `20240105120000.000[-3:BRT]`) as a calendar day: with an offset in
 * brackets the instant's day in `timeZone` (the context's), else the day as written. Null when invalid.
 */
export function ofxDay(value: string, timeZone: string): CalendarDate | null {
  const match = OFX_DATE.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', offset] = match;
  const written = parseCalendarDate(`${year}-${month}-${day}`);
  if (!written || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (offset === undefined) return written;
  const [hours, fraction = '0'] = offset.replace('+', '').split(/[.:]/);
  const sign = hours.startsWith('-') ? -1 : 1;
  const minutes =
    Number(hours) * 60 +
    sign * (fraction.length === 2 && offset.includes(':') ? Number(fraction) : Number(`0.${fraction}`) * 60);
  if (Math.abs(minutes) > 14 * 60) return null;
  const instant =
    Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) -
    minutes * 60_000;
  return dayFormat(timeZone).format(instant);
}

/** The lines of each `<STMTTRN>` in document order (the parser keeps that order). */
function transactionLines(text: string, offsetLines: number): number[] {
  const lines: number[] = [];
  const pattern = /<STMTTRN>/gi;
  let line = 1;
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    for (let i = text.indexOf('\n', last); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) line++;
    last = match.index;
    lines.push(line + offsetLines);
  }
  return lines;
}

function statementOf(ofx: Node): { kind: 'bank' | 'card'; statement: Node } {
  const bank = ((ofx.BANKMSGSRSV1 as Node | undefined)?.STMTTRNRS as Node[] | undefined) ?? [];
  const card = ((ofx.CREDITCARDMSGSRSV1 as Node | undefined)?.CCSTMTTRNRS as Node[] | undefined) ?? [];
  const statements = [
    ...bank.map((rs) => ({ kind: 'bank' as const, statement: rs.STMTRS as Node })),
    ...card.map((rs) => ({ kind: 'card' as const, statement: rs.CCSTMTRS as Node })),
  ].filter((found) => found.statement && typeof found.statement === 'object');
  if (statements.length === 0) {
    throw new StatementRejected('o arquivo OFX não traz extrato de conta (STMTRS) nem de cartão (CCSTMTRS)');
  }
  if (statements.length > 1) {
    throw new StatementRejected(
      `o arquivo OFX traz ${statements.length} extratos; envie um arquivo por conta ou cartão`,
    );
  }
  return statements[0];
}

/**
 * An OFX statement, 1.0.2 (SGML) or 2.x (XML), bank or credit card: the header says which; the SGML body becomes
 * XML (`sgmlToXml`) and fast-xml-parser checks and reads it, so an error names the file's line. Dates in brackets
 * carry time zones; amounts may use a decimal comma.
 */
export function parseOfx(file: string, timeZone: string): OfxStatement {
  refuseDeclarations(file);
  const start = file.search(/<OFX>/i);
  if (start === -1) throw new StatementRejected('não é um arquivo OFX: falta o elemento <OFX>');
  const head = file.slice(0, start);
  const offsetLines = lineAt(file, start) - 1;
  const isXml = /<\?xml/i.test(head) || /<\?OFX/i.test(head);
  if (!isXml && !/OFXHEADER\s*:/i.test(head)) {
    throw new StatementRejected('não é um arquivo OFX: falta o cabeçalho OFXHEADER', 1);
  }
  const body = file.slice(start).replace(/<OFX>/i, '<OFX>');
  const xml = isXml ? body : sgmlToXml(body);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new StatementRejected(`OFX malformado: ${valid.err.msg}`, valid.err.line + offsetLines);
  }
  const ofx = (parser.parse(xml) as Node).OFX as Node | undefined;
  if (!ofx || typeof ofx !== 'object') throw new StatementRejected('o arquivo OFX está vazio');
  const { kind, statement } = statementOf(ofx);
  const list = ((statement.BANKTRANLIST as Node | undefined)?.STMTTRN as Node[] | undefined) ?? [];
  const lines = transactionLines(xml, offsetLines);
  const transactions = list.map((trn, index) => transactionOf(trn, lines[index] ?? null, timeZone));
  const balance = statement.LEDGERBAL as Node | undefined;
  let ledgerBalance: OfxStatement['ledgerBalance'] = null;
  if (balance && text(balance, 'BALAMT')) {
    const line = lineAt(file, file.search(/<LEDGERBAL>/i));
    const amount = parseAmount(text(balance, 'BALAMT'));
    const date = ofxDay(text(balance, 'DTASOF'), timeZone);
    if (!amount) throw new StatementRejected(`saldo LEDGERBAL inválido: '${text(balance, 'BALAMT')}'`, line);
    if (date) ledgerBalance = { cents: amount.negative ? -amount.cents : amount.cents, date, line };
  }
  const account = (statement.BANKACCTFROM ?? statement.CCACCTFROM) as Node | undefined;
  return {
    kind,
    currency: text(statement, 'CURDEF') || null,
    account: text(account, 'ACCTID') || null,
    ledgerBalance,
    transactions,
  };
}

function transactionOf(trn: Node, line: number | null, timeZone: string): OfxTransaction {
  const at = line ?? null;
  const posted = text(trn, 'DTPOSTED');
  const date = ofxDay(posted, timeZone);
  if (!date) throw new StatementRejected(`DTPOSTED inválido: '${posted}'`, at);
  const amountText = text(trn, 'TRNAMT');
  const amount = parseAmount(amountText);
  if (!amount) throw new StatementRejected(`TRNAMT inválido: '${amountText}'`, at);
  const origin = trn.ORIGCURRENCY as Node | undefined;
  const rate = text(origin, 'CURRATE');
  const currency = text(origin, 'CURSYM').toUpperCase();
  let original: OfxTransaction['original'] = null;
  if (rate && currency && currency !== 'BRL') {
    original = { amount: foreignAmount(amount.cents, rate), currency };
  }
  return {
    line: line ?? 0,
    type: text(trn, 'TRNTYPE').toUpperCase(),
    date,
    cents: amount.negative ? -amount.cents : amount.cents,
    negative: amount.negative,
    fitId: text(trn, 'FITID') || null,
    name: text(trn, 'NAME'),
    memo: text(trn, 'MEMO'),
    checkNumber: text(trn, 'CHECKNUM') || null,
    original,
  };
}

/**
 * OFX writes a foreign purchase as its amount in the statement's currency and `CURRATE`, the rate that turned the
 * original amount into it: the original amount is the BRL cents divided by the rate, to the cent (decimal text,
 * computed on integers).
 */
function foreignAmount(cents: number, rate: string): string {
  const parsed = /^(\d+)(?:[.,](\d{1,8}))?$/.exec(rate.trim());
  if (!parsed || Number(rate.replace(',', '.')) === 0) return (cents / 100).toFixed(2);
  const scale = 10n ** BigInt(parsed[2]?.length ?? 0);
  const rateUnits = BigInt(parsed[1] + (parsed[2] ?? ''));
  // cents / (rate) = cents * scale / rateUnits, rounded half up
  const value = (BigInt(cents) * scale * 2n + rateUnits) / (2n * rateUnits);
  return `${value / 100n}.${String(value % 100n).padStart(2, '0')}`;
}

import { type CalendarDate, parseCalendarDate } from '@finance/shared/calendar';
import { parseAmount } from './money-text.ts';
import { quoted, StatementRejected } from './statement-text.ts';

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

/** What an OFX file says besides its transactions, known once it was read to its end. */
export interface OfxStatement {
  kind: 'bank' | 'card';
  currency: string | null;
  account: string | null;
  /** `<LEDGERBAL>`: the balance the bank states at a day. */
  ledgerBalance: { cents: number; date: CalendarDate; line: number } | null;
}

/** Elements nested deeper than this refuse the file (a bank's statement nests six). */
export const OFX_MAX_DEPTH = 100;
/** The longest run of text between two tags (a value, or the blanks between elements), in characters. */
export const OFX_MAX_TEXT = 32 * 1024;
/** The longest header before `<OFX>`. */
const HEAD_MAX = 64 * 1024;

// a tag as OFX writes it: SGML names are letters, digits, dots and underscores (an XML empty element ends in `/>`)
const TAG = /<(\/?)([A-Za-z0-9_.]{1,64})(\/?)>/y;
/** The most characters a tag spans: `</` or `<`, 64 of name, `/>` or `>`. */
const TAG_SPAN = 68;
// the processing instructions OFX files carry: the XML and OFX 2.x headers
const HEADER_PI = /<\?(?:xml|OFX)[\s?]/iy;
// what a file may hold as entities once no DTD can define any: the predefined ones and character references
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const NAMED = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** The aggregates data is read from: each must be closed (one left open is a broken file, not an empty element). */
const AGGREGATES = new Set([
  'OFX',
  'BANKMSGSRSV1',
  'STMTTRNRS',
  'STMTRS',
  'CREDITCARDMSGSRSV1',
  'CCSTMTTRNRS',
  'CCSTMTRS',
  'BANKACCTFROM',
  'CCACCTFROM',
  'BANKTRANLIST',
  'STMTTRN',
  'LEDGERBAL',
  'ORIGCURRENCY',
]);
/** The elements whose values are read (the first of each in its aggregate). */
const LEAVES = new Set([
  'TRNTYPE',
  'DTPOSTED',
  'TRNAMT',
  'FITID',
  'NAME',
  'MEMO',
  'CHECKNUM',
  'CURRATE',
  'CURSYM',
  'BALAMT',
  'DTASOF',
  'CURDEF',
  'ACCTID',
]);
/** A statement's aggregate and the ones it must sit in, nearest first (a Map: a file names elements `constructor`). */
const STATEMENTS = new Map<string, { kind: 'bank' | 'card'; within: string }>([
  ['STMTRS', { kind: 'bank', within: 'STMTTRNRS,BANKMSGSRSV1,OFX' }],
  ['CCSTMTRS', { kind: 'card', within: 'CCSTMTTRNRS,CREDITCARDMSGSRSV1,OFX' }],
]);

/** An open element with no value of its own: an aggregate, or an SGML empty element (its parent closes first). */
interface Frame {
  name: string;
  line: number;
  known: boolean;
  leaves: Map<string, string>;
  /** A statement's aggregate, in place. */
  statement?: 'bank' | 'card';
  origin?: { rate: string; currency: string };
}

const decodeEntities = (value: string) =>
  value.includes('&')
    ? value.replace(ENTITY, (whole, name: string | undefined, decimal: string | undefined, hex: string | undefined) => {
        if (name) return NAMED.get(name) as string;
        const code = decimal ? Number(decimal) : Number.parseInt(hex as string, 16);
        return code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || code === 0 ? whole : String.fromCodePoint(code);
      })
    : value;

const countLines = (text: string) => {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
};

const securityRefusal = (line: number) =>
  new StatementRejected(
    'o arquivo traz uma declaração de DTD, entidade ou instrução de processamento, recusada por segurança',
    line,
  );

/**
 * An OFX statement read as its text arrives, 1.0.2 (SGML) or 2.x (XML), bank or credit card, as mainstream OFX
 * readers (SGML parsers with the OFX DTD) read it: a value ends at the next tag; a closing tag right after a value
 * closes it, whatever its name, when no open element has that name (`<DTUSER>…</DTPOSTED>`); an element without
 * a value is an aggregate when the file closes it, an empty element when its parent closes first. The aggregates data is read
 * from must be closed, and a closing tag that closes nothing is refused, naming the line. Any `<!` declaration
 * but a comment, or a `<?` other than the XML and OFX headers, is refused (no entity is ever defined or fetched).
 * Work is linear and bounded: no text run over `OFX_MAX_TEXT` characters, no nesting over `OFX_MAX_DEPTH`.
 */
export class OfxReader {
  private readonly timeZone: string;
  private phase: 'head' | 'body' | 'trailer' = 'head';
  private head = '';
  private buffer = '';
  /** The line of `buffer`'s first character (1-based). */
  private line = 1;
  private run = '';
  private runLine = 1;
  /** A start tag whose value (or children) comes next. */
  private pending: { name: string; line: number } | null = null;
  /** The element whose value was just read: a closing tag may close it under another name. */
  private afterValue: string | null = null;
  private readonly stack: Frame[] = [];
  private elements = 0;
  private statements = 0;
  private readonly found: OfxStatement = { kind: 'bank', currency: null, account: null, ledgerBalance: null };
  private transactions: OfxTransaction[] = [];

  constructor(timeZone: string) {
    this.timeZone = timeZone;
  }

  /** Lines read so far. */
  get lines(): number {
    return this.line;
  }

  /** Reads the next piece of the file's text; returns the transactions it completed, in file order. */
  write(text: string): OfxTransaction[] {
    if (this.phase === 'head') {
      this.head += text;
      const start = this.head.search(/<OFX>/i);
      if (start === -1) {
        if (this.head.length > HEAD_MAX) this.refuseHead(this.head);
        return [];
      }
      this.openBody(start);
    } else this.buffer += text;
    this.pump(false);
    return this.take();
  }

  /** The end of the file: the transactions still pending and what the statement says. */
  end(): { transactions: OfxTransaction[]; statement: OfxStatement } {
    if (this.phase === 'head') this.refuseHead(this.head);
    this.pump(true);
    if (this.phase === 'body') {
      this.tag(false, '', false, true);
      const open = this.stack.find((frame) => frame.known) ?? this.stack[0];
      throw new StatementRejected(
        `OFX malformado: o arquivo termina com <${open.name}> (linha ${open.line}) aberto`,
        this.line,
      );
    }
    if (this.statements === 0) {
      throw new StatementRejected(
        this.elements === 0
          ? 'o arquivo OFX está vazio'
          : 'o arquivo OFX não traz extrato de conta (STMTRS) nem de cartão (CCSTMTRS)',
      );
    }
    if (this.statements > 1) {
      throw new StatementRejected(
        `o arquivo OFX traz ${this.statements} extratos; envie um arquivo por conta ou cartão`,
      );
    }
    return { transactions: this.take(), statement: this.found };
  }

  private take(): OfxTransaction[] {
    const done = this.transactions;
    this.transactions = [];
    return done;
  }

  /** A header without `<OFX>` (or too long to be one): its declarations first, then what it lacks. */
  private refuseHead(head: string): never {
    this.refuseDeclarations(head, 1);
    throw new StatementRejected('não é um arquivo OFX: falta o elemento <OFX>');
  }

  private refuseDeclarations(text: string, firstLine: number): void {
    const declaration = /<!(?!--)|<\?(?!xml[\s?]|OFX[\s?])/gi.exec(text);
    if (declaration) throw securityRefusal(firstLine + countLines(text.slice(0, declaration.index)));
  }

  private openBody(start: number): void {
    const head = this.head.slice(0, start);
    this.refuseDeclarations(head, 1);
    if (!/<\?xml/i.test(head) && !/<\?OFX/i.test(head) && !/OFXHEADER\s*:/i.test(head)) {
      throw new StatementRejected('não é um arquivo OFX: falta o cabeçalho OFXHEADER', 1);
    }
    this.line = 1 + countLines(head);
    this.buffer = this.head.slice(start + '<OFX>'.length);
    this.head = '';
    this.phase = 'body';
    this.pending = { name: 'OFX', line: this.line };
    this.runLine = this.line;
  }

  /** Reads what `buffer` holds, leaving a tag it cannot tell yet for the next piece (all of it once `final`). */
  private pump(final: boolean): void {
    let at = 0;
    const buffer = this.buffer;
    while (at < buffer.length) {
      const lt = buffer.indexOf('<', at);
      const textEnd = lt === -1 ? buffer.length : lt;
      if (textEnd > at) this.text(buffer.slice(at, textEnd));
      at = textEnd;
      if (lt === -1) break;
      const next = this.markup(buffer, lt, final);
      if (next === -1) break;
      at = next;
    }
    this.buffer = buffer.slice(at);
  }

  private text(piece: string): void {
    if (this.phase === 'trailer') {
      this.line += countLines(piece);
      return;
    }
    if (this.run === '') this.runLine = this.line;
    if (this.run.length + piece.length > OFX_MAX_TEXT) {
      throw new StatementRejected(
        `texto de mais de ${OFX_MAX_TEXT} caracteres entre duas marcações (<...>); um valor de OFX é curto`,
        this.runLine,
      );
    }
    this.run += piece;
    this.line += countLines(piece);
  }

  /** The markup at `lt`: its end, or -1 when the buffer ends before it can be told (more text is coming). */
  private markup(buffer: string, lt: number, final: boolean): number {
    const rest = buffer.length - lt;
    if (!final && rest < TAG_SPAN && buffer.indexOf('>', lt) === -1) return -1;
    if (buffer.startsWith('<!--', lt)) return this.skipTo(buffer, lt, '-->', final);
    if (buffer[lt + 1] === '!') throw securityRefusal(this.line);
    if (buffer[lt + 1] === '?') {
      HEADER_PI.lastIndex = lt;
      if (!HEADER_PI.test(buffer)) throw securityRefusal(this.line);
      return this.skipTo(buffer, lt, '?>', final);
    }
    TAG.lastIndex = lt;
    const tag = TAG.exec(buffer);
    if (!tag) {
      // a `<` that starts no tag is text (`<3`, `M<B`)
      this.text('<');
      return lt + 1;
    }
    if (this.phase === 'body') this.tag(tag[1] === '/', tag[2], tag[3] === '/', false);
    return lt + tag[0].length;
  }

  /** Past a comment or a header instruction (whose text counts as no value). */
  private skipTo(buffer: string, lt: number, close: string, final: boolean): number {
    const end = buffer.indexOf(close, lt + 2);
    if (end === -1) {
      if (buffer.length - lt > OFX_MAX_TEXT) {
        throw new StatementRejected(`comentário ou instrução de mais de ${OFX_MAX_TEXT} caracteres`, this.line);
      }
      if (!final) return -1;
      throw new StatementRejected('OFX malformado: comentário ou instrução sem fim', this.line);
    }
    this.line += countLines(buffer.slice(lt, end));
    return end + close.length;
  }

  /** A tag in the body; `atEnd` settles the element still pending when the file ends. */
  private tag(closing: boolean, name: string, empty: boolean, atEnd: boolean): void {
    const value = this.run.trim();
    this.run = '';
    const pending = this.pending;
    this.pending = null;
    if (pending && value !== '') this.value(pending, value);
    else if (pending) this.push(pending);
    if (atEnd) return;
    if (empty) {
      this.afterValue = null;
      this.elements++;
    } else if (!closing) {
      this.afterValue = null;
      this.elements++;
      this.pending = { name, line: this.line };
    } else this.close(name);
  }

  private value(element: { name: string; line: number }, value: string): void {
    if (AGGREGATES.has(element.name)) {
      throw new StatementRejected(
        `OFX malformado: <${element.name}> traz texto, mas deve conter elementos`,
        element.line,
      );
    }
    const top = this.stack[this.stack.length - 1];
    if (LEAVES.has(element.name) && !top.leaves.has(element.name)) {
      top.leaves.set(element.name, decodeEntities(value));
    }
    this.afterValue = element.name;
  }

  private push(element: { name: string; line: number }): void {
    if (this.stack.length >= OFX_MAX_DEPTH) {
      throw new StatementRejected(`OFX malformado: mais de ${OFX_MAX_DEPTH} elementos aninhados`, element.line);
    }
    const frame: Frame = { ...element, known: AGGREGATES.has(element.name), leaves: new Map() };
    const statement = STATEMENTS.get(element.name);
    if (statement && this.knownAncestors(this.stack.length, 3).join() === statement.within) {
      frame.statement = statement.kind;
      if (this.statements === 0) this.found.kind = statement.kind;
      this.statements++;
    }
    this.stack.push(frame);
  }

  /** The names of the `count` nearest aggregates read from below `index` (empty elements in between ignored). */
  private knownAncestors(index: number, count: number): string[] {
    const names: string[] = [];
    for (let i = index - 1; i >= 0 && names.length < count; i--) {
      if (this.stack[i].known) names.push(this.stack[i].name);
    }
    return names;
  }

  /** The nearest aggregate read from below `index`, or undefined. */
  private knownBelow(index: number): Frame | undefined {
    for (let i = index - 1; i >= 0; i--) if (this.stack[i].known) return this.stack[i];
    return undefined;
  }

  private close(name: string): void {
    const afterValue = this.afterValue;
    this.afterValue = null;
    let index = this.stack.length - 1;
    while (index >= 0 && this.stack[index].name !== name) index--;
    // the value just read ends here, its own closing tag or one under another name (no open element has it)
    if (afterValue !== null && (name === afterValue || index === -1)) return;
    if (index === -1)
      throw new StatementRejected(`OFX malformado: </${name}> fecha um elemento que não está aberto`, this.line);
    while (this.stack.length - 1 > index) {
      const inner = this.stack.pop() as Frame;
      if (inner.known) {
        throw new StatementRejected(
          `OFX malformado: <${inner.name}> da linha ${inner.line} não foi fechado`,
          this.line,
        );
      }
      // an SGML empty element: what followed it belongs to its parent
      const parent = this.stack[this.stack.length - 1];
      for (const [leaf, value] of inner.leaves) if (!parent.leaves.has(leaf)) parent.leaves.set(leaf, value);
    }
    const frame = this.stack.pop() as Frame;
    this.closed(frame);
    if (this.stack.length === 0) this.phase = 'trailer';
  }

  private closed(frame: Frame): void {
    const index = this.stack.length;
    const parent = this.knownBelow(index);
    const leaf = (name: string) => frame.leaves.get(name) ?? '';
    if (frame.name === 'STMTTRN' && parent?.name === 'BANKTRANLIST') {
      if (this.knownBelow(this.stack.indexOf(parent))?.statement) this.transactions.push(this.transaction(frame));
    } else if (frame.name === 'ORIGCURRENCY' && parent?.name === 'STMTTRN') {
      parent.origin ??= { rate: leaf('CURRATE'), currency: leaf('CURSYM') };
    } else if (frame.name === 'LEDGERBAL' && parent?.statement) {
      this.ledgerBalance(frame);
    } else if ((frame.name === 'BANKACCTFROM' || frame.name === 'CCACCTFROM') && parent?.statement) {
      this.found.account ??= leaf('ACCTID') || null;
    } else if (frame.statement) {
      this.found.currency ??= leaf('CURDEF') || null;
    }
  }

  private ledgerBalance(frame: Frame): void {
    const amountText = frame.leaves.get('BALAMT') ?? '';
    if (!amountText || this.found.ledgerBalance) return;
    const amount = parseAmount(amountText);
    if (!amount) throw new StatementRejected(`saldo LEDGERBAL inválido: ${quoted(amountText)}`, frame.line);
    const date = ofxDay(frame.leaves.get('DTASOF') ?? '', this.timeZone);
    if (date)
      this.found.ledgerBalance = { cents: amount.negative ? -amount.cents : amount.cents, date, line: frame.line };
  }

  private transaction(frame: Frame): OfxTransaction {
    const leaf = (name: string) => frame.leaves.get(name) ?? '';
    const posted = leaf('DTPOSTED');
    const date = ofxDay(posted, this.timeZone);
    if (!date) throw new StatementRejected(`DTPOSTED inválido: ${quoted(posted)}`, frame.line);
    const amountText = leaf('TRNAMT');
    const amount = parseAmount(amountText);
    if (!amount) throw new StatementRejected(`TRNAMT inválido: ${quoted(amountText)}`, frame.line);
    const rate = frame.origin?.rate ?? '';
    const currency = (frame.origin?.currency ?? '').toUpperCase();
    return {
      line: frame.line,
      type: leaf('TRNTYPE').toUpperCase(),
      date,
      cents: amount.negative ? -amount.cents : amount.cents,
      negative: amount.negative,
      fitId: leaf('FITID') || null,
      name: leaf('NAME'),
      memo: leaf('MEMO'),
      checkNumber: leaf('CHECKNUM') || null,
      original: rate && currency && currency !== 'BRL' ? { amount: foreignAmount(amount.cents, rate), currency } : null,
    };
  }
}

const OFX_DATE =
  /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(?:(\d{2})(?:\.\d{1,3})?)?)?(?:\s*\[\s*([+-]?\d{1,2}(?:[.:]\d{1,2})?)(?::[A-Za-z]{1,8})?\s*\])?$/;

const dayFormats = new Map<string, { format: Intl.DateTimeFormat; days: Map<number, string> }>();
const QUARTER_HOUR = 15 * 60_000;

/**
 * `YYYY-MM-DD` of an instant in a zone: one formatter per zone (building one costs more than a statement line), and
 * each quarter of an hour formatted once (every zone's offset is a whole number of them, so its day changes only
 * between two; formatting is most of what reading an OFX line costs).
 */
function dayIn(timeZone: string, instant: number): string {
  let zone = dayFormats.get(timeZone);
  if (!zone) {
    const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    zone = { format, days: new Map() };
    dayFormats.set(timeZone, zone);
  }
  const quarter = Math.floor(instant / QUARTER_HOUR);
  let day = zone.days.get(quarter);
  if (day === undefined) {
    day = zone.format.format(instant);
    if (zone.days.size >= 100_000) zone.days.clear();
    zone.days.set(quarter, day);
  }
  return day;
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
  return dayIn(timeZone, instant);
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

import { type CalendarDate, parseCalendarDate } from '@finance/shared/calendar';
import Papa from 'papaparse';
import type { CsvLayout, DateOrder } from './csv-presets.ts';
import { parseAmount } from './money-text.ts';
import { normalizedText, quoted, StatementRejected } from './statement-text.ts';

/** One row of a CSV statement that is an entry. */
export interface CsvTransaction {
  line: number;
  date: CalendarDate;
  /** Signed cents: negative is money out (or a charge on a card). */
  cents: number;
  description: string;
  id: string | null;
  installment: { number: number; total: number } | null;
  /** An international purchase's amount in US dollars, decimal text. */
  usd: string | null;
}

/** What a CSV row is: an entry, or a line left out with why. */
export type CsvRow = { entry: CsvTransaction } | { skipped: { line: number; reason: string } };

/** The longest line (characters) and the most columns of a row: a bank's export has a few hundred and a dozen. */
export const CSV_MAX_LINE = 32 * 1024;
export const CSV_MAX_COLUMNS = 200;
const HEADER_SEARCH_ROWS = 40;

/** Cents as decimal text, on integers (`123` → `1.23`). */
const decimalOf = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const BALANCE_ROW = /^(saldo|s a l d o|total)\b/;

/** The most frequent of the usual delimiters in the first 20 lines. */
function delimiterOf(text: string): string {
  const sample = text
    .slice(0, 64 * 1024)
    .split(/\r?\n/, 20)
    .join('\n');
  const counts = [';', ',', '\t', '|'].map((d) => [d, sample.split(d).length] as const);
  return counts.sort((a, b) => b[1] - a[1])[0][0];
}

/** A date cell in the layout's order: `05/01/2024`, `05-01-24`, `2024-01-05`, `20240105`. Null when it is none. */
export function csvDay(text: string, order: DateOrder): CalendarDate | null {
  const value = text.trim().slice(0, 10);
  if (/^\d{8}$/.test(value) && order === 'YMD') {
    return parseCalendarDate(`${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`);
  }
  const parts = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/.exec(value);
  if (!parts) return null;
  const [a, b, c] = parts.slice(1);
  const [year, month, day] = order === 'YMD' ? [a, b, c] : order === 'DMY' ? [c, b, a] : [c, a, b];
  const fullYear = year.length === 2 ? `20${year}` : year;
  if (fullYear.length !== 4) return null;
  return parseCalendarDate(`${fullYear}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`);
}

type Columns = Record<keyof CsvLayout['columns'], number | null>;
const COLUMN_KEYS: Array<keyof CsvLayout['columns']> = [
  'date',
  'description',
  'amount',
  'credit',
  'debit',
  'direction',
  'id',
  'installment',
  'usd',
];

/** The layout's columns in a row (each cell normalized once), or null when the row is not its header. */
function headerColumns(record: string[], wanted: Record<string, string[] | undefined>): Columns | null {
  const cells = record.map(normalizedText);
  const find = (names: string[] | undefined) => {
    for (const name of names ?? []) {
      const index = cells.indexOf(name);
      if (index !== -1) return index;
    }
    return null;
  };
  const columns = Object.fromEntries(COLUMN_KEYS.map((key) => [key, find(wanted[key])])) as Columns;
  const hasAmount = columns.amount !== null || (columns.credit !== null && columns.debit !== null);
  return columns.date !== null && columns.description !== null && hasAmount ? columns : null;
}

const headerMissing = (layout: CsvLayout) =>
  new StatementRejected(
    `cabeçalho não encontrado: as primeiras ${HEADER_SEARCH_ROWS} linhas não trazem as colunas ${[
      layout.columns.date[0],
      layout.columns.description[0],
      ...(layout.columns.amount ?? ['crédito', 'débito']),
    ].join(', ')}`,
  );

const cell = (record: string[], index: number | null) => (index === null ? '' : (record[index] ?? '').trim());

function amountOf(record: string[], columns: Columns, layout: CsvLayout, line: number): number | null {
  const read = (index: number | null) => {
    const value = cell(record, index);
    if (value === '') return null;
    const parsed = parseAmount(value, layout.decimal);
    if (!parsed) throw new StatementRejected(`valor inválido: ${quoted(value)}`, line);
    return parsed.negative ? -parsed.cents : parsed.cents;
  };
  if (columns.amount !== null) {
    const value = read(columns.amount);
    if (value === null) return null;
    const direction = normalizedText(cell(record, columns.direction));
    if (direction === 'd') return -Math.abs(value);
    if (direction === 'c') return Math.abs(value);
    return layout.expenseSign === 'positive' ? -value : value;
  }
  const credit = read(columns.credit);
  const debit = read(columns.debit);
  if (credit === null && debit === null) return null;
  return Math.abs(credit ?? 0) - Math.abs(debit ?? 0);
}

function installmentOf(record: string[], columns: Columns, description: string) {
  const text =
    cell(record, columns.installment) || (/parcela\s+(\d{1,3}\s*\/\s*\d{1,3})/i.exec(description)?.[1] ?? '');
  const parts = /^(\d{1,3})\s*\/\s*(\d{1,3})$/.exec(text);
  if (!parts) return null;
  const [number, total] = [Number(parts[1]), Number(parts[2])];
  return number >= 1 && total >= 2 && number <= total && total <= 120 ? { number, total } : null;
}

/** A data row below the header: an entry, or skipped with its reason; a date or amount it cannot read refuses the file. */
function rowOf(record: string[], line: number, columns: Columns, layout: CsvLayout): CsvRow | null {
  if (record.every((value) => value.trim() === '')) return null;
  const description = cell(record, columns.description);
  const dateText = cell(record, columns.date);
  if (BALANCE_ROW.test(normalizedText(description))) {
    return { skipped: { line, reason: 'linha de saldo ou total, não é um lançamento' } };
  }
  if (dateText === '' || !/\d/.test(dateText))
    return { skipped: { line, reason: 'linha sem data, não é um lançamento' } };
  const date = csvDay(dateText, layout.dateOrder);
  if (!date) throw new StatementRejected(`data inválida: ${quoted(dateText)}`, line);
  const cents = amountOf(record, columns, layout, line);
  if (cents === null || cents === 0) return { skipped: { line, reason: 'lançamento sem valor' } };
  const usd = cell(record, columns.usd);
  const usdAmount = usd ? parseAmount(usd, layout.decimal) : null;
  return {
    entry: {
      line,
      date,
      cents,
      description: description || 'Lançamento',
      id: cell(record, columns.id) || null,
      installment: installmentOf(record, columns, description),
      usd: usdAmount && usdAmount.cents > 0 ? decimalOf(usdAmount.cents) : null,
    },
  };
}

/** The first line break of a text (`\r\n`, `\n` or `\r`): the file's record delimiter. */
function lineBreakOf(text: string): '\r\n' | '\n' | '\r' {
  const at = text.search(/[\r\n]/);
  if (at === -1 || text[at] === '\n') return '\n';
  return text[at + 1] === '\n' ? '\r\n' : '\r';
}

const countBreaks = (text: string) => {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
};

/**
 * The rows of a CSV as its text arrives, with the line each starts on: Papa Parse splits each piece (quotes,
 * delimiters); the row a piece ends in is carried to the next one, unless the file ends there. A row whose
 * text passes `CSV_MAX_LINE` characters (a line, or a quoted field over many) is refused at its line, so a row
 * is never read again and again, nor held long.
 */
async function* csvRows(chunks: AsyncIterable<string>, delimiter: string | 'auto') {
  let carry = '';
  let line = 1;
  let settings: { delimiter: string; newline: '\r\n' | '\n' | '\r' } | null = null;
  const rowsOf = (text: string, final: boolean) => {
    settings ??= {
      delimiter: delimiter === 'auto' ? delimiterOf(text) : delimiter,
      newline: lineBreakOf(text),
    };
    const rows: Array<{ record: string[]; line: number }> = [];
    let cursor = 0;
    let failure: StatementRejected | null = null;
    Papa.parse<string[]>(text, {
      ...settings,
      step: (row, parser) => {
        // the last row of a piece may go on in the next one
        if (!final && row.meta.cursor >= text.length) {
          parser.abort();
          return;
        }
        if (row.errors.length > 0) {
          failure = new StatementRejected(`CSV malformado: ${row.errors[0].code}`, line);
          parser.abort();
          return;
        }
        rows.push({ record: row.data, line });
        line += countBreaks(text.slice(cursor, row.meta.cursor));
        cursor = row.meta.cursor;
      },
    });
    if (failure) throw failure;
    carry = text.slice(cursor);
    if (carry.length > CSV_MAX_LINE) {
      throw new StatementRejected(
        `linha com mais de ${CSV_MAX_LINE} caracteres; um extrato CSV tem linhas curtas`,
        line,
      );
    }
    return rows;
  };
  for await (const chunk of chunks) yield* rowsOf(carry + chunk, false);
  yield* rowsOf(carry, true);
}

/**
 * A CSV statement read with `layout` as its text arrives: Papa Parse splits it (quotes, delimiters), lines are
 * counted; the header row is the first with the layout's columns among the first 40 (a bank's preamble above it is
 * passed over); each row below is an entry, or is skipped with its reason (no date: a title or trailer row; a
 * balance or total row; a zero amount), handed to `onRow` in file order. A date or an amount that cannot be read
 * refuses the file naming its line, and so does a row over `CSV_MAX_LINE` characters or `CSV_MAX_COLUMNS` cells,
 * so reading a row and searching the header are bounded. Returns the lines read.
 */
export async function readCsv(
  chunks: AsyncIterable<string>,
  layout: CsvLayout,
  onRow: (row: CsvRow) => void | Promise<void>,
): Promise<number> {
  const wanted = Object.fromEntries(
    COLUMN_KEYS.map((key) => [key, layout.columns[key]?.map((name) => normalizedText(name))]),
  );
  let columns: Columns | null = null;
  let searched = 0;
  let lines = 0;
  for await (const { record, line } of csvRows(chunks, layout.delimiter)) {
    lines = line;
    // an empty line is no row
    if (record.length === 1 && record[0] === '') continue;
    if (record.length > CSV_MAX_COLUMNS) {
      throw new StatementRejected(`linha com mais de ${CSV_MAX_COLUMNS} colunas`, line);
    }
    if (columns === null) {
      columns = headerColumns(record, wanted);
      if (columns === null && ++searched >= HEADER_SEARCH_ROWS) throw headerMissing(layout);
      continue;
    }
    const row = rowOf(record, line, columns, layout);
    if (row) await onRow(row);
  }
  if (columns === null) throw headerMissing(layout);
  return lines;
}

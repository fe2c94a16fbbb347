import { type CalendarDate, parseCalendarDate } from '@finance/shared/calendar';
import { CsvError, parse } from 'csv-parse/sync';
import type { CsvLayout, DateOrder } from './csv-presets.ts';
import { parseAmount } from './money-text.ts';
import { normalizedText, StatementRejected } from './statement-text.ts';

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

export interface CsvStatement {
  transactions: CsvTransaction[];
  skipped: Array<{ line: number; reason: string }>;
}

const HEADER_SEARCH_ROWS = 40;

/** Cents as decimal text, on integers (`123` → `1.23`). */
const decimalOf = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const BALANCE_ROW = /^(saldo|s a l d o|total)\b/;

function delimiterOf(text: string): string {
  const sample = text.split(/\r?\n/, 20).join('\n');
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

/** The first header name of `names` present in the row, as a column index. */
function findColumn(header: string[], names: readonly string[] | undefined): number | null {
  if (!names) return null;
  for (const name of names) {
    const index = header.findIndex((cell) => normalizedText(cell) === normalizedText(name));
    if (index !== -1) return index;
  }
  return null;
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

function headerRow(rows: Array<{ record: string[] }>, layout: CsvLayout): { at: number; columns: Columns } {
  const limit = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let at = 0; at < limit; at++) {
    const header = rows[at].record;
    const columns = Object.fromEntries(
      COLUMN_KEYS.map((key) => [key, findColumn(header, layout.columns[key])]),
    ) as Columns;
    const hasAmount = columns.amount !== null || (columns.credit !== null && columns.debit !== null);
    if (columns.date !== null && columns.description !== null && hasAmount) return { at, columns };
  }
  const wanted = [
    layout.columns.date[0],
    layout.columns.description[0],
    ...(layout.columns.amount ?? ['crédito', 'débito']),
  ];
  throw new StatementRejected(
    `cabeçalho não encontrado: as primeiras ${HEADER_SEARCH_ROWS} linhas não trazem as colunas ${wanted.join(', ')}`,
  );
}

const cell = (record: string[], index: number | null) => (index === null ? '' : (record[index] ?? '').trim());

function amountOf(record: string[], columns: Columns, layout: CsvLayout, line: number): number | null {
  const read = (index: number | null) => {
    const value = cell(record, index);
    if (value === '') return null;
    const parsed = parseAmount(value, layout.decimal);
    if (!parsed) throw new StatementRejected(`valor inválido: '${value}'`, line);
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

/**
 * A CSV statement read with `layout`: csv-parse splits it (quotes, delimiters, line numbers); the header row is the
 * first with the layout's columns (a bank's preamble above it is passed over); each row below is an entry, or is
 * skipped with its reason (no date: a title or trailer row; a balance or total row; a zero amount). A date or an
 * amount that cannot be read refuses the file naming its line.
 */
export function parseCsv(text: string, layout: CsvLayout): CsvStatement {
  let rows: Array<{ record: string[]; info: { lines: number } }>;
  try {
    rows = parse(text, {
      delimiter: layout.delimiter === 'auto' ? delimiterOf(text) : layout.delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      info: true,
      trim: false,
    }) as unknown as typeof rows;
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines ?? null;
      throw new StatementRejected(`CSV malformado: ${err.code}`, line);
    }
    throw err;
  }
  const { at, columns } = headerRow(rows, layout);
  const transactions: CsvTransaction[] = [];
  const skipped: CsvStatement['skipped'] = [];
  for (const { record, info } of rows.slice(at + 1)) {
    const line = info.lines;
    if (record.every((value) => value.trim() === '')) continue;
    const description = cell(record, columns.description);
    const dateText = cell(record, columns.date);
    if (BALANCE_ROW.test(normalizedText(description))) {
      skipped.push({ line, reason: 'linha de saldo ou total, não é um lançamento' });
      continue;
    }
    if (dateText === '' || !/\d/.test(dateText)) {
      skipped.push({ line, reason: 'linha sem data, não é um lançamento' });
      continue;
    }
    const date = csvDay(dateText, layout.dateOrder);
    if (!date) throw new StatementRejected(`data inválida: '${dateText}'`, line);
    const cents = amountOf(record, columns, layout, line);
    if (cents === null || cents === 0) {
      skipped.push({ line, reason: 'lançamento sem valor' });
      continue;
    }
    const usd = cell(record, columns.usd);
    const usdAmount = usd ? parseAmount(usd, layout.decimal) : null;
    transactions.push({
      line,
      date,
      cents,
      description: description || 'Lançamento',
      id: cell(record, columns.id) || null,
      installment: installmentOf(record, columns, description),
      usd: usdAmount && usdAmount.cents > 0 ? decimalOf(usdAmount.cents) : null,
    });
  }
  return { transactions, skipped };
}

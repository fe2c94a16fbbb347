import type { CalendarDate } from '@finance/shared/calendar';
import type { StatementQuery } from '@finance/shared/contracts/ledger/statements';
import type { PipelineEntry } from '../imports/import-entry.ts';
import { boundedSourceKey } from '../imports/source-key.ts';
import { type CsvTransaction, readCsv } from './csv.ts';
import { CSV_PRESETS, type CsvLayout, type DateOrder } from './csv-presets.ts';
import { OfxReader } from './ofx.ts';
import { normalizedText, StatementRejected } from './statement-text.ts';

/** The account or card a file goes into. */
export type StatementTarget =
  | { account_id: string; credit_card_id: null }
  | { account_id: null; credit_card_id: string };

export type StatementFormat = 'ofx' | 'csv';

/** One entry of a file as read, before its key: what an OFX `<STMTTRN>` or a CSV row becomes. */
export interface FileEntry {
  line: number;
  /** The bank's id of the entry (`FITID`, the CSV id column), when it gives one. */
  id: string | null;
  date: CalendarDate;
  cents: number;
  /** What identifies an entry without an id, with its date and amount. */
  text: string;
  title: string;
  description: string | null;
  operation_type: string | null;
  installment: { series: string; number: number; total: number } | null;
  original_amount: string | null;
  original_currency: string | null;
}

/** What a file's reading yields, in file order: an entry, or a line left out with why. */
export type FileRow = { entry: FileEntry } | { skipped: { line: number | null; reason: string } };

/** What a file says besides its rows, known once it was read to its end. */
export interface FileSummary {
  /** The file's lines. */
  lines: number;
  /** An OFX bank statement's `LEDGERBAL`. */
  ledgerBalance: { cents: number; date: CalendarDate } | null;
}

const OFX_TYPES = ['application/x-ofx', 'application/ofx'];

/** OFX or CSV: as asked, else by the content type, else by the file's own first characters. */
export function formatOf(query: StatementQuery, contentType: string | undefined, head: string): StatementFormat {
  if (query.format) return query.format;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (OFX_TYPES.includes(type)) return 'ofx';
  if (type === 'text/csv') return 'csv';
  return /OFXHEADER\s*:|<OFX>/i.test(head.slice(0, 4096)) ? 'ofx' : 'csv';
}

const DATE_ORDERS: Record<NonNullable<StatementQuery['date_format']>, DateOrder> = {
  'DD/MM/YYYY': 'DMY',
  'DD/MM/YY': 'DMY',
  'YYYY-MM-DD': 'YMD',
  YYYYMMDD: 'YMD',
  'MM/DD/YYYY': 'MDY',
};

/** A CSV's layout: a bank preset, or the explicit column mapping of the query (one of the two). */
export function csvLayoutOf(query: StatementQuery): CsvLayout {
  if (query.preset) return CSV_PRESETS[query.preset];
  if (!query.date_column || !query.description_column || !(query.amount_column || query.credit_column)) {
    throw new StatementRejected(
      'CSV sem preset: informe preset (ex.: nubank-conta) ou date_column, description_column e amount_column (ou credit_column e debit_column)',
    );
  }
  const one = (name: string | undefined) => (name ? [name] : undefined);
  return {
    delimiter: query.delimiter === 'tab' ? '\t' : (query.delimiter ?? 'auto'),
    decimal: query.decimal_separator ?? ',',
    dateOrder: DATE_ORDERS[query.date_format ?? 'DD/MM/YYYY'],
    expenseSign: query.expense_sign ?? 'negative',
    columns: {
      date: [query.date_column],
      description: [query.description_column],
      amount: one(query.amount_column),
      credit: one(query.credit_column),
      debit: one(query.debit_column),
      id: one(query.id_column),
    },
  };
}

/** How a file is read: its format, a CSV's layout, and the context's time zone (dates with an offset fall on its day). */
export interface ReadOptions {
  format: StatementFormat;
  query: StatementQuery;
  timeZone: string;
}

/** Text read at once between two looks at the event loop: a few milliseconds of work. */
const SLICE_CHARS = 16 * 1024;

/** The text in slices of at most `SLICE_CHARS`, the event loop served between two. */
async function* sliced(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += SLICE_CHARS) {
      yield chunk.slice(at, at + SLICE_CHARS);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * Reads a statement file's text as it arrives and hands each row to `onRow` in file order (awaited, so a slow
 * consumer holds the reading back); a file that cannot be read throws `StatementRejected` naming the line. The text
 * is read 16 KiB at a time, other work served between two (and every 1,000 rows), so a file never holds a
 * process's event loop.
 */
export async function readStatementFile(
  text: AsyncIterable<string>,
  options: ReadOptions,
  onRow: (row: FileRow) => void | Promise<void>,
): Promise<FileSummary> {
  const chunks = sliced(text);
  let rows = 0;
  const handOver = async (row: FileRow) => {
    await onRow(row);
    if (++rows % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
  };
  if (options.format === 'csv') {
    const layout = csvLayoutOf(options.query);
    const lines = await readCsv(chunks, layout, (row) =>
      handOver('skipped' in row ? row : { entry: csvEntry(row.entry) }),
    );
    return { lines, ledgerBalance: null };
  }
  const reader = new OfxReader(options.timeZone);
  const ofxRows = async (transactions: ReturnType<OfxReader['write']>) => {
    for (const trn of transactions) {
      await handOver(
        trn.cents === 0
          ? { skipped: { line: trn.line, reason: 'lançamento sem valor' } }
          : {
              entry: {
                line: trn.line,
                id: trn.fitId,
                date: trn.date,
                cents: trn.cents,
                text: `${trn.name} ${trn.memo}`,
                title: trn.name || trn.memo || trn.type || 'Lançamento',
                description: trn.name && trn.memo && trn.memo !== trn.name ? trn.memo.slice(0, 1000) : null,
                operation_type: trn.type ? trn.type.slice(0, 64) : null,
                installment: null,
                original_amount: trn.original?.amount ?? null,
                original_currency: trn.original?.currency ?? null,
              },
            },
      );
    }
  };
  for await (const text of chunks) await ofxRows(reader.write(text));
  const { transactions, statement } = reader.end();
  await ofxRows(transactions);
  return {
    lines: reader.lines,
    ledgerBalance:
      statement.kind === 'bank' && statement.ledgerBalance
        ? { cents: statement.ledgerBalance.cents, date: statement.ledgerBalance.date }
        : null,
  };
}

function csvEntry(row: CsvTransaction): FileEntry {
  return {
    line: row.line,
    id: row.id,
    date: row.date,
    cents: row.cents,
    text: row.description,
    title: row.description,
    description: null,
    operation_type: null,
    // installments of one purchase: same description (without the installment), total and amount
    installment: row.installment
      ? {
          series: `${normalizedText(row.description.replace(/\s*-?\s*parcela\s+\d+\s*\/\s*\d+/i, ''))}|${row.installment.total}|${Math.abs(row.cents)}`,
          number: row.installment.number,
          total: row.installment.total,
        }
      : null,
    original_amount: row.usd,
    original_currency: row.usd ? 'USD' : null,
  };
}

/**
 * Keys of a file's entries, in file order: the bank's id (when it gives one) with the date, amount and direction, so
 * a bank that repeats an id on different entries loses none; identical entries are numbered in file order (`#2`),
 * so two equal coffees stay two and a file that overlaps another yields the same keys for the same entries. A key
 * longer than `SOURCE_KEY_MAX` is its hash (`boundedSourceKey`).
 */
export class EntryKeys {
  private readonly seen = new Map<string, number>();

  next(entry: { id: string | null; date: string; cents: number; text: string }): string {
    const base = boundedSourceKey(
      `${entry.id ?? ''}|${entry.date}|${entry.cents}${entry.id ? '' : `|${normalizedText(entry.text)}`}`,
    );
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    return count === 1 ? base : `${base}#${count}`;
  }
}

/** A file's entry as the import pipeline takes it, keyed in its format's namespace, for `target`. */
export function pipelineEntry(
  entry: FileEntry,
  key: string,
  format: StatementFormat,
  target: StatementTarget,
): PipelineEntry {
  const title = entry.title.slice(0, 255);
  return {
    ...target,
    key: boundedSourceKey(`${format}:${key}`),
    status: 'BOOKED',
    amount: Math.abs(entry.cents),
    date: entry.date,
    is_expense: entry.cents < 0,
    title,
    // the payee (or the memo) is what categorization rules match
    merchant_name: title,
    merchant_cnpj: null,
    merchant_cnae: null,
    logo_url: null,
    bill_due_date: null,
    description: entry.description,
    operation_type: entry.operation_type,
    installment: entry.installment
      ? {
          series_key: boundedSourceKey(entry.installment.series),
          number: entry.installment.number,
          total: entry.installment.total,
        }
      : null,
    original_amount: entry.original_amount,
    original_currency: entry.original_currency,
    line: entry.line,
  };
}

import type { StatementQuery } from '@finance/shared/contracts/ledger/statements';
import type { PipelineEntry } from '../imports/import-entry.ts';
import { parseCsv } from './csv.ts';
import { CSV_PRESETS, type CsvLayout, type DateOrder } from './csv-presets.ts';
import { parseOfx } from './ofx.ts';
import { normalizedText, StatementRejected } from './statement-text.ts';

/** The account or card a file goes into. */
export type StatementTarget =
  | { account_id: string; credit_card_id: null }
  | { account_id: null; credit_card_id: string };

/** A file read into pipeline entries, with the lines left out and an OFX bank statement's stated balance. */
export interface ReadStatement {
  format: 'ofx' | 'csv';
  entries: PipelineEntry[];
  skipped: Array<{ line: number | null; reason: string }>;
  ledgerBalance: { cents: number; date: string } | null;
}

const OFX_TYPES = ['application/x-ofx', 'application/ofx'];

/** OFX or CSV: as asked, else by the content type, else by the file's own first bytes. */
export function formatOf(query: StatementQuery, contentType: string | undefined, text: string): 'ofx' | 'csv' {
  if (query.format) return query.format;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (OFX_TYPES.includes(type)) return 'ofx';
  if (type === 'text/csv') return 'csv';
  return /OFXHEADER\s*:|<OFX>/i.test(text.slice(0, 4096)) ? 'ofx' : 'csv';
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

/**
 * Keys of a file's entries: the bank's id (when it gives one) with the date, amount and direction, so a bank that
 * repeats an id on different entries loses none; identical entries are numbered in file order (`#2`), so two
 * equal coffees stay two and a file that overlaps another yields the same keys for the same entries.
 */
export function keyEntries<T extends { id: string | null; date: string; cents: number; text: string }>(
  items: T[],
): Array<T & { key: string }> {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const base = `${item.id ?? ''}|${item.date}|${item.cents}${item.id ? '' : `|${normalizedText(item.text)}`}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return { ...item, key: count === 1 ? base : `${base}#${count}` };
  });
}

const blankEntry = (target: StatementTarget) => ({
  ...target,
  status: 'BOOKED' as const,
  merchant_cnpj: null,
  merchant_cnae: null,
  logo_url: null,
  bill_due_date: null,
});

/** An OFX or CSV file as pipeline entries for `target` (dates with an offset fall on `timeZone`'s day). */
export function readStatement(
  text: string,
  format: 'ofx' | 'csv',
  query: StatementQuery,
  target: StatementTarget,
  timeZone: string,
): ReadStatement {
  if (format === 'ofx') {
    const statement = parseOfx(text, timeZone);
    const kept = statement.transactions.filter((trn) => trn.cents !== 0);
    const skipped = statement.transactions
      .filter((trn) => trn.cents === 0)
      .map((trn) => ({ line: trn.line, reason: 'lançamento sem valor' }));
    const keyed = keyEntries(kept.map((trn) => ({ ...trn, id: trn.fitId, text: `${trn.name} ${trn.memo}` })));
    return {
      format,
      skipped,
      ledgerBalance:
        statement.kind === 'bank' && statement.ledgerBalance
          ? { cents: statement.ledgerBalance.cents, date: statement.ledgerBalance.date }
          : null,
      entries: keyed.map((trn) => {
        const title = trn.name || trn.memo || trn.type || 'Lançamento';
        return {
          ...blankEntry(target),
          key: `ofx:${trn.key}`,
          amount: Math.abs(trn.cents),
          date: trn.date,
          is_expense: trn.cents < 0,
          title: title.slice(0, 255),
          // the payee (or the memo) is what categorization rules match
          merchant_name: title.slice(0, 255),
          description: trn.name && trn.memo && trn.memo !== trn.name ? trn.memo.slice(0, 1000) : null,
          operation_type: trn.type ? trn.type.slice(0, 64) : null,
          installment: null,
          original_amount: trn.original?.amount ?? null,
          original_currency: trn.original?.currency ?? null,
          line: trn.line,
        };
      }),
    };
  }
  const csv = parseCsv(text, csvLayoutOf(query));
  const keyed = keyEntries(csv.transactions.map((row) => ({ ...row, text: row.description })));
  return {
    format,
    skipped: csv.skipped,
    ledgerBalance: null,
    entries: keyed.map((row) => ({
      ...blankEntry(target),
      key: `csv:${row.key}`,
      amount: Math.abs(row.cents),
      date: row.date,
      is_expense: row.cents < 0,
      title: row.description.slice(0, 255),
      merchant_name: row.description.slice(0, 255),
      description: null,
      operation_type: null,
      // installments of one purchase: same description (without the installment), total and amount
      installment: row.installment
        ? {
            series_key: `${normalizedText(row.description.replace(/\s*-?\s*parcela\s+\d+\s*\/\s*\d+/i, ''))}|${row.installment.total}|${Math.abs(row.cents)}`,
            number: row.installment.number,
            total: row.installment.total,
          }
        : null,
      original_amount: row.usd,
      original_currency: row.usd ? 'USD' : null,
      line: row.line,
    })),
  };
}

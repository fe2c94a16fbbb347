import type { CsvPresetName } from '@finance/shared/contracts/ledger/statements';
import type { DecimalSeparator } from './money-text.ts';

/** The order of day, month and year in a file's dates (`DD/MM/YYYY` is DMY; 2-digit years are 20xx). */
export type DateOrder = 'DMY' | 'YMD' | 'MDY';

/**
 * How to read one bank's CSV export. Columns are found by their header name (compared without case, accents or
 * extra blanks; the first name found wins), so a preamble above the header row and a column order that moves are
 * both fine. `amount` is one signed column; or `credit` and `debit` columns; or `amount` with a `direction` column
 * (`D`/`C`).
 */
export interface CsvLayout {
  delimiter: ',' | ';' | '\t' | '|' | 'auto';
  decimal: DecimalSeparator;
  dateOrder: DateOrder;
  /** Which sign an expense has in `amount`: card exports list purchases as positive amounts. */
  expenseSign: 'negative' | 'positive';
  columns: {
    date: string[];
    description: string[];
    amount?: string[];
    credit?: string[];
    debit?: string[];
    direction?: string[];
    id?: string[];
    /** `2/10` or `Única`: the installment of a card purchase. */
    installment?: string[];
    /** The amount in US dollars of an international purchase (C6 card). */
    usd?: string[];
  };
}

export interface CsvPreset extends CsvLayout {
  label: string;
}

/** The exports of the largest Brazilian banks and digital banks (docs/open-banking.md lists their columns). */
export const CSV_PRESETS = {
  'nubank-conta': {
    label: 'Nubank, extrato da conta',
    delimiter: ',',
    decimal: '.',
    dateOrder: 'DMY',
    expenseSign: 'negative',
    columns: { date: ['data'], amount: ['valor'], id: ['identificador'], description: ['descricao'] },
  },
  'nubank-cartao': {
    label: 'Nubank, fatura do cartão',
    delimiter: ',',
    decimal: '.',
    dateOrder: 'YMD',
    expenseSign: 'positive',
    columns: { date: ['date'], description: ['title'], amount: ['amount'] },
  },
  itau: {
    label: 'Itaú, extrato da conta',
    delimiter: ';',
    decimal: ',',
    dateOrder: 'DMY',
    expenseSign: 'negative',
    columns: { date: ['data'], description: ['lancamento', 'historico', 'descricao'], amount: ['valor (r$)', 'valor'] },
  },
  bradesco: {
    label: 'Bradesco, extrato da conta',
    delimiter: ';',
    decimal: ',',
    dateOrder: 'DMY',
    expenseSign: 'negative',
    columns: {
      date: ['data'],
      description: ['historico', 'lancamento'],
      id: ['docto.', 'docto', 'documento'],
      credit: ['credito (r$)', 'credito'],
      debit: ['debito (r$)', 'debito'],
    },
  },
  'banco-do-brasil': {
    label: 'Banco do Brasil, extrato da conta',
    delimiter: ',',
    decimal: 'auto',
    dateOrder: 'DMY',
    expenseSign: 'negative',
    columns: {
      date: ['data'],
      description: ['historico', 'lancamento'],
      id: ['numero do documento', 'documento'],
      amount: ['valor'],
    },
  },
  caixa: {
    label: 'Caixa, extrato da conta',
    delimiter: ';',
    decimal: '.',
    dateOrder: 'YMD',
    expenseSign: 'negative',
    columns: {
      date: ['data_mov', 'data'],
      description: ['historico'],
      id: ['nr_doc'],
      amount: ['valor'],
      direction: ['deb_cred'],
    },
  },
  santander: {
    label: 'Santander, extrato da conta',
    delimiter: ';',
    decimal: ',',
    dateOrder: 'DMY',
    expenseSign: 'negative',
    columns: {
      date: ['data'],
      description: ['descricao', 'historico'],
      id: ['docto', 'documento'],
      credit: ['credito (r$)', 'credito'],
      debit: ['debito (r$)', 'debito'],
    },
  },
  inter: {
    label: 'Banco Inter, extrato da conta',
    delimiter: ';',
    decimal: ',',
    dateOrder: 'DMY',
    expenseSign: 'negative',
    columns: { date: ['data lancamento', 'data'], description: ['descricao', 'historico'], amount: ['valor'] },
  },
  'c6-cartao': {
    label: 'C6 Bank, fatura do cartão',
    delimiter: ';',
    decimal: 'auto',
    dateOrder: 'DMY',
    expenseSign: 'positive',
    columns: {
      date: ['data de compra'],
      description: ['descricao'],
      amount: ['valor (em r$)'],
      installment: ['parcela'],
      usd: ['valor (em us$)'],
    },
  },
} as const satisfies Record<CsvPresetName, CsvPreset>;

import { copyIn } from '@finance/shared/db/copy-in';
import type { EntityManager } from '@mikro-orm/postgresql';
import Papa from 'papaparse';
import { ENTRY_COLUMNS, type NewTransaction } from './transaction-columns.ts';

const COPY_SQL = `copy transactions (${ENTRY_COLUMNS.map(([name]) => name).join(', ')}, created_at, updated_at)
  from stdin with (format csv)`;
/** Rows encoded a piece at a time: the text of one piece, not of the whole batch, is held. */
const ROWS_A_PIECE = 500;

/** COPY's CSV: a null is an empty field, so an empty text is written quoted. */
const csvOf = (rows: unknown[][]) =>
  `${Papa.unparse(rows, { quotes: (value: unknown) => value === '', newline: '\n', header: false })}\n`;

/**
 * New rows written by COPY in the transaction open on `em`, stamped with its `now()` as an INSERT's `now()` stamps
 * them. None may be of a series or transfer: a COPY fails whole on a taken pair, which `insertSql`'s `on conflict`
 * skips.
 */
export async function copyTransactions(em: EntityManager, rows: NewTransaction[]): Promise<void> {
  if (rows.length === 0) return;
  await copyIn(em, COPY_SQL, function* pieces(stamp) {
    for (let at = 0; at < rows.length; at += ROWS_A_PIECE) {
      yield csvOf(
        rows.slice(at, at + ROWS_A_PIECE).map((row) => [...ENTRY_COLUMNS.map(([name]) => row[name]), stamp, stamp]),
      );
    }
  });
}

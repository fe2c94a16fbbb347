import { MAX_UPDATE_MANY_IDS, type TransactionIdsQuery } from '@finance/shared/contracts/ledger/transactions';
import { isUuid } from '@finance/shared/db/pagination';
import { invalidField } from '@finance/shared/errors/app-error';

function valuesOf(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return raw.split(',');
  // the query parser turns long bracket lists into objects keyed by index
  const items = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw) : [raw];
  return items.flatMap((item) => (typeof item === 'string' ? item.split(',') : [String(item)]));
}

/** Ids from `transactions_ids` (repeated or comma-separated) and `transactions_ids[]`, distinct, 1..500. */
export function transactionIdsOf(query: TransactionIdsQuery): string[] {
  const ids = [
    ...new Set(
      [...valuesOf(query.transactions_ids), ...valuesOf(query['transactions_ids[]'])]
        .map((id) => id.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) throw invalidField('transactions_ids', 'informe ao menos um id de lançamento');
  if (ids.length > MAX_UPDATE_MANY_IDS) {
    throw invalidField('transactions_ids', `no máximo ${MAX_UPDATE_MANY_IDS} ids por chamada`);
  }
  const bad = ids.find((id) => !isUuid(id));
  if (bad) throw invalidField('transactions_ids', `id inválido: ${bad.slice(0, 40)}`);
  return ids;
}

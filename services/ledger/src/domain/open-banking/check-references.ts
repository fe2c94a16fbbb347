import type { OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import { ImportRejected } from './import-payload.ts';

const SHOWN = 5;

/**
 * Every card names an account, and every transaction an account or card, of this payload or of an
 * earlier import of the connection; otherwise the whole import is rejected before anything is written.
 */
export function checkReferences(payload: OpenBankingImport, knownAccounts: Set<string>, knownCards: Set<string>): void {
  const accounts = new Set([...knownAccounts, ...payload.accounts.map((account) => account.external_id)]);
  const cards = new Set([...knownCards, ...payload.credit_cards.map((card) => card.external_id)]);
  const problems: string[] = [];
  for (const card of payload.credit_cards) {
    if (card.account_external_id !== undefined && !accounts.has(card.account_external_id)) {
      problems.push(`o cartão '${card.external_id}' referencia a conta '${card.account_external_id}'`);
    }
  }
  for (const tx of payload.transactions) {
    if (tx.account_external_id !== undefined && !accounts.has(tx.account_external_id)) {
      problems.push(`a transação '${tx.external_id}' referencia a conta '${tx.account_external_id}'`);
    }
    if (tx.credit_card_external_id !== undefined && !cards.has(tx.credit_card_external_id)) {
      problems.push(`a transação '${tx.external_id}' referencia o cartão '${tx.credit_card_external_id}'`);
    }
  }
  if (problems.length === 0) return;
  const more = problems.length > SHOWN ? ` (e mais ${problems.length - SHOWN})` : '';
  throw new ImportRejected(
    `Importação rejeitada, nada foi gravado: ${problems.slice(0, SHOWN).join('; ')}${more}, que não existe nesta importação nem em importações anteriores desta conexão`,
  );
}

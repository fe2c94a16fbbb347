import { type CalendarDate, daysBetween } from '@finance/shared/calendar';
import { normalizeMerchantName } from '../rules/normalize.ts';

/**
 * The own-money rules (docs/decisions.md §9): money that only moves between the holder's own accounts and
 * investments is neither spending nor income. It becomes a `TRANSFER` (counted by `include_transfers`):
 * - two legs: a debit in one of the context's accounts and the same amount credited in another, dated at most
 *   `TRANSFER_WINDOW_DAYS` apart, neither of a kind that is never a transfer (salary, bills, fees, cards, cash,
 *   interest) nor with a company on the other side;
 * - one leg: an entry whose other party is the holder themself (the same CPF or CNPJ: a Pix to their own
 *   account at another bank), or an application to or redemption from an investment.
 */
export const TRANSFER_WINDOW_DAYS = 3;

/** Operation types (Open Finance's, OFX's) that are never a movement between one's own accounts. */
const NEVER_A_TRANSFER = new Set([
  'BOLETO',
  'CONVENIO_ARRECADACAO',
  'PACOTE_TARIFA_SERVICOS',
  'TARIFA_SERVICOS_AVULSOS',
  'FOLHA_PAGAMENTO',
  'SAQUE',
  'DEPOSITO',
  'CARTAO',
  'ENCARGOS_JUROS_CHEQUE_ESPECIAL',
  'RENDIMENTO_APLIC_FINANCEIRA',
  'PORTABILIDADE_SALARIO',
  'OPERACAO_CREDITO',
  'FEE',
  'SRVCHG',
  'INT',
  'DIV',
  'ATM',
  'POS',
  'CHECK',
  'CASH',
  'DIRECTDEP',
]);

/** Open Finance's type of a redemption; an application has none of its own and is known by its text. */
const REDEMPTION_TYPE = 'RESGATE_APLIC_FINANCEIRA';
const INVESTMENT_TEXT = /(^|[^a-z])(aplicacao|aplic|apl|resgate|resg)([^a-z]|$)/;
const YIELD_TEXT = /(^|[^a-z])(rendimento|rend|juros|dividendo)([^a-z]|$)/;

/** What the rules read of an account entry. */
export interface OwnMoneyEntry {
  title: string;
  operation_type: string | null;
  /** The other party's CPF or CNPJ, digits only, when the source names it. */
  counterparty_document?: string | null;
}

/** Why an entry alone moves the holder's own money, or null. */
export function ownMoneyMove(
  entry: OwnMoneyEntry,
  holderDocuments: readonly string[],
): 'investment' | 'own_account' | null {
  if (entry.counterparty_document && holderDocuments.includes(entry.counterparty_document)) return 'own_account';
  if (entry.operation_type === REDEMPTION_TYPE) return 'investment';
  const text = normalizeMerchantName(entry.title) ?? '';
  return INVESTMENT_TEXT.test(text) && !YIELD_TEXT.test(text) ? 'investment' : null;
}

/** An account entry that may be one leg of a transfer between the context's accounts. */
export interface TransferLeg {
  id: string;
  account_id: string;
  amount: number;
  is_expense: boolean;
  date: CalendarDate;
  operation_type: string | null;
  /** A company on the other side (a CNPJ the source named). */
  merchant_cnpj: string | null;
}

/** Whether an entry's kind allows it to be a transfer leg at all. */
export const mayBeTransferLeg = (leg: Pick<TransferLeg, 'operation_type' | 'merchant_cnpj'>): boolean =>
  leg.merchant_cnpj === null && !NEVER_A_TRANSFER.has((leg.operation_type ?? '').toUpperCase());

/**
 * Pairs of legs (outgoing id, incoming id): each arriving leg with a stored or another arriving one of another
 * account, the opposite direction and the same amount, at most `TRANSFER_WINDOW_DAYS` apart; the closest first,
 * then by ids, each leg used once.
 */
export function pairOwnTransfers(
  arriving: readonly TransferLeg[],
  stored: readonly TransferLeg[],
): Array<[string, string]> {
  const legs = new Map<string, TransferLeg>([...stored, ...arriving].map((leg) => [leg.id, leg]));
  const byAmount = new Map<number, TransferLeg[]>();
  for (const leg of legs.values()) {
    if (!mayBeTransferLeg(leg)) continue;
    byAmount.set(leg.amount, [...(byAmount.get(leg.amount) ?? []), leg]);
  }
  const edges: Array<{ gap: number; out: string; in: string }> = [];
  const seen = new Set<string>();
  for (const leg of arriving) {
    if (!mayBeTransferLeg(leg)) continue;
    for (const other of byAmount.get(leg.amount) ?? []) {
      if (other.id === leg.id || other.account_id === leg.account_id || other.is_expense === leg.is_expense) continue;
      const days = Math.abs(daysBetween(leg.date, other.date));
      if (days > TRANSFER_WINDOW_DAYS) continue;
      const [out, into] = leg.is_expense ? [leg.id, other.id] : [other.id, leg.id];
      if (seen.has(`${out}|${into}`)) continue;
      seen.add(`${out}|${into}`);
      edges.push({ gap: days, out, in: into });
    }
  }
  edges.sort((a, b) => a.gap - b.gap || a.out.localeCompare(b.out) || a.in.localeCompare(b.in));
  const used = new Set<string>();
  const pairs: Array<[string, string]> = [];
  for (const edge of edges) {
    if (used.has(edge.out) || used.has(edge.in)) continue;
    used.add(edge.out);
    used.add(edge.in);
    pairs.push([edge.out, edge.in]);
  }
  return pairs;
}

import { AppError, notFound } from '@finance/shared/errors/app-error';
import type { AggregatorConnector } from './aggregator.ts';
import { type BankConnector, BankError } from './bank-connector.ts';
import type { Institution } from './institutions.ts';
import type { SecretBox } from './secret-box.ts';

/** What the connection use cases need of the Open Finance wiring (built from the ledger's configuration). */
export interface OpenFinance {
  institutions: () => Institution[];
  connector: BankConnector;
  /** Pluggy, when configured (PLUGGY_CLIENT_ID/SECRET). */
  pluggy: AggregatorConnector | null;
  pluggyWebhookUrl: string | null;
  /** The secret its webhook calls carry (the `token` of PLUGGY_WEBHOOK_URL) and how often one item's may act. */
  pluggyWebhook: { token: string; intervalSeconds: number } | null;
  secrets: SecretBox;
  /** The gateway's public callback, registered at every institution. */
  redirectUri: string;
  /** Where a connection's `redirect_uri` may send the customer's browser (OPEN_BANKING_RETURN_URLS). */
  returnUrls: URL[];
  consentDays: number;
  /** How long one sync may hold its connection before another may start. */
  syncLeaseSeconds: number;
}

export function findInstitution(openFinance: OpenFinance, id: string): Institution {
  const institution = openFinance.institutions().find((candidate) => candidate.id === id);
  if (!institution) throw notFound('Instituição não encontrada');
  return institution;
}

/** An institution's failure as the answer to the client: what happened, in Portuguese, never its internals. */
export function bankFailure(err: unknown): never {
  if (!(err instanceof BankError)) throw err;
  switch (err.kind) {
    case 'timeout':
      throw new AppError(504, 'A instituição não respondeu a tempo; nada foi alterado, tente novamente');
    case 'unavailable':
      throw new AppError(
        502,
        'A instituição está indisponível no momento; nada foi alterado, tente novamente mais tarde',
      );
    case 'refused':
      throw new AppError(502, 'A instituição recusou o pedido; nada foi alterado');
    default:
      throw new AppError(502, 'A instituição respondeu fora do padrão Open Finance; nada foi alterado');
  }
}

/** The institution id under which Pluggy's items are connections. */
export const PLUGGY = 'pluggy';

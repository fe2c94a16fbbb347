import type { CallbackQuery } from '@finance/shared/contracts/ledger/open-banking-connections';
import { AppError, badRequest } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeJwt } from 'jose';
import {
  activateConnection,
  type ConnectionRow,
  endConnection,
  returnAuthorizationState,
  takeAuthorizationState,
} from '../../data-access/connection-repository.ts';
import { BankError } from './bank-connector.ts';
import { hashState } from './manage-connections.ts';
import { bankFailure, type OpenFinance } from './open-finance.ts';
import { queueSync } from './sync-connection.ts';

const UNKNOWN_STATE = 'Autorização desconhecida, forjada ou já utilizada; nada foi alterado';

export interface CallbackResult {
  connection_id: string;
  status: 'ACTIVE' | 'FAILED';
  message: string;
  /** Where the customer's browser goes next (the connection's redirect_uri), when it named one. */
  redirect: string | null;
}

/** The `state` of a signed authorization response (JARM), read before it is verified, only to find its connection. */
function stateOf(query: CallbackQuery): string {
  if (!query.response) {
    throw badRequest('A resposta da instituição deve vir assinada (parâmetro response, JARM); nada foi alterado');
  }
  try {
    const { state } = decodeJwt(query.response);
    if (typeof state === 'string' && state.length > 0) return state;
  } catch {
    // not a JWT: answered below as an unknown authorization
  }
  throw badRequest(UNKNOWN_STATE);
}

const contextOf = (row: ConnectionRow) => ({
  userId: row.user_id,
  profileId: row.profile_id,
  business: false,
  keyId: null,
});

function redirectTo(row: ConnectionRow, status: string, error?: string): string | null {
  if (!row.redirect_uri) return null;
  const url = new URL(row.redirect_uri);
  url.searchParams.set('connection_id', row.id);
  url.searchParams.set('status', status);
  if (error) url.searchParams.set('error', error);
  return url.toString();
}

/**
 * GET /v1/open-banking/callback (public): the state (its hash) finds the connection and is used up in the same
 * statement, so a replay or a forged one finds nothing; the signed response is verified and its code exchanged
 * with the connection's PKCE verifier and nonce. Authorised: ACTIVE, the refresh token sealed, the first sync
 * queued. Refused by the customer: FAILED. Anything else (a tampered response, an institution failing)
 * gives the state back and changes nothing.
 */
export async function completeAuthorization(
  em: EntityManager,
  openFinance: OpenFinance,
  query: CallbackQuery,
  rawQuery: string,
  relaySoon: () => void,
): Promise<CallbackResult> {
  const state = stateOf(query);
  const stateHash = hashState(state);
  const row = await takeAuthorizationState(em, stateHash);
  if (!row?.authorization_secret || !row.institution_id) throw badRequest(UNKNOWN_STATE);
  const institution = openFinance.institutions().find((candidate) => candidate.id === row.institution_id);
  const giveBack = () => returnAuthorizationState(em, row.id, stateHash);
  if (!institution) {
    await giveBack();
    throw new AppError(502, 'A instituição desta conexão não está mais configurada');
  }
  const secret = JSON.parse(openFinance.secrets.open(row.authorization_secret)) as { verifier: string; nonce: string };
  let refreshToken: string;
  try {
    ({ refreshToken } = await openFinance.connector.completeAuthorization(institution, {
      callbackUrl: `${openFinance.redirectUri}?${rawQuery}`,
      state,
      nonce: secret.nonce,
      codeVerifier: secret.verifier,
    }));
  } catch (err) {
    if (err instanceof BankError && err.kind === 'refused' && /access_denied/.test(err.message)) {
      await endConnection(em, row.id, 'FAILED', 'O cliente recusou a autorização na instituição');
      return {
        connection_id: row.id,
        status: 'FAILED',
        message: 'A autorização foi recusada na instituição',
        redirect: redirectTo(row, 'FAILED', 'access_denied'),
      };
    }
    await giveBack();
    if (err instanceof BankError && (err.kind === 'timeout' || err.kind === 'unavailable')) return bankFailure(err);
    throw badRequest(
      'Resposta de autorização inválida (assinatura, código ou verificação recusados); nada foi alterado',
    );
  }
  await em.transactional(async (tx) => {
    await activateConnection(tx, row.id, openFinance.secrets.seal(refreshToken));
    await queueSync(tx, contextOf(row), row.id);
  });
  relaySoon();
  return {
    connection_id: row.id,
    status: 'ACTIVE',
    message: 'Conexão autorizada; a primeira sincronização foi iniciada',
    redirect: redirectTo(row, 'ACTIVE'),
  };
}

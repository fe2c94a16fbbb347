import { createHash } from 'node:crypto';
import { addDays } from '@finance/shared/calendar';
import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type {
  CreateConnectionBody,
  RenewConnectionBody,
} from '@finance/shared/contracts/ledger/open-banking-connections';
import { newId } from '@finance/shared/db/base-entity';
import { contextRef } from '@finance/shared/db/context-scope';
import { badRequest, conflict, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import { Reply } from '@finance/shared/http/service-routes';
import { recordEvent } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type AuthorizationFields,
  type ConnectionRow,
  endConnection,
  insertAuthorizingConnection,
  restartAuthorization,
  selectConnection,
} from '../../data-access/connection-repository.ts';
import { connectionView } from './connections.ts';
import type { Institution } from './institutions.ts';
import { bankFailure, findInstitution, type OpenFinance, PLUGGY } from './open-finance.ts';
import { createPluggyConnection, renewPluggyConnection } from './pluggy-connections.ts';
import { checkRedirectUri } from './return-urls.ts';
import { queueSync } from './sync-connection.ts';

export const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** GET /v1/open-banking/institutions: the institutions of the configuration, by name. */
export function listInstitutions(openFinance: OpenFinance) {
  const data = [
    ...openFinance
      .institutions()
      .map((institution) => ({ id: institution.id, name: institution.name, provider: 'open_finance' as const })),
    ...(openFinance.pluggy ? [{ id: PLUGGY, name: 'Pluggy', provider: 'pluggy' as const }] : []),
  ].sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'));
  return { data, next_cursor: null };
}

/** The context's connection, or 404 (another context's id included). */
export async function findConnection(em: EntityManager, ctx: CallerContext, id: string): Promise<ConnectionRow> {
  const row = await selectConnection(em, ctx, id);
  if (!row) throw notFound('Conexão não encontrada');
  return row;
}

export async function getConnection(em: EntityManager, ctx: CallerContext, id: string) {
  return connectionView(await findConnection(em, ctx, id));
}

/**
 * The institution's side of a new authorization, before anything is written: the consent (`POST /consents`) and
 * the pushed authorization request. Its secrets (PKCE verifier, nonce) are sealed; the state is kept hashed.
 */
async function authorizeAt(
  openFinance: OpenFinance,
  institution: Institution,
  input: { cpf?: string; redirect_uri?: string },
): Promise<AuthorizationFields> {
  const cpf = input.cpf ?? institution.testCpf;
  if (!cpf) throw badRequest('Informe o CPF do titular (cpf): a instituição confere quem autoriza');
  const expiresAt = `${addDays(now().toISOString().slice(0, 10), openFinance.consentDays)}T00:00:00Z`;
  try {
    const consent = await openFinance.connector.createConsent(institution, { cpf, expiresAt });
    const started = await openFinance.connector.startAuthorization(institution, {
      consentId: consent.consentId,
      redirectUri: openFinance.redirectUri,
    });
    return {
      consentId: consent.consentId,
      consentExpiresAt: consent.expiresAt ?? expiresAt,
      stateHash: hashState(started.state),
      secret: openFinance.secrets.seal(
        JSON.stringify({ verifier: started.codeVerifier, nonce: started.nonce, state: started.state }),
      ),
      url: started.url,
      redirectUri: input.redirect_uri ?? null,
      holderDocument: openFinance.secrets.seal(cpf),
    };
  } catch (err) {
    return bankFailure(err);
  }
}

/** POST /v1/open-banking/connections: the consent at the institution, then the connection AWAITING_AUTHORISATION. */
export async function createConnection(
  em: EntityManager,
  openFinance: OpenFinance,
  ctx: CallerContext,
  body: CreateConnectionBody,
) {
  if (body.redirect_uri !== undefined) checkRedirectUri(body.redirect_uri, openFinance.returnUrls);
  if (body.institution_id === PLUGGY && openFinance.pluggy) return createPluggyConnection(em, openFinance, ctx);
  const institution = findInstitution(openFinance, body.institution_id);
  const authorization = await authorizeAt(openFinance, institution, body);
  const id = newId();
  return em.transactional(async (tx) => {
    await insertAuthorizingConnection(tx, ctx, {
      id,
      institution: institution.name,
      institutionId: institution.id,
      authorization,
    });
    return keepAnswer(connectionView(await findConnection(tx, ctx, id)));
  });
}

/** POST /v1/open-banking/connections/{id}/renew: a new consent and authorization for the same connection. */
export async function renewConnection(
  em: EntityManager,
  openFinance: OpenFinance,
  ctx: CallerContext,
  id: string,
  body: RenewConnectionBody,
) {
  if (body.redirect_uri !== undefined) checkRedirectUri(body.redirect_uri, openFinance.returnUrls);
  const connection = await findConnection(em, ctx, id);
  if (!connection.institution_id)
    throw conflict('Esta conexão veio de uma importação JSON; crie uma conexão com a instituição');
  if (connection.status === 'ACTIVE') throw conflict('A conexão está ativa; não há o que renovar');
  if (connection.institution_id === PLUGGY) return renewPluggyConnection(em, openFinance, ctx, id);
  const institution = findInstitution(openFinance, connection.institution_id);
  const authorization = await authorizeAt(openFinance, institution, body);
  return em.transactional(async (tx) => {
    await restartAuthorization(tx, ctx, id, authorization);
    return keepAnswer(connectionView(await findConnection(tx, ctx, id)));
  });
}

/**
 * DELETE /v1/open-banking/connections/{id}: REVOKED at once, the consent revoked at the institution by the
 * revocation job (through the outbox, retried until the institution answers). Imported data stays.
 */
export async function deleteConnection(em: EntityManager, ctx: CallerContext, id: string) {
  const connection = await findConnection(em, ctx, id);
  return em.transactional(async (tx) => {
    await endConnection(tx, connection.id, 'REVOKED', null);
    // an Open Finance consent, or a Pluggy item, to revoke where it lives
    if (connection.institution_id && connection.consent_id) {
      recordEvent(tx, 'connection.consent_revoke_requested', contextRef(ctx), {
        connection_id: connection.id,
        reason: 'deleted',
      });
    }
    return keepAnswer(connectionView(await findConnection(tx, ctx, id)));
  });
}

/** POST /v1/open-banking/connections/{id}/sync: queued (a running sync is not started twice). */
export async function requestSync(em: EntityManager, ctx: CallerContext, id: string, relaySoon: () => void) {
  const connection = await findConnection(em, ctx, id);
  if (connection.status !== 'ACTIVE' || !connection.institution_id) {
    throw conflict('Só uma conexão ACTIVE com uma instituição sincroniza');
  }
  const answer = await em.transactional(async (tx) => {
    await queueSync(tx, ctx, connection.id);
    return keepAnswer(new Reply(202, connectionView(connection)));
  });
  relaySoon();
  return answer;
}

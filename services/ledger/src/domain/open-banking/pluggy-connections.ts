import type { CallerContext } from '@finance/shared/context/signed-context';
import { newId } from '@finance/shared/db/base-entity';
import { conflict, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  activateItem,
  insertAggregatorConnection,
  restartItemAuthorization,
} from '../../data-access/connection-repository.ts';
import type { AggregatorConnector } from './aggregator.ts';
import { connectionView } from './connections.ts';
import { findConnection } from './manage-connections.ts';
import { bankFailure, type OpenFinance, PLUGGY } from './open-finance.ts';
import { queueSync } from './sync-connection.ts';

const pluggyOf = (openFinance: OpenFinance): AggregatorConnector => {
  if (!openFinance.pluggy) throw notFound('Instituição não encontrada');
  return openFinance.pluggy;
};

async function connectToken(openFinance: OpenFinance, connectionId: string): Promise<string> {
  try {
    return await pluggyOf(openFinance).connectToken({
      clientUserId: connectionId,
      webhookUrl: openFinance.pluggyWebhookUrl,
    });
  } catch (err) {
    return bankFailure(err);
  }
}

/** POST /v1/open-banking/connections to Pluggy: a Connect token for the front end; the item comes later. */
export async function createPluggyConnection(em: EntityManager, openFinance: OpenFinance, ctx: CallerContext) {
  const id = newId();
  const token = await connectToken(openFinance, id);
  return em.transactional(async (tx) => {
    await insertAggregatorConnection(tx, ctx, { id, institution: 'Pluggy', institutionId: PLUGGY });
    return keepAnswer({ ...connectionView(await findConnection(tx, ctx, id)), connect_token: token });
  });
}

/** Renewal of a Pluggy connection: a new Connect token, the connection waiting for an item again. */
export async function renewPluggyConnection(
  em: EntityManager,
  openFinance: OpenFinance,
  ctx: CallerContext,
  id: string,
) {
  const token = await connectToken(openFinance, id);
  return em.transactional(async (tx) => {
    await restartItemAuthorization(tx, ctx, id);
    return keepAnswer({ ...connectionView(await findConnection(tx, ctx, id)), connect_token: token });
  });
}

/**
 * POST /v1/open-banking/connections/{id}/item: the item is read back from Pluggy and must name this connection
 * (`clientUserId`, set by the Connect token); then ACTIVE and the first sync queued. Anything else changes nothing.
 */
export async function attachItem(
  em: EntityManager,
  openFinance: OpenFinance,
  ctx: CallerContext,
  id: string,
  itemId: string,
  relaySoon: () => void,
) {
  const connection = await findConnection(em, ctx, id);
  if (connection.institution_id !== PLUGGY) throw conflict('Esta conexão não é da Pluggy');
  if (connection.status === 'ACTIVE') throw conflict('A conexão já está ativa');
  let item: Awaited<ReturnType<AggregatorConnector['item']>>;
  try {
    item = await pluggyOf(openFinance).item(itemId);
  } catch (err) {
    return bankFailure(err);
  }
  if (!item || item.clientUserId !== connection.id) throw notFound('Item não encontrado para esta conexão');
  const answer = await em.transactional(async (tx) => {
    if (!(await activateItem(tx, connection.id, item.id, item.connectorName)))
      throw conflict('A conexão já está ativa');
    await queueSync(tx, ctx, connection.id);
    return keepAnswer(connectionView(await findConnection(tx, ctx, id)));
  });
  relaySoon();
  return answer;
}

import express, { type Request, type Response, type Router } from 'express';
import type Provider from 'oidc-provider';
import { sandboxNow } from './clock.ts';
import { type Consent, type ConsentStore, dateTime } from './consents.ts';
import { bearerOf } from './data-apis.ts';
import { sendError } from './responses.ts';

const PERMISSIONS = new Set([
  'ACCOUNTS_READ',
  'ACCOUNTS_BALANCES_READ',
  'ACCOUNTS_TRANSACTIONS_READ',
  'ACCOUNTS_OVERDRAFT_LIMITS_READ',
  'CREDIT_CARDS_ACCOUNTS_READ',
  'CREDIT_CARDS_ACCOUNTS_BILLS_READ',
  'CREDIT_CARDS_ACCOUNTS_BILLS_TRANSACTIONS_READ',
  'CREDIT_CARDS_ACCOUNTS_LIMITS_READ',
  'CREDIT_CARDS_ACCOUNTS_TRANSACTIONS_READ',
  'RESOURCES_READ',
  'BANK_FIXED_INCOMES_READ',
  'CREDIT_FIXED_INCOMES_READ',
  'FUNDS_READ',
  'VARIABLE_INCOMES_READ',
  'TREASURE_TITLES_READ',
]);
const CPF = /^\d{11}$/;
const EXPIRATION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** A consent lasts at most 12 months. */
const MAX_CONSENT_MS = 366 * 86_400_000;

function consentView(consent: Consent) {
  return {
    consentId: consent.consentId,
    creationDateTime: consent.creationDateTime,
    status: consent.status,
    statusUpdateDateTime: consent.statusUpdateDateTime,
    permissions: consent.permissions,
    ...(consent.expirationDateTime ? { expirationDateTime: consent.expirationDateTime } : {}),
    ...(consent.rejection ? { rejection: consent.rejection } : {}),
  };
}

/**
 * Consents v3 (create, read, revoke), reached with a client_credentials token of scope `consents`; each client
 * sees only its own consents. Revoking (`DELETE`) rejects the consent as revoked by the customer through the
 * receiver and ends the tokens of its grant.
 */
export function consentsApi(deps: { provider: Provider; consents: ConsentStore; base: string }): Router {
  const router = express.Router();
  const clientOf = async (req: Request, res: Response): Promise<string | null> => {
    const value = bearerOf(req);
    const token = value ? await deps.provider.ClientCredentials.find(value) : undefined;
    if (!token || token.isExpired || !(token.scope ?? '').split(' ').includes('consents')) {
      sendError(res, 401, 'UNAUTHORIZED', 'Token de client_credentials com escopo consents ausente ou inválido');
      return null;
    }
    return token.clientId;
  };
  const answer = (res: Response, consent: Consent, status = 200) =>
    res.status(status).json({
      data: consentView(consent),
      links: { self: `${deps.base}/open-banking/consents/v3/consents/${consent.consentId}` },
      meta: { totalRecords: 1, totalPages: 1, requestDateTime: dateTime() },
    });
  const mine = (clientId: string, req: Request, res: Response) => {
    const consent = deps.consents.get(String(req.params.consentId));
    if (!consent || consent.clientId !== clientId) {
      sendError(res, 404, 'NAO_ENCONTRADO', 'Consentimento não encontrado');
      return null;
    }
    return consent;
  };

  router.post('/consents', express.json({ limit: '64kb' }), async (req, res) => {
    const clientId = await clientOf(req, res);
    if (!clientId) return;
    const data = req.body?.data;
    const cpf = data?.loggedUser?.document?.identification;
    const permissions = data?.permissions;
    if (typeof cpf !== 'string' || !CPF.test(cpf) || data.loggedUser.document.rel !== 'CPF') {
      return sendError(
        res,
        400,
        'PARAMETRO_INVALIDO',
        'loggedUser.document deve ter identification (CPF, 11 dígitos) e rel CPF',
      );
    }
    if (!Array.isArray(permissions) || permissions.length === 0 || permissions.some((p) => !PERMISSIONS.has(p))) {
      return sendError(res, 400, 'PARAMETRO_INVALIDO', 'permissions deve listar permissões conhecidas');
    }
    if (!permissions.includes('RESOURCES_READ')) {
      return sendError(res, 422, 'COMBINACAO_PERMISSOES_INCORRETA', 'RESOURCES_READ é obrigatória');
    }
    const expiration = data.expirationDateTime;
    if (
      expiration !== undefined &&
      (typeof expiration !== 'string' ||
        !EXPIRATION.test(expiration) ||
        Date.parse(expiration) <= sandboxNow() ||
        Date.parse(expiration) > sandboxNow() + MAX_CONSENT_MS)
    ) {
      return sendError(res, 422, 'DATA_EXPIRACAO_INVALIDA', 'expirationDateTime deve ser futura e em até 12 meses');
    }
    const consent = deps.consents.create(clientId, {
      permissions: [...new Set<string>(permissions)],
      cpf,
      expirationDateTime: expiration,
    });
    answer(res, consent, 201);
  });

  router.get('/consents/:consentId', async (req, res) => {
    const clientId = await clientOf(req, res);
    const consent = clientId && mine(clientId, req, res);
    if (consent) answer(res, consent);
  });

  router.delete('/consents/:consentId', async (req, res) => {
    const clientId = await clientOf(req, res);
    const consent = clientId && mine(clientId, req, res);
    if (!consent) return;
    if (consent.status === 'REJECTED') {
      return sendError(res, 422, 'CONSENTIMENTO_EM_STATUS_REJEITADO', 'O consentimento já está rejeitado');
    }
    await rejectConsent(
      deps,
      consent,
      'TPP',
      consent.status === 'AUTHORISED' ? 'CUSTOMER_MANUALLY_REVOKED' : 'CUSTOMER_MANUALLY_REJECTED',
    );
    res.status(204).end();
  });
  return router;
}

/** Rejects a consent and revokes every token of the grant bound to it. */
export async function rejectConsent(
  deps: { provider: Provider; consents: ConsentStore },
  consent: Consent,
  by: 'USER' | 'ASPSP' | 'TPP',
  code: 'CUSTOMER_MANUALLY_REVOKED' | 'CUSTOMER_MANUALLY_REJECTED' | 'CONSENT_EXPIRED',
): Promise<void> {
  deps.consents.reject(consent, by, code);
  if (consent.grantId) await deps.provider.AccessToken.revokeByGrantId(consent.grantId);
}

import express, { type Request, type Response, type Router } from 'express';
import type Provider from 'oidc-provider';
import { ACR_LOA2 } from './authorization-server.ts';
import type { ConsentStore } from './consents.ts';
import { rejectConsent } from './consents-api.ts';
import type { Customer } from './customers.ts';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * The customer's side of the authorization: the sandbox knows its customers by the consent's CPF, so there is
 * no password. With `autoApprove` (the default) opening the authorization URL approves at once and redirects
 * back to the receiver, so curl (`-L` with a cookie jar) or a test completes it without a browser; otherwise a
 * page with two buttons posts `decision=approve|deny` to the same URL.
 */
export function interactionRoutes(deps: {
  provider: Provider;
  consents: ConsentStore;
  customers: () => Customer[];
  resource: string;
  autoApprove: boolean;
}): Router {
  const router = express.Router();

  const decide = async (req: Request, res: Response, approve: boolean) => {
    const details = await deps.provider.interactionDetails(req, res);
    if (process.env.SANDBOX_DEBUG)
      console.log(JSON.stringify(details.prompt), details.params.scope, details.params.claims);
    const scopes = String(details.params.scope ?? '').split(' ');
    const consentId = scopes.find((s) => s.startsWith('consent:'))?.slice('consent:'.length);
    const consent = consentId ? deps.consents.get(consentId) : undefined;
    const clientId = String(details.params.client_id);
    const customer = consent && deps.customers().find((c) => c.cpf === consent.cpf);
    const deny = async (description: string) => {
      if (consent?.status === 'AWAITING_AUTHORISATION')
        await rejectConsent(deps, consent, 'USER', 'CUSTOMER_MANUALLY_REJECTED');
      await deps.provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: description },
        { mergeWithLastSubmission: false },
      );
    };
    if (!consent || consent.clientId !== clientId || consent.status !== 'AWAITING_AUTHORISATION') {
      return deny('consent not awaiting authorisation');
    }
    if (!customer) return deny('customer of the consent unknown to this institution');
    if (!approve) return deny('customer rejected the consent');
    const grant = new deps.provider.Grant({ accountId: customer.cpf, clientId });
    // the families are static scopes (granted as such) and, with the consent's scope, the API resource's
    grant.addOIDCScope(scopes.filter((s) => !s.startsWith('consent:')).join(' '));
    grant.addResourceScope(deps.resource, scopes.filter((s) => s !== 'openid').join(' '));
    const grantId = await grant.save();
    deps.consents.authorise(consent, grantId);
    await deps.provider.interactionFinished(
      req,
      res,
      { login: { accountId: customer.cpf, acr: ACR_LOA2 }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  router.get('/:uid', async (req, res, next) => {
    try {
      if (deps.autoApprove) return await decide(req, res, true);
      const details = await deps.provider.interactionDetails(req, res);
      const action = `/interaction/${escapeHtml(details.uid)}`;
      res.type('html').send(`<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>Banco Sandbox</title>
<h1>Banco Sandbox</h1><p>Autorizar o compartilhamento de dados com ${escapeHtml(String(details.params.client_id))}?</p>
<form method="post" action="${action}"><button name="decision" value="approve">Autorizar</button>
<button name="decision" value="deny">Recusar</button></form></html>`);
    } catch (err) {
      next(err);
    }
  });
  router.post('/:uid', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res, next) => {
    try {
      await decide(req, res, req.body?.decision === 'approve');
    } catch (err) {
      next(err);
    }
  });
  return router;
}

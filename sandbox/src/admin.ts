import express, { type Router } from 'express';
import type { Sandbox } from './server.ts';

/**
 * What a test (or a person with curl) does to the institution from outside: see its consents, have the customer
 * revoke one or the institution expire it, make the next calls fail, effect the pending entries, add records as
 * some institutions send them, time its own answers. A sandbox only.
 */
export function adminRoutes(sandbox: () => Sandbox): Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));
  router.get('/consents', (_req, res) => {
    res.json(
      sandbox()
        .consents.all()
        .map(({ grantId: _grant, ...consent }) => consent),
    );
  });
  const act = (action: (consentId: string) => Promise<void>) => async (req: express.Request, res: express.Response) => {
    try {
      await action(String(req.params.consentId));
      res.status(204).end();
    } catch (err) {
      res.status(404).json({ message: (err as Error).message });
    }
  };
  router.post(
    '/consents/:consentId/revoke',
    act((id) => sandbox().revokeAtInstitution(id)),
  );
  router.post(
    '/consents/:consentId/expire',
    act((id) => sandbox().expire(id)),
  );
  router.post('/faults', (req, res) => {
    const { status, times = 1, path, query, delay_ms: delayMs, body, retry_after: retryAfter } = req.body ?? {};
    if (!Number.isInteger(status) || status < 200 || status > 599 || !Number.isInteger(times) || times < 1) {
      res.status(400).json({ message: 'status (200–599) e times (≥ 1) inteiros' });
      return;
    }
    if (retryAfter !== undefined && (!Number.isInteger(retryAfter) || retryAfter < 0)) {
      res.status(400).json({ message: 'retry_after em segundos inteiros' });
      return;
    }
    sandbox().faults.push({ status, times, path, query, delayMs, body, retryAfter });
    res.status(204).end();
  });
  router.get('/faults', (_req, res) => {
    res.json(sandbox().faults);
  });
  router.delete('/faults', (_req, res) => {
    sandbox().faults.length = 0;
    res.status(204).end();
  });
  // records as a real institution may send them (another shape, a repeated id, a missing field): appended raw
  router.post('/records', (req, res) => {
    const { cpf, account_id: accountId, card_id: cardId, transactions } = req.body ?? {};
    const customer = sandbox().customers.find((c) => c.cpf === cpf);
    const list = accountId
      ? customer?.accounts.find((a) => a.accountId === accountId)?.transactions
      : customer?.cards.find((c) => c.creditCardAccountId === cardId)?.open;
    if (!list || !Array.isArray(transactions)) {
      res.status(404).json({ message: 'cliente, conta ou cartão desconhecido, ou transactions ausente' });
      return;
    }
    list.push(...transactions);
    res.status(204).end();
  });
  // the institution drops an entry (a scheduled payment cancelled): it is listed no more
  router.delete('/records', (req, res) => {
    const { cpf, account_id: accountId, transaction_id: transactionId } = req.body ?? {};
    const account = sandbox()
      .customers.find((c) => c.cpf === cpf)
      ?.accounts.find((a) => a.accountId === accountId);
    const index = account?.transactions.findIndex((tx) => tx.transactionId === transactionId) ?? -1;
    if (!account || index < 0) {
      res.status(404).json({ message: 'lançamento desconhecido' });
      return;
    }
    account.transactions.splice(index, 1);
    res.status(204).end();
  });
  // the institution's own answer time since the last reset: what a receiver's sync waited on it
  router.get('/answered', (_req, res) => {
    res.json(sandbox().answered);
  });
  router.delete('/answered', (_req, res) => {
    sandbox().answered.reset();
    res.status(204).end();
  });
  router.post('/settle', (_req, res) => {
    sandbox().settlePending();
    res.status(204).end();
  });
  return router;
}

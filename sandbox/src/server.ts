import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { adminRoutes } from './admin.ts';
import { AnswerClock } from './answered.ts';
import { createAuthorizationServer, type SandboxClient } from './authorization-server.ts';
import { sandboxNow } from './clock.ts';
import { ConsentStore } from './consents.ts';
import { consentsApi, rejectConsent } from './consents-api.ts';
import { buildCustomers, type Customer } from './customers.ts';
import { dataApis, documentHeaders, requireInteractionId } from './data-apis.ts';
import { interactionRoutes } from './interaction.ts';
import { sendError } from './responses.ts';

export type { SandboxClient };

/** A failure the sandbox answers on demand: the next `times` calls whose path starts with `path`. */
export interface Fault {
  status: number;
  times: number;
  path?: string;
  /** Only requests whose query holds this text (`page=2`: a list failing past its first page). */
  query?: string;
  /** Wait this long before answering (a slow or silent institution). */
  delayMs?: number;
  /** A body that is not the documents' JSON (an institution answering garbage). */
  body?: string;
  /** `Retry-After` of a 429 or 503, in seconds (default 1 for a 429). */
  retryAfter?: number;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** The public origin (issuer and links); default `http://<host>:<port>`. */
  publicUrl?: string;
  clients: SandboxClient[];
  /** The day the data is built around (default: today in UTC), `YYYY-MM-DD`. */
  today?: string;
  /** Opening the authorization URL approves at once (default); false shows a form. */
  autoApprove?: boolean;
}

export interface Sandbox {
  url: string;
  issuer: string;
  customers: Customer[];
  consents: ConsentStore;
  faults: Fault[];
  /** Its own answer time since the last reset (`GET /sandbox/answered`): what a receiver waited on it. */
  answered: AnswerClock;
  /** The customer revokes a consent at the institution (`CUSTOMER_MANUALLY_REVOKED`, rejected by USER). */
  revokeAtInstitution(consentId: string): Promise<void>;
  /** The institution expires a consent (`CONSENT_EXPIRED`). */
  expire(consentId: string): Promise<void>;
  /** Entries still processing or scheduled are effected: under a new id, as the documents let an institution do. */
  settlePending(): void;
  /** Stops listening (calls are refused) and starts again on the same port, keeping every state. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function faultsMiddleware(faults: Fault[]) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const index = faults.findIndex(
      (fault) =>
        fault.times > 0 &&
        req.path.startsWith(fault.path ?? '/') &&
        (fault.query === undefined || req.originalUrl.includes(fault.query)),
    );
    if (index < 0) return next();
    const fault = faults[index];
    fault.times -= 1;
    if (fault.times === 0) faults.splice(index, 1);
    if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (res.destroyed) return;
    if (fault.retryAfter !== undefined || fault.status === 429)
      res.setHeader('retry-after', String(fault.retryAfter ?? 1));
    if (fault.body !== undefined) {
      res.status(fault.status).type('text/html').send(fault.body);
      return;
    }
    sendError(
      res,
      fault.status,
      fault.status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL_ERROR',
      'Falha simulada pelo Banco Sandbox',
    );
  };
}

/** Banco Sandbox: an Open Finance Brasil institution (authorization server and data APIs) in one process. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const base = (options.publicUrl ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/$/, '');
  const consents = new ConsentStore();
  const today = () => options.today ?? new Date(sandboxNow()).toISOString().slice(0, 10);
  let built = { day: today(), customers: buildCustomers(today()) };
  const customers = () => {
    if (built.day !== today()) built = { day: today(), customers: buildCustomers(today()) };
    return built.customers;
  };
  const resource = `${base}/open-banking`;
  const provider = await createAuthorizationServer({ issuer: base, resource, clients: options.clients, consents });
  const faults: Fault[] = [];
  const answered = new AnswerClock();

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  let handle: Sandbox | undefined;
  app.use(
    '/sandbox',
    adminRoutes(() => handle as Sandbox),
  );
  // after the admin routes: reading the clock is no answer of the institution's
  app.use(answered.middleware());
  app.use('/open-banking', documentHeaders);
  app.use(faultsMiddleware(faults));
  app.use('/open-banking', requireInteractionId);
  app.use('/open-banking/consents/v3', consentsApi({ provider, consents, base }));
  app.use('/open-banking', dataApis({ provider, consents, customers, today, base }));
  app.use(
    '/interaction',
    interactionRoutes({ provider, consents, customers, resource, autoApprove: options.autoApprove ?? true }),
  );
  app.use(provider.callback());
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    sendError(res, 500, 'INTERNAL_ERROR', err.message);
  });
  server.on('request', app);

  const find = (consentId: string) => {
    const consent = consents.get(consentId);
    if (!consent) throw new Error(`no consent ${consentId}`);
    return consent;
  };
  handle = {
    url: base,
    issuer: base,
    get customers() {
      return customers();
    },
    consents,
    faults,
    answered,
    revokeAtInstitution: (consentId) =>
      rejectConsent({ provider, consents }, find(consentId), 'USER', 'CUSTOMER_MANUALLY_REVOKED'),
    expire: (consentId) => rejectConsent({ provider, consents }, find(consentId), 'ASPSP', 'CONSENT_EXPIRED'),
    settlePending() {
      for (const customer of customers()) {
        for (const account of customer.accounts) {
          for (const tx of account.transactions) {
            if (tx.completedAuthorisedPaymentType === 'TRANSACAO_EFETIVADA') continue;
            // the id of a processing or scheduled entry changes with its state
            tx.transactionId = `${tx.transactionId}-efetivada`;
            tx.completedAuthorisedPaymentType = 'TRANSACAO_EFETIVADA';
          }
        }
      }
    },
    async pause() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    async resume() {
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
    },
    async stop() {
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return handle;
}

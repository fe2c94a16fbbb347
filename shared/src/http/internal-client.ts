import { createRequire } from 'node:module';
import { TransactionContext } from '@mikro-orm/postgresql';
import type { Dispatcher, Agent as UndiciAgent } from 'undici';
import { type CallerContext, CONTEXT_HEADER, signContext } from '../context/signed-context.ts';
import { type HttpMethod, type NoInput, pathOf, type RouteContract } from '../contracts/route.ts';
import { AppError } from '../errors/app-error.ts';
import { injectTraceHeaders } from '../telemetry/tracing.ts';
import { type Answer, bodyOf, endpointOf, exchange } from './exchange.ts';
import { derivedIdempotencyKey, IDEMPOTENCY_HEADER, noteDerivedAnswer } from './idempotency.ts';

/** A call to one contract: its path parameters, query and body typed by the contract's schemas. */
export interface ContractCallOptions<P, Q, B> {
  context: CallerContext;
  params?: P;
  query?: Q;
  body?: B;
  requestId?: string;
}

interface CallOptions {
  context: CallerContext;
  query?: object;
  body?: unknown;
  requestId?: string;
}

const VERBS: Record<HttpMethod, Dispatcher.HttpMethod> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
};

// undici's entry also loads fetch, WebSocket, caches and mocks (≈90 modules, ≈3 MB of heap in every process,
// none of them used): only the Agent, from the file the entry re-exports it from
const Agent: typeof UndiciAgent = createRequire(import.meta.url)('undici/lib/dispatcher/agent.js');

/** One keep-alive pool per process for every service-to-service call. */
export const internalAgent = new Agent({
  connections: 64,
  keepAliveTimeout: 10_000,
  headersTimeout: 15_000,
  bodyTimeout: 30_000,
  connectTimeout: 5_000,
});

export function buildQueryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * House rule 9 (docs/architecture.md): no service waits on another while it holds a database transaction
 * (and so its row locks). MikroORM runs every `em.transactional` callback in an AsyncLocalStorage context;
 * a call made from inside one is a programming error and is refused before any byte leaves the process.
 */
export class CallInsideTransactionError extends Error {
  constructor(method: string, path: string) {
    super(`chamada interna ${method} ${path} feita com uma transação de banco aberta (regra 9 da arquitetura)`);
    this.name = 'CallInsideTransactionError';
  }
}

/** True while the current async context runs inside an open MikroORM transaction. */
export function insideOpenTransaction(): boolean {
  const em = TransactionContext.currentTransactionContext()?.em;
  return em ? em.isInTransaction() : false;
}

/** A path's parameters as the text they take in the URL. */
const textParams = (params: object | undefined): Record<string, string> =>
  params ? Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) : {};

/** Typed calls to another service's internal API, signing the caller's context; 4xx keep their status. */
export class InternalClient {
  readonly baseUrl: string;
  readonly secret: string;
  readonly dispatcher: Dispatcher;
  private readonly endpoint: { origin: string; prefix: string };
  calls = 0;

  constructor(baseUrl: string, secret: string, dispatcher: Dispatcher = internalAgent) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.secret = secret;
    this.dispatcher = dispatcher;
    this.endpoint = endpointOf(this.baseUrl);
  }

  /**
   * Calls a contract of another service (its method, and its path with `params` filled in); the answer's type
   * is the one the caller expects (`R`, inferred from where the result goes).
   */
  async send<R, P extends object = NoInput, Q extends object = NoInput, B = unknown>(
    contract: RouteContract<P, Q, B>,
    options: ContractCallOptions<P, Q, B>,
  ): Promise<R> {
    const bytes = await this.sendForBytes(contract, options);
    return (bytes.length ? JSON.parse(bytes.toString('utf8')) : undefined) as R;
  }

  /**
   * The same call answering the success body as the UTF-8 bytes it came in: for a large answer the caller
   * passes on as bytes, never decoded into a string nor encoded again.
   */
  async sendForBytes<P extends object = NoInput, Q extends object = NoInput, B = unknown>(
    contract: RouteContract<P, Q, B>,
    options: ContractCallOptions<P, Q, B>,
  ): Promise<Buffer> {
    return this.call(VERBS[contract.method], pathOf(contract, textParams(options.params)), options);
  }

  private async call(method: Dispatcher.HttpMethod, path: string, options: CallOptions): Promise<Buffer> {
    if (insideOpenTransaction()) throw new CallInsideTransactionError(method, path);
    this.calls += 1;
    const headers = injectTraceHeaders({ [CONTEXT_HEADER]: signContext(options.context, this.secret) });
    if (options.requestId) headers['x-request-id'] = options.requestId;
    // a write made for an idempotent request is idempotent in the other service too (a retry replays it)
    const idempotencyKey = derivedIdempotencyKey(method);
    if (idempotencyKey) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
    let payload: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.body);
    }
    let response: Answer;
    try {
      response = await exchange(this.dispatcher, this.endpoint.origin, {
        method,
        path: `${this.endpoint.prefix}${path}${buildQueryString(options.query)}`,
        headers,
        body: payload,
      });
    } catch {
      throw new AppError(503, 'Serviço interno indisponível');
    }
    if (idempotencyKey) noteDerivedAnswer(response.headers);
    const bytes = bodyOf(response);
    if (response.statusCode >= 400) {
      const data = bytes.length ? JSON.parse(bytes.toString('utf8')) : undefined;
      if (response.statusCode < 500 && data?.message) {
        throw new AppError(response.statusCode, data.message, { details: data.details });
      }
      throw new AppError(502, 'Falha em serviço interno');
    }
    return bytes;
  }
}

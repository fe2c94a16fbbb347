import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.ts';

export type { components, operations, paths };
/** A named record of the API, e.g. `Schema<'Account'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface FinanceClientOptions {
  /** Where the gateway listens, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** The key's public identifier, the HTTP Basic user name: the `token` (`fk_…`) `create-key` prints. */
  keyId: string;
  /** The key's secret, shown once by `create-key`. */
  secret: string;
  /** Another `fetch` (tests, proxies); the global one by default. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request besides the authorization (e.g. `x-request-id`). */
  headers?: Record<string, string>;
}

export type FinanceClient = Client<paths>;

/**
 * A typed client of the finance API: every path, parameter, body and answer comes from the OpenAPI
 * document (`src/schema.ts`, generated), so a call that does not match the API does not compile.
 *
 * ```ts
 * const api = createFinanceClient({ baseUrl: 'http://localhost:8080', keyId: 'fk_…', secret: '…' });
 * const { data, error } = await api.POST('/v1/accounts', { body: { name: 'Conta corrente', logo: '341' } });
 * ```
 */
export function createFinanceClient(options: FinanceClientOptions): FinanceClient {
  const credentials = btoa(`${options.keyId}:${options.secret}`);
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: options.fetch,
    headers: { ...options.headers, authorization: `Basic ${credentials}` },
  });
}

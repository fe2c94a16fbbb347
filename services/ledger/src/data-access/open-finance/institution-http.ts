import { randomUUID } from 'node:crypto';
import type Joi from 'joi';
import { Agent, fetch as undiciFetch } from 'undici';
import { BankError } from '../../domain/open-banking/bank-connector.ts';
import type { Institution } from '../../domain/open-banking/institutions.ts';

/** Calls to one institution: at most this many pages of one list (page-size 1000 each). */
const MAX_PAGES = 200;
/** 429 and 5xx are retried this many times with exponential backoff (Retry-After honoured up to the cap). */
export const RETRIES = 4;
const BACKOFF_MS = 250;
const MAX_WAIT_MS = 5000;

export interface HttpOptions {
  timeoutMs: number;
  /** Waits between retries (tests shorten them). */
  backoffMs?: number;
}

const agents = new WeakMap<Institution, Agent>();

/** The institution's transport: mutual TLS with our certificate where configured, plain HTTPS (or HTTP) otherwise. */
export function dispatcherOf(institution: Institution): Agent {
  let agent = agents.get(institution);
  if (!agent) {
    const mtls = institution.client.mtls;
    agent = new Agent({ connect: mtls ? { cert: mtls.cert, key: mtls.key, ca: mtls.ca } : {} });
    agents.set(institution, agent);
  }
  return agent;
}

/**
 * fetch to the institution: every call carries a new `x-fapi-interaction-id`, goes over its dispatcher and gives
 * up after `timeoutMs` (a BankError `timeout`).
 */
export function fapiFetch(institution: Institution, timeoutMs: number) {
  return async (
    url: string,
    init: { method?: string; headers?: Record<string, string> | Headers; body?: unknown; signal?: AbortSignal } = {},
  ) => {
    const headers = new Headers(init.headers as Record<string, string>);
    if (!headers.has('x-fapi-interaction-id')) headers.set('x-fapi-interaction-id', randomUUID());
    try {
      const options = {
        ...(init as object),
        headers: Object.fromEntries(headers),
        dispatcher: dispatcherOf(institution),
        signal: init.signal ?? AbortSignal.timeout(timeoutMs),
      } as unknown as Parameters<typeof undiciFetch>[1];
      return (await undiciFetch(url, options)) as unknown as Response;
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new BankError('timeout', `${institution.name} não respondeu em ${timeoutMs} ms`);
      }
      throw new BankError('unavailable', `${institution.name} está fora do ar (${(err as Error).message})`);
    }
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One call with its retries: 429 and 5xx (and a refused connection) are tried again after 250 ms, 500, 1 s, 2 s
 * (or the institution's Retry-After, up to 5 s); the answer is parsed and checked against `schema`.
 */
export async function callInstitution<T>(
  institution: Institution,
  options: HttpOptions,
  request: { url: string; method?: string; token: string; body?: unknown; schema?: Joi.Schema; accept?: number[] },
): Promise<{ status: number; body: T }> {
  const call = fapiFetch(institution, options.timeoutMs);
  let lastError: BankError | null = null;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    if (attempt > 0)
      await sleep(
        lastError?.status === 429 ? lastErrorWait(lastError) : (options.backoffMs ?? BACKOFF_MS) * 2 ** (attempt - 1),
      );
    let response: Response;
    try {
      response = await call(request.url, {
        method: request.method ?? 'GET',
        headers: {
          authorization: `Bearer ${request.token}`,
          accept: 'application/json',
          ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      });
    } catch (err) {
      if (err instanceof BankError && err.kind === 'unavailable') {
        lastError = err;
        continue;
      }
      throw err;
    }
    if (response.status === 429 || response.status >= 500) {
      const retryAfter = Number(response.headers.get('retry-after'));
      lastError = Object.assign(
        new BankError('unavailable', `${institution.name} respondeu ${response.status}`, response.status),
        {
          retryAfterMs:
            Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : (options.backoffMs ?? BACKOFF_MS),
        },
      );
      await response.body?.cancel();
      continue;
    }
    const accepted = request.accept ?? [200];
    if (!accepted.includes(response.status)) {
      await response.body?.cancel();
      throw new BankError('refused', `${institution.name} recusou a chamada (${response.status})`, response.status);
    }
    if (response.status === 204) return { status: 204, body: undefined as T };
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new BankError('invalid', `${institution.name} respondeu algo que não é JSON`);
    }
    if (request.schema) {
      const { error, value } = request.schema.validate(body, {
        allowUnknown: true,
        stripUnknown: false,
        convert: false,
      });
      if (error)
        throw new BankError(
          'invalid',
          `${institution.name} respondeu fora do padrão Open Finance: ${error.message}`.slice(0, 300),
        );
      body = value;
    }
    return { status: response.status, body: body as T };
  }
  throw lastError ?? new BankError('unavailable', `${institution.name} indisponível`);
}

function lastErrorWait(error: BankError): number {
  return Math.min(MAX_WAIT_MS, (error as BankError & { retryAfterMs?: number }).retryAfterMs ?? BACKOFF_MS);
}

/** Every record of a list, following `links.next` (only within the family's own origin, where the token belongs). */
export async function allPages<T>(
  institution: Institution,
  options: HttpOptions,
  request: { url: string; token: string; schema: Joi.Schema },
): Promise<T[]> {
  const origin = new URL(request.url).origin;
  const records: T[] = [];
  let url: string | undefined = request.url;
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const { body } = await callInstitution<{ data: T[]; links: { next?: string } }>(institution, options, {
      ...request,
      url,
    });
    records.push(...body.data);
    const next: string | undefined = body.links.next as string | undefined;
    if (next && new URL(next, url).origin !== origin) {
      throw new BankError('invalid', `${institution.name} indicou uma próxima página em outro endereço`);
    }
    url = next ? new URL(next, url).toString() : undefined;
  }
  return records;
}

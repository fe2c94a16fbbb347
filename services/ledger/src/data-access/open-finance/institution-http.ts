import { randomUUID } from 'node:crypto';
import type Joi from 'joi';
import { Agent, fetch as undiciFetch } from 'undici';
import { BankError, type SkippedRecord } from '../../domain/open-banking/bank-connector.ts';
import type { Institution } from '../../domain/open-banking/institutions.ts';
import { pageSchema } from './bank-schemas.ts';

/**
 * A list longer than this many pages is not a list an institution serves: the sync fails saying it was cut, never
 * imports part of it as if it were whole.
 */
const MAX_PAGES = 100_000;
/** 429 and 5xx are retried this many times with exponential backoff, or after the institution's `Retry-After`. */
export const RETRIES = 4;
const BACKOFF_MS = 250;
/** A `Retry-After` up to this long is waited for here; a longer one ends the sync, which is tried again after it. */
export const MAX_WAIT_MS = 5000;

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
    if (attempt > 0) {
      const asked = lastError?.retryAfterMs;
      // a long Retry-After is honoured by the job's delay, not by calls sooner than the institution asked
      if (asked !== undefined && asked > MAX_WAIT_MS) throw lastError as BankError;
      await sleep(asked ?? (options.backoffMs ?? BACKOFF_MS) * 2 ** (attempt - 1));
    }
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
      lastError = new BankError('unavailable', `${institution.name} respondeu ${response.status}`, response.status);
      lastError.retryAfterMs = retryAfterMs(response.headers.get('retry-after'));
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

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

const idOfRecord = (item: unknown): string | null => {
  if (typeof item !== 'object' || item === null) return null;
  for (const field of ['transactionId', 'accountId', 'creditCardAccountId', 'billId', 'investmentId', 'resourceId']) {
    const value = (item as Record<string, unknown>)[field];
    if (typeof value === 'string') return value.trim().slice(0, 100);
  }
  return null;
};

interface ListRequest {
  url: string;
  token: string;
  item: Joi.Schema;
  what: string;
  skipped: SkippedRecord[];
}

/** Every record of a list (`eachPage`), held together. */
export async function allPages<T>(institution: Institution, options: HttpOptions, request: ListRequest): Promise<T[]> {
  const records: T[] = [];
  await eachPage<T>(institution, options, request, async (page) => {
    records.push(...page);
  });
  return records;
}

/**
 * The records of a list page by page to `onPage` (one page held at a time), following `links.next` (only within
 * the family's own origin, where the token belongs), or the next page number while `meta.totalPages` says there is
 * one and `next` is missing. Each record is checked against `item` on its own: one that breaks the documents is
 * left out into `skipped`, the rest is read.
 */
export async function eachPage<T>(
  institution: Institution,
  options: HttpOptions,
  request: ListRequest,
  onPage: (records: T[]) => Promise<void>,
): Promise<void> {
  const origin = new URL(request.url).origin;
  let url: string | undefined = request.url;
  for (let page = 1; url; page++) {
    if (page > MAX_PAGES) {
      throw new BankError(
        'incomplete',
        `${institution.name} listou mais de ${MAX_PAGES} páginas: a lista ficou incompleta`,
      );
    }
    const { body } = await callInstitution<{
      data: unknown[];
      links: { next?: string };
      meta?: { totalPages?: number };
    }>(institution, options, { url, token: request.token, schema: pageSchema });
    const records: T[] = [];
    for (const [index, item] of body.data.entries()) {
      const { error, value } = request.item.validate(item, { allowUnknown: true, convert: false });
      if (!error) {
        records.push(value as T);
        continue;
      }
      const id = idOfRecord(item);
      request.skipped.push({
        record: `${request.what} ${id ?? `(página ${page}, item ${index + 1})`}`,
        reason: `fora do padrão Open Finance: ${error.message}`.slice(0, 300),
      });
    }
    await onPage(records);
    const next: string | undefined = body.links.next as string | undefined;
    if (next && new URL(next, url).origin !== origin) {
      throw new BankError('invalid', `${institution.name} indicou uma próxima página em outro endereço`);
    }
    if (next) url = new URL(next, url).toString();
    else if ((body.meta?.totalPages ?? 0) > page && body.data.length > 0) {
      const following = new URL(url);
      following.searchParams.set('page', String(page + 1));
      url = following.toString();
    } else url = undefined;
  }
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { request as httpRequest } from '@finance/shared/http/node-http';
import { isPublicAddress, TARGET_REFUSED } from '../domain/webhooks/target-address.ts';

export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** Every address a host name resolves to (an IP literal is itself). */
export async function resolveHost(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return [host];
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses: LookupAddress[]) =>
      err ? reject(err) : resolve(addresses.map((entry) => entry.address)),
    ),
  );
}

class RefusedTarget extends Error {}

/**
 * Resolves like the default lookup, then refuses when any address is not public: the check happens on the
 * addresses the socket will connect to, so a DNS answer changed after creation (rebinding) is caught too.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return (callback as (e: Error) => void)(err);
    if (addresses.some((entry) => !isPublicAddress(entry.address))) {
      return (callback as (e: Error) => void)(new RefusedTarget(TARGET_REFUSED));
    }
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};

/**
 * POSTs a delivery; any 2xx within the timeout is success, anything else (a redirect too: it is not
 * followed, so it cannot lead to a refused address) or no answer is a failure.
 */
export function sendWebhook(
  target: WebhookRequest,
  options: { allowPrivateTargets: boolean; timeoutMs: number },
): Promise<SendOutcome> {
  const started = performance.now();
  const done = (ok: boolean, statusCode: number | null, error: string | null): SendOutcome => ({
    ok,
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      resolve(done(false, null, 'URL inválida'));
      return;
    }
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivateTargets && isIP(literal) && !isPublicAddress(literal)) {
      resolve(done(false, null, TARGET_REFUSED));
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...target.headers, 'content-length': String(Buffer.byteLength(target.body)) },
        timeout: options.timeoutMs,
        ...(options.allowPrivateTargets ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        // the answer's body is not kept; reading it frees the socket
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          resolve(done(ok, status, ok ? null : `O receptor respondeu ${status}`));
        });
        response.on('error', (err) => resolve(done(false, response.statusCode ?? null, err.message)));
      },
    );
    // the whole exchange has the timeout, so a receiver dripping its answer cannot hold a worker
    const deadline = setTimeout(
      () => request.destroy(new Error(`Sem resposta em ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    deadline.unref();
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`Sem resposta em ${options.timeoutMs} ms`)));
    request.on('error', (err) =>
      resolve(done(false, null, err instanceof RefusedTarget ? err.message : `Falha de conexão: ${err.message}`)),
    );
    request.end(target.body);
  });
}

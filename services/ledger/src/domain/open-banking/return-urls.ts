import { invalidField } from '@finance/shared/errors/app-error';

/** Control characters, raw or percent-encoded (a CRLF in a Location header), and backslashes, which browsers read as `/`. */
const UNSAFE = /[\p{Cc}\\]|%(?:[01][0-9a-f]|7f)/iu;

/** An absolute URL a browser may be sent to: https (http where allowed), no credentials, nothing unsafe. */
function parseTarget(text: string, allowHttp: boolean): URL | null {
  if (UNSAFE.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return null;
  if (url.username || url.password) return null;
  return url;
}

/**
 * The deployment's allowed return addresses (OPEN_BANKING_RETURN_URLS: comma-separated origins with a path prefix),
 * or the first entry that is not one: https only in production, no credentials, query or fragment.
 */
export function parseReturnUrls(
  text: string | undefined,
  production: boolean,
): { urls: URL[]; invalid: null } | { urls: null; invalid: string } {
  const urls: URL[] = [];
  for (const entry of (text ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const url = parseTarget(entry, !production);
    if (!url || url.search || url.hash) return { urls: null, invalid: entry };
    urls.push(url);
  }
  return { urls, invalid: null };
}

/** `path` is `prefix` or lies under it (`/app/conexoes` takes `/app/conexoes/fim`, not `/app/conexoes-falsas`). */
const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/**
 * A connection's `redirect_uri`, where the callback sends the customer's browser (docs/decisions.md §9): it must
 * have the exact origin of an allowed return address and lie under its path, with no credentials, control
 * characters (raw or encoded) or backslashes. Loopback and private hosts pass only when an allowed address names
 * them; no allowed address means no `redirect_uri` is taken. 400 on `redirect_uri` otherwise.
 */
export function checkRedirectUri(value: string, allowed: readonly URL[]): void {
  const url = parseTarget(value, true);
  const accepted =
    url !== null && allowed.some((entry) => entry.origin === url.origin && under(url.pathname, entry.pathname));
  if (!accepted)
    throw invalidField('redirect_uri', 'redirect_uri deve ser um dos endereços de retorno permitidos nesta instalação');
}

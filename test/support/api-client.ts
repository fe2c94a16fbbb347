import { openApiMismatches } from './openapi-check.ts';

export interface KeyCredentials {
  keyId: string;
  token: string;
  secret: string;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A client as API users have one: HTTP Basic with a key, JSON in and out. Every request and answer is
 * checked against the OpenAPI document the gateway serves (test/support/openapi-check.ts): a mismatch
 * throws, so the test that made the call fails.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly key?: KeyCredentials;

  constructor(baseUrl: string, key?: KeyCredentials) {
    this.baseUrl = baseUrl;
    this.key = key;
  }

  authorization(): string | undefined {
    return this.key ? `Basic ${Buffer.from(`${this.key.token}:${this.key.secret}`).toString('base64')}` : undefined;
  }

  async request<T = any>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      /** A body sent as is (a statement file: text or bytes). */
      rawBody?: string | Uint8Array;
      headers?: Record<string, string>;
      /** Skip the OpenAPI check, for a test about what lies outside the document. */
      unchecked?: boolean;
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const auth = this.authorization();
    if (auth && !('authorization' in headers)) headers.authorization = auth;
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body }).catch((err: Error) => {
      // undici's "fetch failed" names neither the request nor the cause: the test's failure should
      throw new Error(`${method} ${path}: ${err.message} (${String((err.cause as Error | undefined)?.message)})`, {
        cause: err,
      });
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // non-JSON bodies (docs page) stay text
    }
    if (!options.unchecked) {
      const mismatches = openApiMismatches({
        method,
        url: path,
        body: options.body,
        rawBody: options.rawBody === undefined ? undefined : String(options.rawBody),
        status: response.status,
        responseBody: typeof parsed === 'string' ? undefined : parsed,
        headers: response.headers,
      });
      if (mismatches.length) throw new Error(`OpenAPI document and server disagree:\n${mismatches.join('\n')}`);
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, { body });
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, { body });
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, { body });
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

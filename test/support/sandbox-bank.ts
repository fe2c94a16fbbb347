import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { now } from '@finance/shared/clock';
import { exportJWK, generateKeyPair } from 'jose';
import type { Consent } from '../../sandbox/src/consents.ts';
import { directoryEntry, SANDBOX_SERVER_ID } from '../../sandbox/src/directory.ts';
import type { Fault } from '../../sandbox/src/server.ts';
import type { ApiClient } from './api-client.ts';
import { waitFor } from './wait-for.ts';

export const SANDBOX_CLIENT_ID = 'finance-api-test';
/** The sandbox's customer with a card, a year of entries and investments; the other has one account. */
export const ANA_CPF = '76109277673';
export const BRUNO_CPF = '52998224725';

export interface SandboxStart {
  /** `YYYY-MM-DD` the data is built around (default: the UTC day of its clock, which runs from the test clock's now). */
  today?: string;
  /** false: the authorization page shows a form instead of approving at once. */
  autoApprove?: boolean;
}

/**
 * Banco Sandbox in its own process (as an institution is: only HTTP between it and us), driven by a test through
 * its `/sandbox` admin routes and by signals: SIGSTOP makes it silent (down), SIGCONT brings it back.
 */
export class SandboxProcess {
  readonly url: string;
  private readonly child: ChildProcess;

  private constructor(url: string, child: ChildProcess) {
    this.url = url;
    this.child = child;
  }

  static async start(env: Record<string, string>): Promise<SandboxProcess> {
    const child = spawn(process.execPath, ['sandbox/src/main.ts'], {
      env: { ...process.env, SANDBOX_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Banco Sandbox did not start within 20 s')), 20_000);
      child.once('exit', (code) => reject(new Error(`Banco Sandbox exited with ${code}`)));
      lines.on('line', (line) => {
        try {
          const parsed = JSON.parse(line) as { url?: string };
          if (parsed.url) {
            clearTimeout(timer);
            resolve(parsed.url);
          }
        } catch {
          // not its start line
        }
      });
    });
    child.stderr?.resume();
    return new SandboxProcess(url, child);
  }

  private async admin(method: string, path: string, body?: unknown): Promise<Response> {
    const response = await fetch(`${this.url}/sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 400) throw new Error(`sandbox ${method} ${path}: ${response.status}`);
    return response;
  }

  async consents(): Promise<Consent[]> {
    return (await (await this.admin('GET', '/consents')).json()) as Consent[];
  }
  async revokeAtInstitution(consentId: string) {
    await this.admin('POST', `/consents/${encodeURIComponent(consentId)}/revoke`);
  }
  async expire(consentId: string) {
    await this.admin('POST', `/consents/${encodeURIComponent(consentId)}/expire`);
  }
  async fault(fault: Omit<Fault, 'delayMs' | 'retryAfter'> & { delay_ms?: number; retry_after?: number }) {
    await this.admin('POST', '/faults', fault);
  }
  /** The faults still waiting to be answered. */
  async faultsLeft(): Promise<Fault[]> {
    return (await (await this.admin('GET', '/faults')).json()) as Fault[];
  }
  async clearFaults() {
    await this.admin('DELETE', '/faults');
  }
  /** Its own answer time since the last reset: every answer but the admin routes', summed, and their count. */
  async answered(): Promise<{ ms: number; answers: number; busy_ms: number }> {
    return (await (await this.admin('GET', '/answered')).json()) as { ms: number; answers: number; busy_ms: number };
  }
  async resetAnswered() {
    await this.admin('DELETE', '/answered');
  }
  async settlePending() {
    await this.admin('POST', '/settle');
  }
  /** The institution drops an account's entry (a scheduled payment cancelled). */
  async dropRecord(record: { cpf: string; account_id: string; transaction_id: string }) {
    await this.admin('DELETE', '/records', record);
  }
  /** Appends records, as given, to an account's entries or a card's open ones (what some institutions send). */
  async addRecords(records: { cpf: string; account_id?: string; card_id?: string; transactions: unknown[] }) {
    await this.admin('POST', '/records', records);
  }
  /** The institution stops answering (its process is stopped; connections hang until our timeout). */
  pause() {
    this.child.kill('SIGSTOP');
  }
  resume() {
    this.child.kill('SIGCONT');
  }
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGCONT');
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/**
 * Banco Sandbox on a free port, with this API registered as a client (a fresh PS256 key pair, the gateway's
 * callback as redirect URI), and the ledger configuration that points at it (participants list and client).
 */
export async function sandboxFor(redirectUri: string, options: SandboxStart = {}) {
  const { privateKey, publicKey } = await generateKeyPair('PS256', { extractable: true });
  const kid = 'test-signing-1';
  const sandbox = await SandboxProcess.start({
    SANDBOX_CLIENTS: JSON.stringify([
      {
        client_id: SANDBOX_CLIENT_ID,
        jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'PS256', use: 'sig' }] },
        redirect_uris: [redirectUri],
      },
    ]),
    // the institution's business clock runs from the test's (TEST_NOW): its data's days and consents' dates agree
    SANDBOX_NOW: now().toISOString(),
    ...(options.today ? { SANDBOX_TODAY: options.today } : {}),
    ...(options.autoApprove === false ? { SANDBOX_AUTO_APPROVE: 'false' } : {}),
  });
  const ledgerEnv = {
    OPEN_BANKING_PARTICIPANTS: JSON.stringify([directoryEntry(sandbox.url)]),
    OPEN_BANKING_CLIENTS: JSON.stringify([
      {
        authorisation_server_id: SANDBOX_SERVER_ID,
        client_id: SANDBOX_CLIENT_ID,
        signing_key: { ...(await exportJWK(privateKey)), kid, alg: 'PS256' },
        signing_key_id: kid,
        test_cpf: ANA_CPF,
      },
    ]),
    OPEN_BANKING_REDIRECT_URI: redirectUri,
    OPEN_BANKING_ALLOW_HTTP: 'true',
  };
  return { sandbox, ledgerEnv };
}

/**
 * What the customer's browser does with an authorization URL: follows the institution's redirects (keeping its
 * cookies) until the one to our callback, which it returns unopened.
 */
export async function authorizeInBrowser(authorizationUrl: string, callbackPrefix: string): Promise<string> {
  const cookies = new Map<string, string>();
  let next = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the institution stopped at ${next}: ${response.status} ${await response.text()}`);
    next = new URL(location, next).href;
    if (next.startsWith(callbackPrefix)) return next;
  }
  throw new Error('too many redirects at the institution');
}

/** What the connect flow hands a test: the connection and the callback URL the institution sent the browser to. */
export interface Connected {
  id: string;
  callback: string;
}

/**
 * Creates a connection to Banco Sandbox through the gateway and has the customer authorise it; `complete: false`
 * stops before the callback is opened (the connection still AWAITING_AUTHORISATION).
 */
export async function connectSandbox(
  gatewayUrl: string,
  api: { post(path: string, body?: unknown): Promise<{ status: number; body: any }> },
  options: { cpf?: string; complete?: boolean } = {},
): Promise<Connected> {
  const created = await api.post('/v1/open-banking/connections', {
    institution_id: SANDBOX_SERVER_ID,
    cpf: options.cpf ?? ANA_CPF,
  });
  if (created.status !== 201) throw new Error(`connection: ${created.status} ${JSON.stringify(created.body)}`);
  const callback = await authorizeInBrowser(created.body.authorization_url, `${gatewayUrl}/v1/open-banking/callback`);
  if (options.complete !== false) {
    const answer = await fetch(callback);
    if (answer.status !== 200) throw new Error(`callback: ${answer.status} ${await answer.text()}`);
  }
  return { id: created.body.id, callback };
}

/** The connection once a sync's import finished (a newer import than `after`), with that import job. */
export function syncedImport(api: ApiClient, id: string, after: string | null = null) {
  return waitFor(
    async () => {
      const connection = (await api.get(`/v1/open-banking/connections/${id}`)).body;
      if (!connection.last_import_job_id || connection.last_import_job_id === after) return false;
      const job = (await api.get(`/v1/jobs/${connection.last_import_job_id}`)).body;
      return job.state === 'completed' || job.state === 'failed' ? { connection, job } : false;
    },
    60_000,
    250,
  );
}

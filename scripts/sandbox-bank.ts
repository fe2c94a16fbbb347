import { exportJWK, generateKeyPair } from 'jose';
import { directoryEntry, SANDBOX_SERVER_ID } from '../sandbox/src/directory.ts';

/** Banco Sandbox's test customer with a card, a year of entries and investments (docs/open-banking.md). */
const SANDBOX_CPF = '76109277673';
const CLIENT_ID = 'finance-api-local';

/**
 * Whether `npm start` runs Banco Sandbox: in development unless `SANDBOX_BANK=off`, in production only with
 * `SANDBOX_BANK=on`; never when the operator configured institutions of their own (OPEN_BANKING_PARTICIPANTS).
 */
export function runsSandbox(env: NodeJS.ProcessEnv): boolean {
  if (env.OPEN_BANKING_PARTICIPANTS || env.SANDBOX_BANK === 'off') return false;
  return env.NODE_ENV !== 'production' || env.SANDBOX_BANK === 'on';
}

/**
 * The sandbox's environment and the ledger's to connect to it: a PS256 key pair made for this start (the
 * private key lives only in the ledger process's environment), the sandbox's directory entry as the
 * participants list, and the gateway's callback as the registered redirect URI.
 */
export async function sandboxEnvironments(env: NodeJS.ProcessEnv, gatewayPort: string) {
  const port = env.SANDBOX_PORT ?? '8090';
  const base = env.SANDBOX_PUBLIC_URL ?? `http://127.0.0.1:${port}`;
  const redirectUri = env.OPEN_BANKING_REDIRECT_URI ?? `http://localhost:${gatewayPort}/v1/open-banking/callback`;
  const { privateKey, publicKey } = await generateKeyPair('PS256', { extractable: true });
  const kid = `local-${Date.now()}`;
  return {
    sandbox: {
      SANDBOX_PORT: port,
      SANDBOX_CLIENTS: JSON.stringify([
        {
          client_id: CLIENT_ID,
          jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'PS256', use: 'sig' }] },
          redirect_uris: [redirectUri],
        },
      ]),
    },
    ledger: {
      OPEN_BANKING_PARTICIPANTS: JSON.stringify([directoryEntry(base)]),
      OPEN_BANKING_CLIENTS: JSON.stringify([
        {
          authorisation_server_id: SANDBOX_SERVER_ID,
          client_id: CLIENT_ID,
          signing_key: { ...(await exportJWK(privateKey)), kid, alg: 'PS256' },
          signing_key_id: kid,
          test_cpf: SANDBOX_CPF,
        },
      ]),
      OPEN_BANKING_REDIRECT_URI: redirectUri,
      OPEN_BANKING_ALLOW_HTTP: 'true',
    },
  };
}

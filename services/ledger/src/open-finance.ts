import type { LedgerRuntime } from './config.ts';
import { jsonOrFile } from './data-access/open-finance/institution-config.ts';
import { openFinanceConnector } from './data-access/open-finance/open-finance-connector.ts';
import { pluggyConnector } from './data-access/pluggy/pluggy-connector.ts';
import { type Institution, parseInstitutions } from './domain/open-banking/institutions.ts';
import type { OpenFinance } from './domain/open-banking/open-finance.ts';
import { parseReturnUrls } from './domain/open-banking/return-urls.ts';
import { SecretBox } from './domain/open-banking/secret-box.ts';
import { webhookToken } from './domain/open-banking/webhook-token.ts';

const wired = new WeakMap<LedgerRuntime, { keys: string; value: OpenFinance }>();

/**
 * The ledger's Open Finance wiring: the institutions of its configuration, the connector and the keyring.
 * Built once per running service (again if the keyring changes: a rotation takes effect on the next call).
 */
export function openFinanceFor(runtime: LedgerRuntime): OpenFinance {
  const config = runtime.config;
  const keys = config.OPEN_BANKING_ENCRYPTION_KEYS ?? '';
  const cached = wired.get(runtime);
  if (cached && cached.keys === keys) return cached.value;
  let secrets: SecretBox | undefined;
  let institutions: Institution[] | undefined;
  const value: OpenFinance = {
    institutions: () => {
      institutions ??= parseInstitutions(
        jsonOrFile(config.OPEN_BANKING_PARTICIPANTS),
        jsonOrFile(config.OPEN_BANKING_CLIENTS),
        () => value.secrets,
      );
      return institutions;
    },
    // built on first use: a deployment with no institution has no key (OPEN_BANKING_ENCRYPTION_KEYS)
    get secrets() {
      secrets ??= new SecretBox(keys);
      return secrets;
    },
    connector:
      cached?.value.connector ??
      openFinanceConnector({ timeoutMs: config.OPEN_BANKING_TIMEOUT_MS, allowHttp: config.OPEN_BANKING_ALLOW_HTTP }),
    pluggy:
      cached?.value.pluggy ??
      (config.PLUGGY_CLIENT_ID && config.PLUGGY_CLIENT_SECRET
        ? pluggyConnector({
            clientId: config.PLUGGY_CLIENT_ID,
            clientSecret: config.PLUGGY_CLIENT_SECRET,
            apiUrl: config.PLUGGY_API_URL,
          })
        : null),
    pluggyWebhookUrl: config.PLUGGY_WEBHOOK_URL ?? null,
    pluggyWebhook: config.PLUGGY_WEBHOOK_URL
      ? {
          // the configuration was checked at start: the URL carries its token
          token: webhookToken(config.PLUGGY_WEBHOOK_URL) as string,
          intervalSeconds: config.PLUGGY_WEBHOOK_INTERVAL_MS / 1000,
        }
      : null,
    redirectUri: config.OPEN_BANKING_REDIRECT_URI,
    // the configuration was checked at start: each entry parses
    returnUrls: parseReturnUrls(config.OPEN_BANKING_RETURN_URLS, config.NODE_ENV === 'production').urls ?? [],
    consentDays: config.OPEN_BANKING_CONSENT_DAYS,
    syncLeaseSeconds: Math.ceil((config.OPEN_BANKING_TIMEOUT_MS * 40) / 1000) + 60,
  };
  wired.set(runtime, { keys, value });
  return value;
}

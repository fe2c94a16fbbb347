import type { CallerContext } from '../context/signed-context.ts';
import type { InternalClient } from '../http/internal-client.ts';

/** Internal path ledger serves for the other services: the context's preferences they need live. */
export const LEDGER_CONTEXT_PATHS = {
  timeZone: '/internal/v1/context/time-zone',
} as const;

/** The IANA zone of the caller's context (set in `/v2/personal-config`; default America/Sao_Paulo), read live. */
export async function fetchTimeZone(http: InternalClient, context: CallerContext): Promise<string> {
  const body = await http.get<{ time_zone: string }>(LEDGER_CONTEXT_PATHS.timeZone, { context });
  return body.time_zone;
}

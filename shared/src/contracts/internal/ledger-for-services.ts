import { defineRoute } from '../route.ts';

/** The context's preferences every other service needs live from the ledger. */
export const ledgerForServicesRoutes = [
  defineRoute({
    operationId: 'getContextTimeZone',
    method: 'get',
    path: '/internal/v1/context/time-zone',
    service: 'ledger',
    internal: true,
    tag: 'Internal: ledger for every service',
    summary: "The IANA zone of the context's today (set in `/v2/personal-config`; default America/Sao_Paulo)",
    responses: { 200: { description: '`{time_zone}`' } },
  }),
];

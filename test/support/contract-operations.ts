/**
 * The operations of the published API contract that this project was built to (the endpoints every client
 * of the first version relies on). The OpenAPI document must keep documenting each of them, whatever else
 * it grows; `docs-browser.test.ts` checks that /docs lists them all.
 */
export const CONTRACT_OPERATIONS = [
  'DELETE /v1/accounts/{id}',
  'GET /v1/investments/yield',
  'GET /v1/reports/subcategory-details',
  'GET /v2/bills/show-by-card/{cardId}',
  'GET /v2/bills/show-by-card/{cardId}/transactions',
  'GET /v2/goals/{id}',
  'PATCH /v1/categorization-rules/{id}',
  'PATCH /v2/bills/closing-date/by-card/{cardId}',
  'POST /v1/accounts',
  'POST /v1/spending-limits',
  'POST /v1/transactions',
  'POST /v1/transactions/create-transfer',
  'POST /v1/transactions/{id}/duplicate',
  'POST /v1/transactions/{id}/installments',
  'POST /v2/goals/{id}/values',
  'POST /v2/transactions/{id}/settle',
  'PUT /v1/accounts/{id}',
  'PUT /v2/business/dre-mapping',
  'PUT /v2/personal-config',
  'PUT /v2/transactions/duplicate/update-many',
] as const;

import { publicRoutes } from '@finance/shared/contracts/index';

/** Whether the gateway serves this route today (others land routes while the harness exists). */
export function routeExists(method: string, path: string): boolean {
  return publicRoutes.some((route) => route.method === method.toLowerCase() && route.path === path);
}

export const ROUTES = {
  createTransaction: ['post', '/v1/transactions'],
  listTransactions: ['get', '/v1/transactions'],
  createCard: ['post', '/v1/credit-cards'],
  showBill: ['get', '/v2/bills/show-by-card/:cardId'],
  subcategoryReport: ['get', '/v1/reports/subcategory-details'],
  summaryReport: ['get', '/v1/reports/summary'],
  cashFlowReport: ['get', '/v1/reports/cash-flow'],
  investmentYield: ['get', '/v1/investments/yield'],
  createRule: ['post', '/v1/categorization-rules'],
  updateRule: ['patch', '/v1/categorization-rules/:id'],
  getJob: ['get', '/v1/jobs/:id'],
  openBankingImport: ['post', '/v1/open-banking/imports'],
} as const satisfies Record<string, readonly [string, string]>;

export type RouteName = keyof typeof ROUTES;

export const available = (name: RouteName): boolean => routeExists(ROUTES[name][0], ROUTES[name][1]);

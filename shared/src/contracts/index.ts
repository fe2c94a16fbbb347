import { billRoutes } from './billing/bills.ts';
import { creditCardRoutes } from './billing/credit-cards.ts';
import { insightsRoutes } from './insights/index.ts';
import { accountRoutes } from './ledger/accounts.ts';
import { businessRoutes } from './ledger/business.ts';
import { categoryRoutes } from './ledger/categories.ts';
import { categorizationRuleRoutes } from './ledger/categorization-rules.ts';
import { jobRoutes } from './ledger/jobs.ts';
import { openBankingRoutes } from './ledger/open-banking.ts';
import { connectionRoutes } from './ledger/open-banking-connections.ts';
import { personalConfigRoutes } from './ledger/personal-config.ts';
import { reconciliationRoutes } from './ledger/reconciliation.ts';
import { statementRoutes } from './ledger/statements.ts';
import { tagRoutes } from './ledger/tags.ts';
import { transactionSplitRoutes } from './ledger/transaction-splits.ts';
import { transactionRoutes } from './ledger/transactions.ts';
import type { AnyRoute } from './route.ts';

/** The public route table: the gateway routes and documents exactly these. */
export const publicRoutes: AnyRoute[] = [
  ...accountRoutes,
  ...creditCardRoutes,
  ...billRoutes,
  ...transactionRoutes,
  ...transactionSplitRoutes,
  ...categoryRoutes,
  ...categorizationRuleRoutes,
  ...tagRoutes,
  ...personalConfigRoutes,
  ...businessRoutes,
  ...insightsRoutes,
  ...jobRoutes,
  ...openBankingRoutes,
  ...statementRoutes,
  ...reconciliationRoutes,
  ...connectionRoutes,
];

import Joi from 'joi';
import { anyUuid, errorSchema, type PeriodQuery } from '../common.ts';
import { DRE_GROUPS } from '../ledger/categories.ts';
import { defineRoute } from '../route.ts';
import { validDay } from './fields.ts';

const periodQuery = Joi.object<PeriodQuery>({ start_date: validDay().required(), end_date: validDay().required() });

const reportItem = Joi.object({
  id: anyUuid().required(),
  title: Joi.string().required(),
  value: Joi.number().integer().required(),
  percentage: Joi.string()
    .pattern(/^\d{1,3}\.\d{2}$/)
    .required(),
  is_essential: Joi.boolean().required(),
  icon_name: Joi.string().required(),
  icon_background_color: Joi.string().required(),
  image: Joi.string().allow(null).required(),
}).label('SubcategoryReportItem');

const invalid = { description: 'Missing or invalid period (end before start is 400)', schema: errorSchema };
/** The currency rule of every total (docs/decisions.md §5). */
const BRL_ONLY =
  'Amounts are BRL cents and count BRL entries only: an entry in another currency is left out (no conversion).';
const PREFERENCES =
  'Personal configuration (`/v2/personal-config`, defaults until saved) applies: transfers count only with `include_transfers`, bill payments only with `include_bill_payments`.';

export const reportRoutes = [
  defineRoute({
    operationId: 'subcategoryReport',
    method: 'get',
    path: '/v1/reports/subcategory-details',
    service: 'insights',
    tag: 'Reports',
    summary: 'Spending and income by subcategory',
    description: `Live transactions dated from \`start_date\` to \`end_date\` (both required, inclusive), account and card, grouped by subcategory; a split transaction counts by its parts, each under its own subcategory or category; a transaction with a category but no subcategory groups under its category (id, name and display fields of the category); uncategorized ones and the previous-balance entries a bill rollover carries (their purchases already count) are left out. Each list is sorted by value descending; \`percentage\` strings have two decimals and sum to exactly \`100.00\` per list (largest remainder). ${PREFERENCES} ${BRL_ONLY}`,
    query: periodQuery,
    responses: {
      200: {
        description: 'The report',
        schema: Joi.object({
          expenses_subcategories: Joi.array().items(reportItem).required(),
          incomes_subcategories: Joi.array().items(reportItem).required(),
        }).label('SubcategoryReport'),
      },
      400: invalid,
    },
  }),
  defineRoute({
    operationId: 'summaryReport',
    method: 'get',
    path: '/v1/reports/summary',
    service: 'insights',
    tag: 'Reports',
    summary: 'Totals of the context for a period',
    description:
      "`total_balance`: current balances of live accounts with `include_total_balance` (investment accounts only with `include_investments`). `income` / `expenses`: live entries dated in the period. The open bill of a card is its bill whose period holds today (billing status `OPEN`; a current bill whose entries are fully paid is `PAID`, not open): with `show_open_bill: false` its purchases dated in the period are left out of `income`/`expenses` (purchases of closed, overdue or paid bills always count). `to_pay`: unpaid account expenses in the period plus, with `include_current_bill_in_to_pay` (default true), the open bills' purchases dated in the period; `to_receive`: unpaid account income in the period. " +
      `${PREFERENCES} A forecast settled by automatic reconciliation (\`reconciled_at\` set, see \`auto_reconcile_enabled\`) counts nowhere (not in \`to_pay\`/\`to_receive\`, \`income\`/\`expenses\` nor balances): the imported entry that settled it does. ${BRL_ONLY}`,
    query: periodQuery,
    responses: {
      200: {
        description: 'The totals in cents',
        schema: Joi.object({
          total_balance: Joi.number().integer().required(),
          income: Joi.number().integer().required(),
          expenses: Joi.number().integer().required(),
          to_pay: Joi.number().integer().required(),
          to_receive: Joi.number().integer().required(),
        }).label('SummaryReport'),
      },
      400: invalid,
    },
  }),
  defineRoute({
    operationId: 'businessDre',
    method: 'get',
    path: '/v2/business/dre',
    service: 'insights',
    tag: 'Business',
    business: true,
    summary: 'Income statement (DRE) for a period',
    description:
      'Live transactions by competence date (falling back to the date) from `start_date` to `end_date`, inclusive, per DRE group (a split transaction by its parts, each by its own category): the company mapping (`/v2/business/dre-mapping`) wins, then the category default as that mapping shows it (a system category has its own group; `receita` for an income category, `despesas_operacionais` for an expense one, whatever the direction of the entry), then, for uncategorized entries and entries of a category without direction (`is_expense` null), `receita` for income and `despesas_operacionais` for expenses. Transfers and bill payments are not results. `total` = income − expenses of the group; the result lines add the groups in DRE order. ' +
      BRL_ONLY,
    query: periodQuery,
    responses: {
      200: {
        description: 'The statement in cents',
        schema: Joi.object({
          start_date: Joi.string().required(),
          end_date: Joi.string().required(),
          groups: Joi.array()
            .items(
              Joi.object({
                dre_group: Joi.string()
                  .valid(...DRE_GROUPS)
                  .required(),
                label: Joi.string().required(),
                income: Joi.number().integer().required(),
                expenses: Joi.number().integer().required(),
                total: Joi.number().integer().required(),
              }).label('DreGroup'),
            )
            .required(),
          receita_liquida: Joi.number().integer().required(),
          lucro_bruto: Joi.number().integer().required(),
          resultado_operacional: Joi.number().integer().required(),
          resultado_liquido: Joi.number().integer().required(),
        }).label('Dre'),
      },
      400: invalid,
      403: { description: 'Not a company key with an active license', schema: errorSchema },
    },
  }),
];

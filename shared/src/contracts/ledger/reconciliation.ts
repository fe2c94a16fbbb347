import Joi from 'joi';
import { anyUuid, errorSchema, idParams, listQuery, type PageQuery } from '../common.ts';
import { defineRoute } from '../route.ts';
import { transactionSchema } from './transactions.ts';

export interface ReconcileBody {
  transaction_id: string;
}

const suggestionSchema = Joi.object({
  forecast: transactionSchema.required().description('The unpaid manual entry'),
  transaction: transactionSchema.required().description('The effected imported entry that would settle it'),
}).label('ReconciliationSuggestion');

const RULE =
  "The matching rule of every import (docs/decisions.md §9): a live, unpaid, manual (not imported), not reconciled entry, and a live, paid, imported entry not yet reconciled with another forecast, on the same account (or card), with the same amount and direction, dated at most 5 days apart; each pair is each other's best candidate (closest dates, then the oldest forecast).";

export const reconciliationRoutes = [
  defineRoute({
    operationId: 'listReconciliationSuggestions',
    method: 'get',
    path: '/v1/reconciliation/suggestions',
    service: 'ledger',
    tag: 'Transactions',
    summary: 'Forecasts an imported entry would settle, for the user to accept or leave',
    description: `${RULE} With \`auto_reconcile_enabled\` an import reconciles these pairs itself; otherwise they are listed here, by forecast id, until accepted with \`POST /v1/transactions/{id}/reconcile\`.`,
    query: Joi.object<PageQuery>(listQuery),
    responses: {
      200: {
        description: 'A page of suggestions',
        schema: Joi.object({
          data: Joi.array().items(suggestionSchema).required(),
          next_cursor: Joi.string().allow(null).required(),
        }).label('ReconciliationSuggestionPage'),
      },
    },
  }),
  defineRoute({
    operationId: 'reconcileTransaction',
    method: 'post',
    path: '/v1/transactions/:id/reconcile',
    service: 'ledger',
    tag: 'Transactions',
    summary: 'Reconcile a forecast with the entry that settled it',
    description:
      '`{id}` is the forecast: a live, unpaid, not imported entry not reconciled yet (else 409); `transaction_id` is the real entry: a live, paid entry of the context, in the same direction (400 otherwise), not reconciled with another forecast (409). The forecast gets `reconciled_with_transaction_id`, `reconciled_at` and `reconciled_by_user_id` and stops counting in reports; the real entry counts. Answers the forecast. Either id of another context is 404.',
    params: idParams,
    body: Joi.object<ReconcileBody>({ transaction_id: anyUuid().required() }),
    example: { transaction_id: '01a2208b-5723-742d-ae30-01dc675aa830' },
    responses: {
      200: { description: 'The forecast, reconciled', schema: transactionSchema },
      404: { description: 'Unknown forecast or entry in this context', schema: errorSchema },
      409: { description: 'Already reconciled, or not a forecast', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'unreconcileTransaction',
    method: 'post',
    path: '/v1/transactions/:id/unreconcile',
    service: 'ledger',
    tag: 'Transactions',
    summary: 'Undo a reconciliation',
    description:
      "`{id}` is the reconciled forecast, or the entry it was reconciled with: the forecast's `reconciled_*` fields are cleared and it counts again as an unpaid forecast (an automatic reconciliation is undone the same way). Answers the forecast. 409 when neither is reconciled.",
    params: idParams,
    responses: {
      200: { description: 'The forecast, no longer reconciled', schema: transactionSchema },
      404: { description: 'Unknown transaction in this context', schema: errorSchema },
      409: { description: 'Nothing reconciled', schema: errorSchema },
    },
  }),
  defineRoute({
    operationId: 'unlinkTransaction',
    method: 'post',
    path: '/v1/transactions/:id/unlink',
    service: 'ledger',
    tag: 'Transactions',
    summary: 'Undo what an import linked: a bill payment or a transfer it found',
    description:
      "For a match the import's rules made that the user says is wrong (docs/decisions.md §9). `{id}` is an account debit an import took as a bill's payment: it becomes a plain expense again (one made with `POST /v2/bills/{id}/pay` stays a payment), and the payment the bank reported waits on its card as a payment of that bill (the bill stays as the bank says). Or `{id}` is a leg of a transfer an import found (two legs in the context's accounts, or one to the holder's own account elsewhere or to or from an investment): its imported legs become plain entries. An entry unlinked is never linked again by a later import. Answers the entry. 409 when no import linked it (a transfer made with `create-transfer`, a plain entry).",
    params: idParams,
    responses: {
      200: { description: 'The entry, no longer linked', schema: transactionSchema },
      404: { description: 'Unknown transaction in this context', schema: errorSchema },
      409: { description: 'Nothing an import linked', schema: errorSchema },
    },
  }),
];

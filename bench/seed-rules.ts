import type { ApiClient } from '../test/support/api-client.ts';
import type { TestStack } from '../test/support/stack.ts';
import { available } from './routes.ts';
import type { BenchRule } from './seed.ts';
import type { Merchant } from './seed-sql.ts';

interface RuleContext {
  api: ApiClient;
  userId: string;
  profileId: string | null;
}

export interface RuleSeedInput {
  personal: RuleContext;
  company: RuleContext;
  merchants: Merchant[];
  ruleMerchant: Merchant;
  /** Category the benchmark rule's PATCH moves the matched rows to. */
  target: { categoryId: string; subcategoryId: string };
}

/** A seeded transaction of this merchant in the context, with its category: the rule's source. */
async function sourceOf(stack: TestStack, ctx: RuleContext, merchant: Merchant) {
  const rows = await stack.sql<{ id: string; category_id: string | null; subcategory_id: string | null }>(
    `select id, category_id, subcategory_id from ledger.transactions
     where user_id = $1 and profile_id is not distinct from $2 and merchant_name = $3 and is_expense
       and category_id is not null and deleted_at is null
     order by date, id limit 1`,
    [ctx.userId, ctx.profileId, merchant.name],
  );
  return rows[0] ?? null;
}

async function createRule(ctx: RuleContext, body: Record<string, unknown>): Promise<string> {
  const response = await ctx.api.post('/v1/categorization-rules', body);
  if (response.status !== 201 && response.status !== 200) {
    throw new Error(`POST /v1/categorization-rules: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.rule.id;
}

/**
 * Through the API: a rule per merchant of the person (by name, keeping the category the rows have) and
 * the company's rule on the acquirer's CNPJ (keeping its rows where they are until the benchmark PATCH).
 */
export async function seedRules(stack: TestStack, input: RuleSeedInput) {
  if (!available('createRule')) {
    return { created: 0, benchRule: null, notes: ['rules: POST /v1/categorization-rules not available; none seeded'] };
  }
  let created = 0;
  for (const merchant of input.merchants.slice(0, 8)) {
    const source = await sourceOf(stack, input.personal, merchant);
    if (!source) continue;
    await createRule(input.personal, {
      source_transaction_id: source.id,
      category_id: source.category_id,
      subcategory_id: source.subcategory_id,
      match_fields: ['merchant_name'],
    });
    created++;
  }
  const source = await sourceOf(stack, input.company, input.ruleMerchant);
  if (!source) return { created, benchRule: null, notes: ['rules: no company rows of the rule merchant'] };
  const id = await createRule(input.company, {
    source_transaction_id: source.id,
    category_id: source.category_id,
    subcategory_id: source.subcategory_id,
    match_fields: ['merchant_cnpj'],
  });
  created++;
  const benchRule: BenchRule = {
    id,
    categoryId: input.target.categoryId,
    subcategoryId: input.target.subcategoryId,
    merchantCnpjDigits: input.ruleMerchant.cnpj.replace(/\D/g, ''),
  };
  return { created, benchRule, notes: [`rules: ${created} created through POST /v1/categorization-rules`] };
}

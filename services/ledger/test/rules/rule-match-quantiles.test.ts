import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { countRuleMatches } from '../../src/data-access/recategorization-runs.ts';

const MORADIA = 'c0000000-0000-4000-8000-000000000002';
const MATCHING = 1_000;

describe('ledger: the counts and lane bounds of a rule’s matches (countRuleMatches)', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let ctx: CallerContext;
  let ids: string[];
  const em = () => stack.service('ledger').orm.em.fork() as EntityManager;
  const rule = {
    is_expense: true,
    match_merchant_name: 'mega loja',
    match_merchant_cnpj: null,
    category_id: MORADIA,
    subcategory_id: null,
  };

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    ctx = { userId: tenant.userId, profileId: null, business: false, keyId: null };
    const account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
    // MATCHING matches, a tenth of them already in the rule's category, and rows the rule does not match
    await stack.sql(
      `insert into ledger.transactions (id, user_id, amount, date, title, is_expense, paid, type, installments, currency,
         account_id, merchant_name, category_id, created_at, updated_at)
       select gen_random_uuid(), $1, 100, date '2025-01-01', 'Compra', g <= $3, true, 'FIXED', 1, 'BRL', $2,
         case when g <= $3 or g % 2 = 0 then 'Mega Loja' else 'Outra Loja' end,
         case when g % 10 = 0 then $4::uuid end, now(), now()
       from generate_series(1, $3 + 500) g`,
      [tenant.userId, account, MATCHING, MORADIA],
    );
    ids = (
      await stack.sql<{ id: string }>(
        `select id from ledger.transactions where user_id = $1 and merchant_name = 'Mega Loja' and is_expense
         order by id`,
        [tenant.userId],
      )
    ).map((row) => row.id);
  });
  afterAll(() => stack?.stop());

  it('when the matches are counted for lanes, then the bounds split them into ranges of about the same count', async () => {
    expect(ids).toHaveLength(MATCHING);
    for (const lanes of [2, 3, 4, 8]) {
      const counts = await countRuleMatches(em(), ctx, rule, lanes);
      expect(counts).toMatchObject({ total: MATCHING, to_change: MATCHING - MATCHING / 10 });
      expect(counts.bounds).toHaveLength(lanes - 1);
      counts.bounds.forEach((bound, k) => {
        // the matches up to bound k are the first (k + 1) / lanes of them
        expect(ids.indexOf(bound) + 1).toBe(Math.ceil(((k + 1) * MATCHING) / lanes));
      });
    }
  });

  it('when there is one lane, then the matches are counted and no bound is computed', async () => {
    expect(await countRuleMatches(em(), ctx, rule, 1)).toEqual({
      total: MATCHING,
      to_change: MATCHING - MATCHING / 10,
      bounds: [],
    });
  });

  it('when nothing matches, then the counts are zero and there is no bound', async () => {
    const none = { ...rule, match_merchant_name: 'ninguem' };
    expect(await countRuleMatches(em(), ctx, none, 4)).toEqual({ total: 0, to_change: 0, bounds: [] });
  });
});

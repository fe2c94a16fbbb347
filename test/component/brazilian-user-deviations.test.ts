import { merchantTransaction } from '../support/merchant-transactions.ts';
import { type Tenant, TestStack } from '../support/stack.ts';

// Issue 11: behaviour a Brazilian user would call wrong, each case through the gateway.

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';

describe('deviations a Brazilian user would call wrong', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let account: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341', balance: 100000 })).body.id;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe('merchant normalization', () => {
    const ruleFrom = async (merchantName: string) => {
      const source = await merchantTransaction(stack, tenant.api, { accountId: account, merchantName });
      return tenant.api.post('/v1/categorization-rules', { source_transaction_id: source, category_id: ALIMENTACAO });
    };

    it('when a name comes with combining accents (NFD), then its rule is the one of the composed spelling "SÃO JOÃO"', async () => {
      const decomposed = await ruleFrom('Sa\u0303o Joa\u0303o');
      expect(decomposed.status).toBe(201);
      expect(decomposed.body.rule.available_criteria[0].normalized).toBe('sao joao');
      const composed = await ruleFrom('SÃO JOÃO');
      expect(composed.status).toBe(200);
      expect(composed.body.rule.id).toBe(decomposed.body.rule.id);
      const rows = await stack.sql<{ n: string }>(
        `select distinct merchant_name_normalized as n from ledger.transactions where merchant_name in ($1, $2)`,
        ['Sa\u0303o Joa\u0303o', 'SÃO JOÃO'],
      );
      expect(rows).toEqual([{ n: 'sao joao' }]);
    });

    it('when a name holds a non-breaking space, then it updates the rule of the plain spelling instead of making another', async () => {
      const plain = await ruleFrom('POSTO IPIRANGA CENTRO');
      expect(plain.status).toBe(201);
      const nbsp = await ruleFrom('POSTO\u00a0IPIRANGA\u2009 CENTRO');
      expect(nbsp.status).toBe(200);
      expect(nbsp.body.rule.id).toBe(plain.body.rule.id);
    });
  });

  describe('messages in Portuguese', () => {
    it('when a card logo is not an http(s) URL, then 400 with a Portuguese message (was joi English)', async () => {
      const response = await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: account,
        closing_date: 3,
        expiring_date: 10,
        logo: 'ftp://example.com/logo.png',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Dados inválidos',
        details: [{ field: 'logo', message: 'logo deve ser uma URL válida com esquema http|https' }],
      });
      expect(await stack.sql('select id from billing.credit_cards')).toEqual([]);
    });
  });
});

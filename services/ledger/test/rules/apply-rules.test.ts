import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import fc from 'fast-check';
import { categoriesOf, merchantTransaction } from '../../../../test/support/merchant-transactions.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { ACCENTED_AND_UPPER, normalizeCnpj, normalizeMerchantName } from '../../src/domain/rules/normalize.ts';

const ALIMENTACAO = 'c0000000-0000-4000-8000-000000000001';
const SUPERMERCADO = '5c000000-0000-4000-8000-000100000001';
const PADARIA = '5c000000-0000-4000-8000-000100000004';
const MORADIA = 'c0000000-0000-4000-8000-000000000002';
const CNPJ = '12.345.678/0001-90';

describe('ledger: merchant normalization in SQL and in TypeScript', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let other: Tenant;
  let ctx: CallerContext;
  let account: string;
  const em = () => stack.service('ledger').orm.em.fork() as EntityManager;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    other = await stack.tenant();
    ctx = { userId: tenant.userId, profileId: null, business: false, keyId: null };
    account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterAll(() => stack?.stop());

  /** A rule row written directly, as POST /v1/categorization-rules stores it. */
  async function rule(values: {
    userId?: string;
    name?: string | null;
    cnpj?: string | null;
    isExpense?: boolean;
    categoryId: string;
    subcategoryId?: string | null;
    enabled?: boolean;
    updatedAt?: string;
  }): Promise<string> {
    const fields = [values.name ? 'merchant_name' : null, values.cnpj ? 'merchant_cnpj' : null].filter(Boolean);
    const rows = await stack.sql<{ id: string }>(
      `insert into ledger.categorization_rules (id, user_id, profile_id, category_id, subcategory_id, enabled, is_expense,
         match_fields, match_merchant_name, match_merchant_cnpj, source_id, source_kind, source_transaction_id,
         available_criteria, fingerprint, created_at, updated_at)
       values (gen_random_uuid(), $1, null, $2, $3, $4, $5, $6, $7, $8, gen_random_uuid(), 'ACCOUNT', gen_random_uuid(),
         '[]', gen_random_uuid()::text, now(), $9) returning id`,
      [
        values.userId ?? tenant.userId,
        values.categoryId,
        values.subcategoryId ?? null,
        values.enabled ?? true,
        values.isExpense ?? true,
        fields,
        values.name ?? null,
        values.cnpj ?? null,
        values.updatedAt ?? new Date().toISOString(),
      ],
    );
    return rows[0].id;
  }

  it('when any text is normalized by SQL and by TypeScript, then both agree', async () => {
    const letters = fc.constantFrom(
      ...ACCENTED_AND_UPPER,
      ...'abz09 -./\t\n',
      'ß',
      'Ø',
      '€',
      '😀',
      '\u0303',
      '\u0301',
      '\u0327',
      '\u00a0',
      '\u2009',
      '\u3000',
      '\ufeff',
      '\u{1d165}',
    );
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.array(letters, { maxLength: 30 }).map((c) => c.join('')),
    );
    const samples = fc.sample(
      text.filter((value) => !value.includes('\u0000')),
      800,
    );
    samples.push(
      '  Padaria São João  ',
      'Sa\u0303o Joa\u0303o',
      'POSTO\u00a0IPIRANGA CENTRO',
      'AÇAÍ',
      '12.345.678/0001-90',
      '',
      ' ',
    );
    const rows = await stack.sql<{ name: string | null; cnpj: string | null; nfd: string }>(
      `select ledger.normalize_merchant_name(v) as name, ledger.normalize_cnpj(v) as cnpj, normalize(v, NFD) as nfd
       from unnest($1::text[]) with ordinality as u(v, n) order by n`,
      [samples],
    );
    // a letter newer than the database's Unicode tables (about 20 of Unicode 16) decomposes in Node only
    const comparable = rows.flatMap((row, i) => (row.nfd === samples[i].normalize('NFD') ? [i] : []));
    expect(comparable.length).toBeGreaterThan(samples.length * 0.9);
    expect(comparable.map((i) => rows[i].name)).toEqual(comparable.map((i) => normalizeMerchantName(samples[i])));
    expect(rows.map((row) => row.cnpj)).toEqual(samples.map(normalizeCnpj));
  });

  it('when merchant data is stored, then the generated columns hold its normalized values', async () => {
    const id = await merchantTransaction(stack, tenant.api, {
      accountId: account,
      merchantName: ' PADARIA  São João ',
      merchantCnpj: CNPJ,
    });
    const [row] = await stack.sql(
      'select merchant_name_normalized, merchant_cnpj_digits from ledger.transactions where id = $1',
      [id],
    );
    expect(row).toEqual({ merchant_name_normalized: 'padaria sao joao', merchant_cnpj_digits: '12345678000190' });
  });
});

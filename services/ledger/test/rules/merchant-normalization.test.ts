import fc from 'fast-check';
import { merchantTransaction } from '../../../../test/support/merchant-transactions.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { ACCENTED_AND_UPPER, normalizeCnpj, normalizeMerchantName } from '../../src/domain/rules/normalize.ts';

const CNPJ = '12.345.678/0001-90';

describe('ledger: merchant normalization in SQL and in TypeScript', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let account: string;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
    account = (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341' })).body.id;
  });
  afterAll(() => stack?.stop());

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

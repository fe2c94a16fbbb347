import { randomUUID } from 'node:crypto';
import { importCompleted } from '../../../../test/support/imports.ts';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { csvFile, ofxFile } from '../../../../test/support/statement-files.ts';
import { importStatement, statementImported } from '../../../../test/support/statement-imports.ts';

interface Row {
  title: string;
  amount: string;
  is_expense: boolean;
  date: string;
  paid: boolean;
}

describe('statement files (OFX and CSV) through the import pipeline', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const newAccount = async (name = 'Conta') =>
    (await tenant.api.post('/v1/accounts', { name, logo: '341', balance: 0 })).body.id as string;
  const newCard = async (accountId: string) =>
    (
      await tenant.api.post('/v1/credit-cards', {
        name: 'Cartão',
        account_id: accountId,
        closing_date: 3,
        expiring_date: 10,
        limit: 1_000_000,
      })
    ).body.id as string;
  const rowsOf = (holder: string) =>
    stack.sql<Row>(
      `select title, amount::text, is_expense, to_char(date, 'YYYY-MM-DD') as date, paid
       from (select *, date as t_date, amount as t_amount from ledger.transactions) t
       where (account_id = $1 or credit_card_id = $1) and deleted_at is null order by t_date, t_amount, title`,
      [holder],
    );
  const accountPath = (id: string) => `/v1/accounts/${id}/statements`;
  const count = async (holder: string) => (await rowsOf(holder)).length;

  it('when an OFX 1.0.2 file in Latin-1 with decimal commas and bracketed time zones is imported, then every entry is stored exact, LEDGERBAL checks out, and importing it again creates nothing', async () => {
    const account = await newAccount();
    const file = ofxFile(
      [
        { fitid: 'a1', date: '2026-01-05', time: '120000[-3:BRT]', amount: '-1.234,56', memo: 'Padaria São João' },
        { fitid: 'a2', date: '2026-01-06', amount: '0,10', memo: 'Pix recebido de Açaí & Cia' },
        { fitid: 'a3', date: '2026-01-07', amount: '1234567,89', memo: 'Salário' },
        // 01:30 UTC on the 8th is still the 7th in São Paulo
        { fitid: 'a4', date: '2026-01-08', time: '013000[0:GMT]', amount: '-50,00', memo: 'Cartão débito' },
        { fitid: 'a5', date: '2026-01-09', amount: '0,00', memo: 'Tarifa isenta' },
      ],
      { charset: 'latin1', ledgerBalance: { amount: '1233283,43', date: '2026-01-31' } },
    );
    expect(file.includes(Buffer.from('São', 'utf8'))).toBe(false);
    const result = await statementImported(tenant.api, accountPath(account), file);
    expect(result).toEqual({
      format: 'ofx',
      lines: 4,
      created: 4,
      updated: 0,
      duplicates: 0,
      reconciled: 0,
      reconciliation_suggestions: 0,
      categorized: 0,
      skipped: [{ line: expect.any(Number), reason: 'lançamento sem valor' }],
      skipped_count: 1,
      ledger_balance: { statement: 123_328_343, ledger: 123_328_343, as_of: '2026-01-31', matches: true },
    });
    expect(await rowsOf(account)).toEqual([
      { title: 'Padaria São João', amount: '123456', is_expense: true, date: '2026-01-05', paid: true },
      { title: 'Pix recebido de Açaí & Cia', amount: '10', is_expense: false, date: '2026-01-06', paid: true },
      { title: 'Cartão débito', amount: '5000', is_expense: true, date: '2026-01-07', paid: true },
      { title: 'Salário', amount: '123456789', is_expense: false, date: '2026-01-07', paid: true },
    ]);
    const again = await statementImported(tenant.api, accountPath(account), file);
    expect(again).toMatchObject({ created: 0, duplicates: 4, updated: 0 });
    expect(await count(account)).toBe(4);
  });

  it('when the stated balance differs from the account, then the import still completes and reports the difference', async () => {
    const account = await newAccount();
    const result = await statementImported(
      tenant.api,
      accountPath(account),
      ofxFile([{ fitid: 'b1', date: '2026-02-02', amount: '-10.00', memo: 'Café' }], {
        ledgerBalance: { amount: '500.00', date: '2026-02-28' },
      }),
    );
    expect(result.ledger_balance).toEqual({ statement: 50_000, ledger: -1000, as_of: '2026-02-28', matches: false });
  });

  it('when an OFX 2.x (XML, UTF-8) credit-card statement is imported into a card, then purchases land in their bills and a foreign purchase keeps its original amount', async () => {
    const account = await newAccount();
    const card = await newCard(account);
    const file = ofxFile(
      [
        { fitid: 'c1', date: '2026-03-01', amount: '-89.90', memo: 'Mercado Pão & Cia' },
        {
          fitid: 'c2',
          date: '2026-03-05',
          amount: '-550.00',
          memo: 'AMAZON US',
          original: { rate: '5.50', currency: 'USD' },
        },
        { fitid: 'c3', date: '2026-03-06', amount: '200.00', memo: 'Pagamento recebido', type: 'PAYMENT' },
      ],
      { version: '211', kind: 'card' },
    );
    const result = await statementImported(
      tenant.api,
      `/v1/credit-cards/${card}/statements`,
      file,
      'application/x-ofx',
    );
    expect(result).toMatchObject({ format: 'ofx', created: 3, ledger_balance: null });
    const rows = await stack.sql<{
      title: string;
      bill_due: string;
      original_amount: string | null;
      original_currency: string | null;
    }>(
      `select t.title, to_char(b.due_date, 'YYYY-MM-DD') as bill_due, t.original_amount::text, t.original_currency
       from ledger.transactions t join billing.bills b on b.id = t.bill_id where t.credit_card_id = $1 order by t.date`,
      [card],
    );
    expect(rows).toEqual([
      // the card closes on the 3rd: the 1st is in March's bill, the 5th in April's; the payment line of the 6th
      // pays the bill closed on the 3rd (March's)
      { title: 'Mercado Pão & Cia', bill_due: '2026-03-10', original_amount: null, original_currency: null },
      { title: 'AMAZON US', bill_due: '2026-04-10', original_amount: '100.00', original_currency: 'USD' },
      { title: 'Pagamento recebido', bill_due: '2026-03-10', original_amount: null, original_currency: null },
    ]);
    const listed = (await tenant.api.get(`/v1/transactions?credit_card_id=${card}`)).body.data;
    expect(listed.find((t: { title: string }) => t.title === 'AMAZON US')).toMatchObject({
      amount: 55_000,
      currency: 'BRL',
      original_amount: '100.00',
      original_currency: 'USD',
    });
  });

  it('when a bank repeats one FITID on different entries, then none is lost; and two identical entries stay two', async () => {
    const account = await newAccount();
    const file = ofxFile([
      { fitid: 'same', date: '2026-04-01', amount: '-10.00', memo: 'Uber' },
      { fitid: 'same', date: '2026-04-01', amount: '-22.00', memo: 'Uber' },
      { fitid: 'same', date: '2026-04-02', amount: '-10.00', memo: 'Uber' },
      { fitid: 'cafe', date: '2026-04-03', amount: '-5.00', memo: 'Café' },
      { fitid: 'cafe', date: '2026-04-03', amount: '-5.00', memo: 'Café' },
    ]);
    expect(await statementImported(tenant.api, accountPath(account), file)).toMatchObject({ created: 5 });
    expect(await statementImported(tenant.api, accountPath(account), file)).toMatchObject({
      created: 0,
      duplicates: 5,
    });
    expect(await count(account)).toBe(5);
  });

  it('when two files overlap, then only the entries the first lacked are created', async () => {
    const account = await newAccount();
    const entries = Array.from({ length: 10 }, (_, i) => ({
      fitid: `ov-${i}`,
      date: `2026-05-${String(i + 1).padStart(2, '0')}`,
      amount: `-${i + 1}0,00`,
      memo: `Compra ${i}`,
    }));
    expect(await statementImported(tenant.api, accountPath(account), ofxFile(entries.slice(0, 6)))).toMatchObject({
      created: 6,
    });
    expect(await statementImported(tenant.api, accountPath(account), ofxFile(entries.slice(3)))).toMatchObject({
      created: 4,
      duplicates: 3,
    });
    expect(await count(account)).toBe(10);
  });

  it('when a CSV of the same account follows its OFX, then the matching rule sees the entries already there', async () => {
    const account = await newAccount();
    await statementImported(
      tenant.api,
      accountPath(account),
      ofxFile([
        { fitid: 'x1', date: '2026-06-01', amount: '-45.90', memo: 'Farmácia' },
        { fitid: 'x2', date: '2026-06-02', amount: '-12.00', memo: 'Padaria' },
      ]),
    );
    const csv = csvFile([
      ['Data', 'Valor', 'Identificador', 'Descrição'],
      ['01/06/2026', '-45.90', randomUUID(), 'Compra no débito - Farmácia'],
      ['02/06/2026', '-12.00', randomUUID(), 'Compra no débito - Padaria'],
      ['03/06/2026', '-7.50', randomUUID(), 'Compra no débito - Banca'],
    ]);
    const result = await statementImported(tenant.api, `${accountPath(account)}?preset=nubank-conta`, csv, 'text/csv');
    expect(result).toMatchObject({ format: 'csv', created: 1, duplicates: 2 });
    expect(await count(account)).toBe(3);
  });

  /** One file per preset, as each bank writes it, with what must come out. */
  const PRESETS: Array<{ preset: string; card?: boolean; file: Buffer; expected: Array<[string, number, boolean]> }> = [
    {
      preset: 'nubank-conta',
      file: csvFile([
        ['Data', 'Valor', 'Identificador', 'Descrição'],
        ['05/01/2026', '-1234.56', 'a0f1', 'Transferência enviada pelo Pix - Maria'],
        ['06/01/2026', '0.10', 'a0f2', 'Transferência recebida pelo Pix - João'],
      ]),
      expected: [
        ['Transferência enviada pelo Pix - Maria', 123_456, true],
        ['Transferência recebida pelo Pix - João', 10, false],
      ],
    },
    {
      preset: 'nubank-cartao',
      card: true,
      file: csvFile([
        ['date', 'title', 'amount'],
        ['2026-01-05', 'Supermercado Extra', '250.35'],
        ['2026-01-06', 'Pagamento recebido', '-1000.00'],
      ]),
      expected: [
        ['Supermercado Extra', 25_035, true],
        // the bill's payment line: that bill's payment (money leaving towards it), not a credit on the card
        ['Pagamento recebido', 100_000, true],
      ],
    },
    {
      preset: 'itau',
      file: csvFile(
        [
          ['data', 'lançamento', 'ag./origem', 'valor (R$)', 'saldos (R$)'],
          ['05/01/2026', 'SALDO ANTERIOR', '', '', '1.000,00'],
          ['05/01/2026', 'PIX TRANSF MARIA', '0341', '-1.234,56', ''],
          ['06/01/2026', 'TED RECEBIDA', '0237', '1.234.567,89', ''],
          ['06/01/2026', 'SALDO DO DIA', '', '', '1.233.333,33'],
        ],
        ';',
        'latin1',
      ),
      expected: [
        ['PIX TRANSF MARIA', 123_456, true],
        ['TED RECEBIDA', 123_456_789, false],
      ],
    },
    {
      preset: 'bradesco',
      file: csvFile(
        [
          ['Extrato de: Agência: 1234 | Conta: 56789-0'],
          ['Data', 'Histórico', 'Docto.', 'Crédito (R$)', 'Débito (R$)', 'Saldo (R$)'],
          ['05/01/26', 'Pagto Eletron Cobranca', '123', '', '89,90', '910,10'],
          ['06/01/26', 'Transf Pix Rem: Joao', '124', '0,10', '', '910,20'],
          ['', 'Total', '', '0,10', '89,90', ''],
        ],
        ';',
        'latin1',
      ),
      expected: [
        ['Pagto Eletron Cobranca', 8990, true],
        ['Transf Pix Rem: Joao', 10, false],
      ],
    },
    {
      preset: 'banco-do-brasil',
      file: csvFile([
        ['Data', 'Dependencia Origem', 'Histórico', 'Data do Balancete', 'Número do documento', 'Valor'],
        ['05/01/2026', '', 'Saldo Anterior', '', '0', '1000.00'],
        ['05/01/2026', '', 'Pix - Enviado', '', '11111', '-45.90'],
        ['06/01/2026', '', 'Pix - Recebido', '', '22222', '1234.56'],
      ]),
      expected: [
        ['Pix - Enviado', 4590, true],
        ['Pix - Recebido', 123_456, false],
      ],
    },
    {
      preset: 'caixa',
      file: csvFile(
        [
          ['Conta', 'Data_Mov', 'Nr_Doc', 'Historico', 'Valor', 'Deb_Cred'],
          ['0001', '20260105', '000001', 'PAG BOLETO', '150.00', 'D'],
          ['0001', '20260106', '000002', 'CRED PIX', '0.10', 'C'],
        ],
        ';',
      ),
      expected: [
        ['PAG BOLETO', 15_000, true],
        ['CRED PIX', 10, false],
      ],
    },
    {
      preset: 'santander',
      file: csvFile(
        [
          ['Data', 'Descrição', 'Docto', 'Situação', 'Crédito (R$)', 'Débito (R$)', 'Saldo (R$)'],
          ['05/01/2026', 'PAGAMENTO DE BOLETO', '001', '', '', '-300,00', ''],
          ['06/01/2026', 'PIX RECEBIDO', '002', '', '1.500,00', '', ''],
        ],
        ';',
      ),
      expected: [
        ['PAGAMENTO DE BOLETO', 30_000, true],
        ['PIX RECEBIDO', 150_000, false],
      ],
    },
    {
      preset: 'inter',
      file: csvFile(
        [
          ['Extrato Conta Corrente'],
          ['Conta ', '1234567-8'],
          ['Período ', '01/01/2026 a 31/01/2026'],
          [''],
          ['Data Lançamento', 'Histórico', 'Descrição', 'Valor', 'Saldo'],
          ['05/01/2026', 'Pix enviado', 'Maria', '-1.234,56', '100,00'],
          ['06/01/2026', 'Pix recebido', 'João', '0,10', '100,10'],
        ],
        ';',
      ),
      expected: [
        ['Maria', 123_456, true],
        ['João', 10, false],
      ],
    },
    {
      preset: 'c6-cartao',
      card: true,
      file: csvFile(
        [
          [
            'Data de compra',
            'Nome no cartão',
            'Final do Cartão',
            'Categoria',
            'Descrição',
            'Parcela',
            'Valor (em US$)',
            'Cotação (em R$)',
            'Valor (em R$)',
          ],
          ['05/01/2026', 'ANA', '1234', 'Supermercado', 'PAO DE ACUCAR', 'Única', '0', '0', '89.90'],
          ['06/01/2026', 'ANA', '1234', 'Serviços', 'NETFLIX.COM', 'Única', '10.00', '5.50', '55.00'],
        ],
        ';',
      ),
      expected: [
        ['PAO DE ACUCAR', 8990, true],
        ['NETFLIX.COM', 5500, true],
      ],
    },
  ];

  it.each(PRESETS.map((item) => [item.preset, item]))(
    'when a %s CSV export is imported with its preset, then its entries come out with the right amount and direction, balance rows skipped',
    async (preset, item) => {
      const account = await newAccount(preset);
      const holder = item.card ? await newCard(account) : account;
      const path = item.card ? `/v1/credit-cards/${holder}/statements` : accountPath(holder);
      const result = await statementImported(tenant.api, `${path}?preset=${preset}`, item.file, 'text/csv');
      expect(result.created).toBe(item.expected.length);
      const rows = await rowsOf(holder);
      expect(rows.map((row) => [row.title, Number(row.amount), row.is_expense]).sort()).toEqual(
        [...item.expected].sort(),
      );
      expect((await statementImported(tenant.api, `${path}?preset=${preset}`, item.file, 'text/csv')).created).toBe(0);
    },
  );

  it('when a CSV comes with an explicit column mapping, then its date format, decimal separator and columns are used', async () => {
    const account = await newAccount();
    const file = csvFile([
      ['quando', 'o que', 'quanto'],
      ['05/01/26', 'Aluguel', '-2.500,00'],
      ['06/01/26', 'Reembolso', '1.234,56'],
    ]);
    const query = new URLSearchParams({
      date_column: 'quando',
      description_column: 'o que',
      amount_column: 'quanto',
      date_format: 'DD/MM/YY',
      decimal_separator: ',',
    });
    const result = await statementImported(tenant.api, `${accountPath(account)}?${query}`, file, 'text/csv');
    expect(result).toMatchObject({ created: 2 });
    expect(await rowsOf(account)).toEqual([
      { title: 'Aluguel', amount: '250000', is_expense: true, date: '2026-01-05', paid: true },
      { title: 'Reembolso', amount: '123456', is_expense: false, date: '2026-01-06', paid: true },
    ]);
  });

  it('when a file cannot be read, then 400 in Portuguese names the line and nothing is written', async () => {
    const account = await newAccount();
    const before = await stack.sql<{ n: number }>('select count(*)::int as n from ledger.background_jobs');
    const broken = ofxFile([
      { fitid: 'm1', date: '2026-01-05', amount: '-10,00', memo: 'ok' },
      { fitid: 'm2', date: '2026-01-06', amount: 'dez reais', memo: 'ruim' },
    ]);
    const ofx = await importStatement(tenant.api, accountPath(account), broken);
    expect(ofx.response.status).toBe(400);
    // the second entry's <STMTTRN>, 1-based
    const lines = broken.toString('latin1').split('\r\n');
    const brokenLine = lines.indexOf('<STMTTRN>', lines.indexOf('<STMTTRN>') + 1) + 1;
    expect(ofx.response.body).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringContaining(`linha ${brokenLine}: TRNAMT inválido`),
      details: [{ field: `linha ${brokenLine}`, message: expect.any(String) }],
    });
    // the file is read in order: its first problem is the one named
    const readable = ofxFile([{ fitid: 'm1', date: '2026-01-05', amount: '-10,00', memo: 'ok' }]).toString('latin1');
    const unclosed = Buffer.from(readable.replace('</STMTRS>', '</STMTRX>'), 'latin1');
    const structure = await importStatement(tenant.api, accountPath(account), unclosed);
    expect(structure.response.status).toBe(400);
    const closing = readable.split('\r\n').findIndex((line) => line.includes('</STMTRS>')) + 1;
    expect(structure.response.body.message).toBe(
      `Arquivo de extrato inválido: linha ${closing}: OFX malformado: </STMTRX> fecha um elemento que não está aberto`,
    );
    const csv = await importStatement(
      tenant.api,
      `${accountPath(account)}?preset=nubank-conta`,
      csvFile([
        ['Data', 'Valor', 'Identificador', 'Descrição'],
        ['05/01/2026', '-10.00', 'i1', 'ok'],
        ['31/02/2026', '-10.00', 'i2', 'dia que não existe'],
      ]),
      'text/csv',
    );
    expect(csv.response.status).toBe(400);
    expect(csv.response.body.message).toBe("Arquivo de extrato inválido: linha 3: data inválida: '31/02/2026'");
    const quote = await importStatement(
      tenant.api,
      `${accountPath(account)}?preset=nubank-conta`,
      'Data,Valor,Identificador,Descrição\r\n05/01/2026,-10.00,i1,"aspas sem fim\r\n',
      'text/csv',
    );
    expect(quote.response.status).toBe(400);
    expect(quote.response.body.message).toMatch(/linha \d+: CSV malformado/);
    const unmapped = await importStatement(tenant.api, accountPath(account), 'a;b\r\n1;2\r\n', 'text/csv');
    expect(unmapped.response.status).toBe(400);
    expect(await count(account)).toBe(0);
    expect(await stack.sql('select count(*)::int as n from ledger.background_jobs')).toEqual(before);
  });

  it('when an XML file carries a DTD, an entity declaration or an external entity, then it is refused before parsing and nothing is written', async () => {
    const account = await newAccount();
    const attacks = [
      '<?xml version="1.0"?>\n<!DOCTYPE OFX [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<?OFX OFXHEADER="200" VERSION="211"?>\n<OFX><BANKMSGSRSV1>&lol2;</BANKMSGSRSV1></OFX>',
      '<?xml version="1.0"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<OFX>&xxe;</OFX>',
      'OFXHEADER:100\r\nDATA:OFXSGML\r\n\r\n<!ENTITY x "y">\r\n<OFX></OFX>',
      '<?xml version="1.0"?>\n<?xml-stylesheet href="http://example.com/x.xsl"?>\n<OFX></OFX>',
    ];
    for (const attack of attacks) {
      const { response } = await importStatement(tenant.api, accountPath(account), attack, 'application/x-ofx');
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/recusada por segurança/);
    }
    expect(await count(account)).toBe(0);
  });

  it('when the file is over 10 MiB, then 413; sent as JSON or without a body, then 415; to another context or an unknown account, then 404', async () => {
    const account = await newAccount();
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
    const tooBig = await tenant.api.request('POST', accountPath(account), {
      rawBody: big,
      headers: { 'content-type': 'text/csv' },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect((await tenant.api.post(accountPath(account), { file: 'x' })).status).toBe(415);
    expect((await tenant.api.request('POST', accountPath(account))).status).toBe(415);
    const other = await stack.tenant();
    const file = ofxFile([{ fitid: 'z', date: '2026-01-05', amount: '-1,00', memo: 'x' }]);
    expect((await importStatement(other.api, accountPath(account), file)).response.status).toBe(404);
    expect((await importStatement(tenant.api, accountPath(randomUUID()), file)).response.status).toBe(404);
    expect(
      (await importStatement(tenant.api, `/v1/credit-cards/${randomUUID()}/statements`, file)).response.status,
    ).toBe(404);
    expect(await count(account)).toBe(0);
  });

  it('when the same file is imported twice at once, and a file races a JSON import of the same account, then each entry exists once', async () => {
    const account = await newAccount();
    const entries = Array.from({ length: 40 }, (_, i) => ({
      fitid: `race-${i}`,
      date: `2026-07-${String((i % 28) + 1).padStart(2, '0')}`,
      amount: `-${i + 1},${String(i % 100).padStart(2, '0')}`,
      memo: `Compra ${i}`,
    }));
    const file = ofxFile(entries);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => statementImported(tenant.api, accountPath(account), file)),
    );
    expect(results.map((result) => result.created).sort()).toEqual([0, 0, 0, 40]);
    expect(await count(account)).toBe(40);

    // a bank connection's account, fed at once by its JSON import and by an OFX file of the same entries
    await tenant.api.post('/v1/open-banking/imports', {
      connection: { id: 'conn-race', institution: 'Banco' },
      accounts: [
        { external_id: 'acc', name: 'Conectada', type: 'PERSONAL_BANK', subtype: 'CHECKING_ACCOUNT', balance: 0 },
      ],
    });
    const [connected] = await stack.sql<{ id: string }>(
      `select id from ledger.accounts where external_id = 'acc' and user_id = $1`,
      [tenant.userId],
    );
    const json = {
      connection: { id: 'conn-race', institution: 'Banco' },
      transactions: entries.map((entry, i) => ({
        external_id: `of-${i}`,
        account_external_id: 'acc',
        amount: Number(entry.amount.replace('-', '').replace(',', '')),
        date: entry.date,
        is_expense: true,
        title: entry.memo,
      })),
    };
    const [jsonJob, fileResult] = await Promise.all([
      importCompleted(tenant.api, json),
      statementImported(tenant.api, accountPath(connected.id), file),
    ]);
    // whichever ran first created the 40; the other found them there
    expect(jsonJob.result.transactions.created + fileResult.created).toBe(40);
    expect(await count(connected.id)).toBe(40);
  });
});

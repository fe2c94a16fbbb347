import { request } from 'node:http';
import { type Tenant, TestStack } from '../../../../test/support/stack.ts';
import { csvFile, type OfxEntry, ofxFile } from '../../../../test/support/statement-files.ts';
import { importStatement, statementImported } from '../../../../test/support/statement-imports.ts';
import { waitFor } from '../../../../test/support/wait-for.ts';
import { WAITED_FILE_BYTES } from '../../src/domain/statements/import-statement.ts';

/** `count` entries of a busy account, a FITID each. */
const busyEntries = (count: number, prefix = 'e'): OfxEntry[] =>
  Array.from({ length: count }, (_, i) => ({
    fitid: `${prefix}-${i}`,
    date: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
    amount: `-${1 + (i % 900)},${String(i % 100).padStart(2, '0')}`,
    memo: `Compra ${i} Padaria São João Centro`,
  }));

/** Sends `total` bytes of `chunk` repeated, chunked (no Content-Length): the status the gateway answers. */
function chunkedUpload(url: string, authorization: string, chunk: Buffer, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'text/csv', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    // the gateway answers 413 and closes while this side still writes
    req.on('error', (err) => (req.writableEnded ? undefined : reject(err)));
    let sent = 0;
    const write = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('statement files of every size: stored as they arrive, read by the statement-file worker', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const newAccount = async () =>
    (await tenant.api.post('/v1/accounts', { name: 'Conta', logo: '341', balance: 0 })).body.id as string;
  const path = (account: string) => `/v1/accounts/${account}/statements`;
  const written = async (account: string) => {
    const [row] = await stack.sql<{ transactions: number; keys: number }>(
      `select (select count(*)::int from ledger.transactions where account_id = $1) as transactions,
              (select count(*)::int from ledger.import_keys where source = 'ofx:' || $1) as keys`,
      [account],
    );
    return row;
  };

  it('when a file over 1 MiB cannot be read at its line 59,000, then it is answered 202 at once, its job fails naming that line, and nothing is written', async () => {
    const account = await newAccount();
    const entries = busyEntries(8_600);
    entries[8_430].amount = 'dez reais';
    const file = ofxFile(entries);
    expect(file.length).toBeGreaterThan(WAITED_FILE_BYTES);
    const lines = file.toString('latin1').split('\r\n');
    let line = 0;
    for (let seen = 0; seen <= 8_430; line++) if (lines[line] === '<STMTTRN>') seen++;
    expect(line).toBeGreaterThan(59_000);
    const { response, job } = await importStatement(tenant.api, path(account), file);
    // answered before its reading ended
    expect(response.status).toBe(202);
    expect(response.body.job.state).toMatch(/^(waiting|active)$/);
    expect(job).toMatchObject({
      state: 'failed',
      error: `Arquivo de extrato inválido: linha ${line}: TRNAMT inválido: 'dez reais'`,
    });
    expect(await written(account)).toEqual({ transactions: 0, keys: 0 });
    // its bytes went with the job's end
    expect(await stack.sql('select * from ledger.statement_file_pieces')).toEqual([]);
  });

  it('when a file over 1 MiB can be read, then it is answered 202 at once and its job shows the lines read, then completes with every entry once', async () => {
    const account = await newAccount();
    const file = ofxFile(busyEntries(9_000));
    const response = await tenant.api.request('POST', path(account), {
      rawBody: file,
      headers: { 'content-type': 'application/x-ofx' },
    });
    expect(response.status).toBe(202);
    expect(response.body.job).toMatchObject({ state: expect.stringMatching(/^(waiting|active)$/) });
    const seen: unknown[] = [];
    const job = await waitFor(async () => {
      const current = (await tenant.api.get(`/v1/jobs/${response.body.job.id}`)).body;
      if (current.state === 'active') seen.push(current.result);
      return current.state === 'completed' && current;
    }, 60_000);
    // while it runs, the lines read so far
    for (const result of seen) expect(result).toEqual({ lines_read: expect.any(Number) });
    expect(job).toMatchObject({ state: 'completed', result: { format: 'ofx', lines: 9_000, created: 9_000 } });
    expect(await written(account)).toEqual({ transactions: 9_000, keys: 9_000 });
  });

  it('when the same bytes come again the same way, then they are not read again: every entry is a duplicate, even one deleted since; read another way, they are read', async () => {
    const account = await newAccount();
    const file = ofxFile(busyEntries(30));
    expect(await statementImported(tenant.api, path(account), file)).toMatchObject({ created: 30 });
    const [first] = await stack.sql<{ id: string }>(
      'select id from ledger.transactions where account_id = $1 order by date, amount limit 1',
      [account],
    );
    expect((await tenant.api.delete(`/v1/transactions/${first.id}`)).status).toBe(200);
    expect(await statementImported(tenant.api, path(account), file)).toMatchObject({
      lines: 30,
      created: 0,
      duplicates: 30,
      skipped: [],
    });
    // asked as OFX explicitly, it is read again: the deleted entry is skipped, not recreated
    const again = await statementImported(tenant.api, `${path(account)}?format=ofx`, file);
    expect(again).toMatchObject({
      created: 0,
      duplicates: 29,
      skipped: [{ reason: expect.stringMatching(/excluído/) }],
    });
  });

  it('when an OFX closes a leaf element with another name, or not at all, then it imports as mainstream readers read it', async () => {
    const account = await newAccount();
    const file = Buffer.from(
      ofxFile([{ fitid: 'w1', date: '2026-02-03', amount: '-12,34', memo: 'Padaria' }])
        .toString('latin1')
        .replace('<DTPOSTED>20260203', '<DTUSER>20260202</DTPOSTED>\r\n<DTPOSTED>20260203</DTUSER>')
        .replace('<MEMO>Padaria', '<MEMO>Padaria</NAME>'),
      'latin1',
    );
    expect(await statementImported(tenant.api, path(account), file)).toMatchObject({ created: 1 });
    expect(
      await stack.sql(
        `select title, to_char(date, 'YYYY-MM-DD') as date from ledger.transactions where account_id = $1`,
        [account],
      ),
    ).toEqual([{ title: 'Padaria', date: '2026-02-03' }]);
  });

  it('when ids or descriptions are longer than an index entry allows, then the file imports with their hashes as keys, and again creates nothing', async () => {
    const account = await newAccount();
    const long = (char: string) => char.repeat(5_000);
    const ofx = ofxFile([
      { fitid: long('a'), date: '2026-03-01', amount: '-1,00', memo: 'FITID longo' },
      { fitid: long('a'), date: '2026-03-01', amount: '-1,00', memo: 'FITID longo' },
    ]);
    expect(await statementImported(tenant.api, path(account), ofx)).toMatchObject({ created: 2 });
    const csv = csvFile([
      ['Data', 'Valor', 'Identificador', 'Descrição'],
      ['01/03/2026', '-2.00', long('b'), 'Id longo'],
      ['02/03/2026', '-3.00', '', 'Descrição longa '.repeat(300)],
    ]);
    const csvPath = `${path(account)}?preset=nubank-conta`;
    expect(await statementImported(tenant.api, csvPath, csv, 'text/csv')).toMatchObject({ created: 2 });
    const keys = await stack.sql<{ key: string }>(
      `select key from ledger.import_keys where source in ('ofx:' || $1, 'csv:' || $1) order by key`,
      [account],
    );
    expect(keys.map(({ key }) => key.replace(/[0-9a-f]{64}/, 'H'))).toEqual([
      'csv:sha256:H',
      'csv:sha256:H',
      'ofx:sha256:H',
      'ofx:sha256:H#2',
    ]);
    const again = await statementImported(tenant.api, `${csvPath}&format=csv`, csv, 'text/csv');
    expect(again).toMatchObject({ created: 0, duplicates: 2 });
  });

  it('when a chunked body passes 10 MiB, then the gateway cuts it with 413 and nothing is kept', async () => {
    const account = await newAccount();
    const status = await chunkedUpload(
      `${stack.url}${path(account)}?preset=nubank-conta`,
      tenant.api.authorization() as string,
      Buffer.alloc(64 * 1024, 'a;b;c\n'),
      11 * 1024 * 1024,
    );
    expect(status).toBe(413);
    // the ledger learns the call was cut an instant later
    await waitFor(
      async () => (await stack.sql('select id from ledger.statement_files where job_id is null')).length === 0,
    );
  });

  it('when a file is retried with its Idempotency-Key, then the retry gets the same job and nothing more is stored', async () => {
    const account = await newAccount();
    const file = ofxFile(busyEntries(5, 'k'));
    const send = () =>
      tenant.api.request('POST', path(account), {
        rawBody: file,
        headers: { 'content-type': 'application/x-ofx', 'idempotency-key': `extrato-${account}` },
      });
    const first = await send();
    const retry = await send();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.job.id).toBe(first.body.job.id);
    expect(
      await stack.sql<{ n: number }>(
        `select count(*)::int as n from ledger.statement_files f join ledger.background_jobs j on j.id = f.job_id
         where j.id = $1 or f.job_id is null`,
        [first.body.job.id],
      ),
    ).toEqual([{ n: 1 }]);
  });
});

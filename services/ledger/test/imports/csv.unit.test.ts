import { Utf8Check } from '@finance/shared/http/received-file';
import fc from 'fast-check';
import {
  CSV_MAX_COLUMNS,
  CSV_MAX_LINE,
  type CsvTransaction,
  csvDay,
  readCsv,
} from '../../src/domain/statements/csv.ts';
import { CSV_PRESETS, type CsvLayout } from '../../src/domain/statements/csv-presets.ts';
import { EntryKeys } from '../../src/domain/statements/statement-entries.ts';
import { StatementDecoder, StatementRejected } from '../../src/domain/statements/statement-text.ts';

/** A whole file through the streaming reader, in pieces of `size` characters. */
async function parseCsv(text: string, layout: CsvLayout, size = text.length || 1) {
  async function* pieces() {
    for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
  }
  const transactions: CsvTransaction[] = [];
  const skipped: Array<{ line: number; reason: string }> = [];
  await readCsv(pieces(), layout, (row) => {
    if ('entry' in row) transactions.push(row.entry);
    else skipped.push(row.skipped);
  });
  return { transactions, skipped };
}

/** Bytes as the upload reads them: the encoding they are valid in, decoded in pieces of `size` bytes. */
function decodeStatement(bytes: Buffer, size = bytes.length || 1): string {
  const check = new Utf8Check();
  for (let at = 0; at < bytes.length; at += size) check.write(bytes.subarray(at, at + size));
  const { utf8, binary } = check.end();
  if (binary) throw new StatementRejected('o arquivo é binário');
  const decoder = new StatementDecoder(utf8 ? 'utf-8' : 'windows-1252');
  let text = '';
  for (let at = 0; at < bytes.length; at += size) text += decoder.decode(bytes.subarray(at, at + size));
  return text + decoder.end();
}

const keyEntries = (items: Array<{ id: string | null; date: string; cents: number; text: string }>) => {
  const keys = new EntryKeys();
  return items.map((item) => ({ ...item, key: keys.next(item) }));
};

describe('CSV statements', () => {
  it.each([
    ['05/01/2026', 'DMY', '2026-01-05'],
    ['5/1/26', 'DMY', '2026-01-05'],
    ['2026-01-05', 'YMD', '2026-01-05'],
    ['20260105', 'YMD', '2026-01-05'],
    ['01/05/2026', 'MDY', '2026-01-05'],
    ['31/02/2026', 'DMY', null],
    ['texto', 'DMY', null],
  ] as const)('when the date cell is %s (%s), then the day is %s', (text, order, day) => {
    expect(csvDay(text, order)).toBe(day);
  });

  it('when a preset file has a preamble, balance rows and a trailer, then only entries come out, the rest skipped with reasons, in pieces of any size', async () => {
    const text = [
      'Extrato de: Agência: 1 | Conta: 2',
      'Data;Histórico;Docto.;Crédito (R$);Débito (R$);Saldo (R$)',
      '05/01/26;SALDO ANTERIOR;;;;100,00',
      '05/01/26;Pagto;1;;1.234,56;0',
      '06/01/26;Pix;2;0,10;;0',
      ';Total;;0,10;1.234,56;',
      '07/01/26;Estorno zerado;3;0,00;;0',
    ].join('\r\n');
    const whole = await parseCsv(text, CSV_PRESETS.bradesco);
    for (const size of [1, 7, 50]) expect(await parseCsv(text, CSV_PRESETS.bradesco, size)).toEqual(whole);
    expect(whole).toEqual({
      transactions: [
        { line: 4, date: '2026-01-05', cents: -123_456, description: 'Pagto', id: '1', installment: null, usd: null },
        { line: 5, date: '2026-01-06', cents: 10, description: 'Pix', id: '2', installment: null, usd: null },
      ],
      skipped: [
        { line: 3, reason: 'linha de saldo ou total, não é um lançamento' },
        { line: 6, reason: 'linha de saldo ou total, não é um lançamento' },
        { line: 7, reason: 'lançamento sem valor' },
      ],
    });
  });

  it('when a card export lists installments, then each row carries its number and total', async () => {
    const text = 'date,title,amount\n2026-01-05,Loja - Parcela 2/10,100.00\n';
    expect((await parseCsv(text, CSV_PRESETS['nubank-cartao'])).transactions[0]).toMatchObject({
      cents: -10_000,
      installment: { number: 2, total: 10 },
    });
  });

  it('when the header is missing or a quote never closes, then the file is refused naming what and where', async () => {
    await expect(parseCsv('a,b\n1,2\n', CSV_PRESETS['nubank-conta'])).rejects.toThrow('cabeçalho não encontrado');
    await expect(
      parseCsv('Data,Valor,Identificador,Descrição\n05/01/2026,-1.00,x,"sem fim\n', CSV_PRESETS['nubank-conta']),
    ).rejects.toThrow(/^linha \d+: CSV malformado/);
    await expect(
      parseCsv('Data,Valor,Identificador,Descrição\n05/01/2026,dez,x,y\n', CSV_PRESETS['nubank-conta']),
    ).rejects.toThrow("linha 2: valor inválido: 'dez'");
  });

  it('when a line is too long or a row has too many cells, then the file is refused at that line before the header search reads it', async () => {
    const cells = (count: number) => Array.from({ length: count }, (_, i) => `c${i}`).join(';');
    await expect(parseCsv(`${cells(CSV_MAX_COLUMNS + 1)}\n`, CSV_PRESETS.bradesco)).rejects.toThrow(
      `linha 1: linha com mais de ${CSV_MAX_COLUMNS} colunas`,
    );
    const long = `Data;Histórico;Docto.;Crédito (R$);Débito (R$)\n${';'.repeat(CSV_MAX_LINE + 1)}\n`;
    await expect(parseCsv(long, CSV_PRESETS.bradesco, 1000)).rejects.toThrow(
      `linha 2: linha com mais de ${CSV_MAX_LINE} caracteres`,
    );
    const hostile = Array.from({ length: 40 }, () => cells(125_000)).join('\n');
    const started = Date.now();
    await expect(parseCsv(hostile, CSV_PRESETS.bradesco, 256 * 1024)).rejects.toThrow(/^linha 1: /);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('when a refused value is long, then the error quotes only its start', async () => {
    const date = '1'.repeat(10_000);
    await expect(
      parseCsv(`Data,Valor,Identificador,Descrição\n${date},-1.00,x,y\n`, CSV_PRESETS['nubank-conta']),
    ).rejects.toThrow(/^linha 2: data inválida: '1{40}…'$/);
    await expect(
      parseCsv(
        `Data,Valor,Identificador,Descrição\n05/01/2026,${'9'.repeat(20_000)},x,y\n`,
        CSV_PRESETS['nubank-conta'],
      ),
    ).rejects.toThrow(/^linha 2: valor inválido: '9{40}…'$/);
  });

  it('when bytes are Latin-1, then they decode as Windows-1252; valid UTF-8 stays UTF-8, whatever the pieces', () => {
    for (const size of [1, 2, 3, 100]) {
      expect(decodeStatement(Buffer.from('Descrição;Açaí', 'latin1'), size)).toBe('Descrição;Açaí');
      expect(decodeStatement(Buffer.from('\uFEFFDescrição;Açaí €', 'utf8'), size)).toBe('Descrição;Açaí €');
    }
    expect(() => decodeStatement(Buffer.from([0x41, 0x00, 0x42]))).toThrow(StatementRejected);
    // a UTF-8 file cut inside its last character is not UTF-8
    expect(decodeStatement(Buffer.from('Açaí', 'utf8').subarray(0, 5))).toBe('AÃ§aÃ');
  });

  it('when entries are keyed, then a repeated id on different entries gives different keys, identical entries are numbered, and the keys of a file do not depend on another', () => {
    const keyed = keyEntries([
      { id: 'x', date: '2026-01-01', cents: -100, text: 'a' },
      { id: 'x', date: '2026-01-01', cents: -200, text: 'b' },
      { id: 'x', date: '2026-01-01', cents: -100, text: 'a' },
      { id: null, date: '2026-01-02', cents: -100, text: 'Café' },
      { id: null, date: '2026-01-02', cents: -100, text: 'CAFÉ ' },
    ]).map((entry) => entry.key);
    expect(keyed).toEqual([
      'x|2026-01-01|-100',
      'x|2026-01-01|-200',
      'x|2026-01-01|-100#2',
      '|2026-01-02|-100|cafe',
      '|2026-01-02|-100|cafe#2',
    ]);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.constantFrom('a', 'b', null),
            date: fc.constantFrom('2026-01-01', '2026-01-02'),
            cents: fc.constantFrom(-1, 5),
            text: fc.constantFrom('x', 'y'),
          }),
        ),
        (items) => {
          const keys = keyEntries(items).map((entry) => entry.key);
          expect(new Set(keys).size).toBe(keys.length);
          // a file that starts with the same entries keys them the same way
          expect(keyEntries(items.slice(0, 3)).map((entry) => entry.key)).toEqual(keys.slice(0, 3));
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { csvDay, parseCsv } from '../../src/domain/statements/csv.ts';
import { CSV_PRESETS } from '../../src/domain/statements/csv-presets.ts';
import { keyEntries } from '../../src/domain/statements/statement-entries.ts';
import { decodeStatement, StatementRejected } from '../../src/domain/statements/statement-text.ts';

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

  it('when a preset file has a preamble, balance rows and a trailer, then only entries come out, the rest skipped with reasons', () => {
    const text = [
      'Extrato de: Agência: 1 | Conta: 2',
      'Data;Histórico;Docto.;Crédito (R$);Débito (R$);Saldo (R$)',
      '05/01/26;SALDO ANTERIOR;;;;100,00',
      '05/01/26;Pagto;1;;1.234,56;0',
      '06/01/26;Pix;2;0,10;;0',
      ';Total;;0,10;1.234,56;',
      '07/01/26;Estorno zerado;3;0,00;;0',
    ].join('\r\n');
    expect(parseCsv(text, CSV_PRESETS.bradesco)).toEqual({
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

  it('when a card export lists installments, then each row carries its number and total', () => {
    const text = 'date,title,amount\n2026-01-05,Loja - Parcela 2/10,100.00\n';
    expect(parseCsv(text, CSV_PRESETS['nubank-cartao']).transactions[0]).toMatchObject({
      cents: -10_000,
      installment: { number: 2, total: 10 },
    });
  });

  it('when the header is missing or a quote never closes, then the file is refused naming what and where', () => {
    expect(() => parseCsv('a,b\n1,2\n', CSV_PRESETS['nubank-conta'])).toThrow('cabeçalho não encontrado');
    expect(() =>
      parseCsv('Data,Valor,Identificador,Descrição\n05/01/2026,-1.00,x,"sem fim\n', CSV_PRESETS['nubank-conta']),
    ).toThrow(/^linha \d+: CSV malformado/);
    expect(() =>
      parseCsv('Data,Valor,Identificador,Descrição\n05/01/2026,dez,x,y\n', CSV_PRESETS['nubank-conta']),
    ).toThrow("linha 2: valor inválido: 'dez'");
  });

  it('when bytes are Latin-1, then they decode as Windows-1252; valid UTF-8 stays UTF-8', () => {
    expect(decodeStatement(Buffer.from('Descrição;Açaí', 'latin1'))).toBe('Descrição;Açaí');
    expect(decodeStatement(Buffer.from('\uFEFFDescrição;Açaí', 'utf8'))).toBe('Descrição;Açaí');
    expect(() => decodeStatement(Buffer.from([0x41, 0x00, 0x42]))).toThrow(StatementRejected);
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

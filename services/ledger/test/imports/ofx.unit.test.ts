import fc from 'fast-check';
import { OFX_MAX_DEPTH, OFX_MAX_TEXT, OfxReader, ofxDay } from '../../src/domain/statements/ofx.ts';
import { StatementRejected } from '../../src/domain/statements/statement-text.ts';

const SP = 'America/Sao_Paulo';

/** A whole file through the streaming reader, in pieces of `size` characters. */
function parseOfx(file: string, timeZone: string, size = file.length || 1) {
  const reader = new OfxReader(timeZone);
  const transactions = [];
  for (let at = 0; at < file.length; at += size) transactions.push(...reader.write(file.slice(at, at + size)));
  const end = reader.end();
  return { ...end.statement, transactions: [...transactions, ...end.transactions] };
}

const sgml = (transactions: string, extra = '') =>
  [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    'CHARSET:1252',
    '',
    '<OFX>',
    '<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL',
    '<BANKACCTFROM><BANKID>0341<ACCTID>1-2<ACCTTYPE>CHECKING</BANKACCTFROM>',
    '<BANKTRANLIST>',
    transactions,
    '</BANKTRANLIST>',
    extra,
    '</STMTRS></STMTTRNRS></BANKMSGSRSV1>',
    '</OFX>',
  ].join('\n');

describe('OFX statements', () => {
  it.each([
    ['20240105', '2024-01-05'],
    ['20240105120000', '2024-01-05'],
    ['20240105120000.000[-3:BRT]', '2024-01-05'],
    ['20240105013000[0:GMT]', '2024-01-04'],
    ['20240105013000[+0]', '2024-01-04'],
    ['20240104230000[-5:EST]', '2024-01-05'],
    ['20240105[-3]', '2024-01-05'],
    ['20240104220000[-5.5:XYZ]', '2024-01-05'],
  ])('when the date is %s, then it is %s in São Paulo', (text, day) => {
    expect(ofxDay(text, SP)).toBe(day);
  });

  it.each(['2024-01-05', '20240230', '20241305', '20240105250000', '20240105[-30:X]', ''])(
    'when the date is %p, then it is not a date',
    (text) => {
      expect(ofxDay(text, SP)).toBeNull();
    },
  );

  it('when many dates are read, then each is the day a fresh formatter gives, across daylight-saving changes and odd offsets', () => {
    const zones = ['America/Sao_Paulo', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Chatham', 'Australia/Lord_Howe'];
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(2015, 0, 1), max: Date.UTC(2030, 0, 1) }),
        (zone, instant) => {
          const at = new Date(instant);
          const text = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}[0:GMT]`;
          const fresh = new Intl.DateTimeFormat('en-CA', {
            timeZone: zone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
          });
          expect(ofxDay(text, zone)).toBe(fresh.format(Math.floor(instant / 1000) * 1000));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('when an SGML file has unclosed elements, closed ones, escapes and empty elements, then each value is read whole, on the file lines', () => {
    const statement = parseOfx(
      sgml(
        '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1,50\n<CHECKNUM>\n<NAME>M&M <3</NAME>\n<MEMO>x &amp; y &#233; &foo;\n</STMTTRN>',
      ),
      SP,
    );
    expect(statement.transactions).toEqual([
      expect.objectContaining({ line: 10, cents: -150, name: 'M&M <3', memo: 'x & y é &foo;', checkNumber: null }),
    ]);
  });

  it('when a leaf element is closed by another name or not at all, then it is read as mainstream OFX readers read it', () => {
    const statement = parseOfx(
      sgml(
        '<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTUSER>20240104</DTPOSTED><DTPOSTED>20240105</DTUSER><TRNAMT>-1<FITID>a</FITID><MEMO>pão</NAME>\n</STMTTRN>',
      ),
      SP,
    );
    expect(statement.transactions).toEqual([expect.objectContaining({ date: '2024-01-05', cents: -100, memo: 'pão' })]);
  });

  it('when a file is read in pieces of any size, then it reads the same as whole', () => {
    const file = sgml(
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105120000[-3:BRT]<TRNAMT>-1.234,56<FITID>a<NAME>Padaria<MEMO>pão &amp; leite\n</STMTTRN>\n' +
        '<!-- um comentário -->\n<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240106<TRNAMT>0.10<FITID>b<MEMO>Pix <3\n</STMTTRN>',
      '<LEDGERBAL><BALAMT>-99,90<DTASOF>20240131</LEDGERBAL>',
    );
    const whole = parseOfx(file, SP);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), (size) => {
        expect(parseOfx(file, SP, size)).toEqual(whole);
      }),
    );
  });

  it('when a bank statement is parsed, then amounts, dates, names, FITIDs and LEDGERBAL come out exact', () => {
    const statement = parseOfx(
      sgml(
        '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105120000[-3:BRT]<TRNAMT>-1.234,56<FITID>a<NAME>Padaria<MEMO>pão & leite\n</STMTTRN>\n' +
          '<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240106<TRNAMT>0.10<FITID>b<MEMO>Pix\n</STMTTRN>',
        '<LEDGERBAL><BALAMT>-99,90<DTASOF>20240131</LEDGERBAL>',
      ),
      SP,
    );
    expect(statement).toEqual({
      kind: 'bank',
      currency: 'BRL',
      account: '1-2',
      ledgerBalance: { cents: -9990, date: '2024-01-31', line: 15 },
      transactions: [
        expect.objectContaining({
          line: 10,
          date: '2024-01-05',
          cents: -123_456,
          fitId: 'a',
          name: 'Padaria',
          memo: 'pão & leite',
        }),
        expect.objectContaining({ line: 12, date: '2024-01-06', cents: 10, fitId: 'b', name: '', memo: 'Pix' }),
      ],
    });
  });

  it('when a card statement has a foreign purchase, then the original amount is its BRL amount over the rate, to the cent', () => {
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?OFX OFXHEADER="200" VERSION="211"?>',
      '<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>BRL</CURDEF><CCACCTFROM><ACCTID>5502</ACCTID></CCACCTFROM>',
      '<BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240105</DTPOSTED><TRNAMT>-100.00</TRNAMT><FITID>x</FITID><MEMO>STEAM</MEMO>',
      '<ORIGCURRENCY><CURRATE>5.4321</CURRATE><CURSYM>USD</CURSYM></ORIGCURRENCY></STMTTRN></BANKTRANLIST>',
      '</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>',
    ].join('\n');
    const statement = parseOfx(xml, SP);
    expect(statement.kind).toBe('card');
    expect(statement.transactions[0]).toMatchObject({ cents: -10_000, original: { amount: '18.41', currency: 'USD' } });
  });

  it.each([
    ['<!DOCTYPE OFX>', 'recusada por segurança'],
    ['<!ENTITY a "b">', 'recusada por segurança'],
    ['<?xml-stylesheet href="x"?>', 'recusada por segurança'],
  ])('when the file carries %s, then it is refused before parsing', (declaration, message) => {
    expect(() => parseOfx(`<?xml version="1.0"?>\n${declaration}\n<OFX></OFX>`, SP)).toThrow(message);
  });

  it('when the structure is broken, then the error names the line of the file', () => {
    // an aggregate left open, a closing tag that closes nothing, a file that ends early
    const open = sgml('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1<FITID>a');
    expect(() => parseOfx(open, SP)).toThrow('linha 11: OFX malformado: <STMTTRN> da linha 10 não foi fechado');
    const stray = sgml('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1<FITID>a\n</STMTTRN>\n</STMTTRX>');
    expect(() => parseOfx(stray, SP)).toThrow(
      'linha 12: OFX malformado: </STMTTRX> fecha um elemento que não está aberto',
    );
    const cut = sgml('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105').split('</BANKTRANLIST>')[0];
    expect(() => parseOfx(cut, SP)).toThrow(
      /^linha \d+: OFX malformado: o arquivo termina com <OFX> \(linha 6\) aberto/,
    );
  });

  it('when elements nest deeper than the limit, or a name is a property of every object, then it is refused or read, never a crash', () => {
    const deep = (levels: number) =>
      sgml(`${'<A>'.repeat(levels)}${'</A>'.repeat(levels)}`).replace('<BANKTRANLIST>', '<BANKTRANLIST>\n');
    expect(() => parseOfx(deep(OFX_MAX_DEPTH), SP)).toThrow(
      `OFX malformado: mais de ${OFX_MAX_DEPTH} elementos aninhados`,
    );
    expect(() => parseOfx(deep(OFX_MAX_DEPTH - 10), SP)).not.toThrow();
    const names = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString'];
    const odd = sgml(
      `<STMTTRN>${names.map((name) => `<${name}>x</${name}><${name}>`).join('')}<TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1<MEMO>ok\n</STMTTRN>`,
    );
    expect(parseOfx(odd, SP).transactions).toEqual([expect.objectContaining({ cents: -100, memo: 'ok' })]);
    expect(() => parseOfx(sgml('<__proto__>\n</constructor>'), SP)).toThrow(StatementRejected);
  });

  it('when a value is longer than the limit, then the file is refused naming its line and quoting no more than a few characters', () => {
    const long = sgml(`<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${'2'.repeat(OFX_MAX_TEXT + 1)}\n</STMTTRN>`);
    expect(() => parseOfx(long, SP, 4096)).toThrow(/^linha 10: texto de mais de/);
    const bad = sgml(`<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>${'2'.repeat(1000)}<TRNAMT>-1\n</STMTTRN>`);
    let message = '';
    try {
      parseOfx(bad, SP);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^linha 10: DTPOSTED inválido: '2{40}…'$/);
  });

  it('when a file holds two statements or none, then it is refused', () => {
    expect(() => parseOfx('OFXHEADER:100\n<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>', SP)).toThrow(
      'não traz extrato',
    );
    expect(() => parseOfx('isto não é OFX', SP)).toThrow('falta o elemento <OFX>');
  });

  it('when given arbitrary text around OFX tags, then it parses or refuses with StatementRejected, never anything else', () => {
    const pieces = fc.constantFrom(
      '<OFX>',
      '</OFX>',
      '<STMTTRN>',
      '</STMTTRN>',
      '<TRNAMT>',
      '-1,00',
      '<DTPOSTED>',
      '20240105',
      '<BANKMSGSRSV1>',
      '<STMTTRNRS>',
      '<STMTRS>',
      '&',
      '<',
      '\n',
      'OFXHEADER:100\n',
      '<!--x-->',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 5 })), { maxLength: 40 }), (parts) => {
        try {
          parseOfx(parts.join(''), SP);
        } catch (err) {
          expect(err).toBeInstanceOf(StatementRejected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('when a hostile file has a long run of tag-like text, then reading it stays linear', () => {
    const hostile = `OFXHEADER:100\n<OFX><${'A'.repeat(200_000)}!x`;
    const started = Date.now();
    expect(() => parseOfx(hostile, SP)).toThrow(StatementRejected);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

import fc from 'fast-check';
import { ofxDay, parseOfx, sgmlToXml } from '../../src/domain/statements/ofx.ts';
import { StatementRejected } from '../../src/domain/statements/statement-text.ts';

const SP = 'America/Sao_Paulo';

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

  it('when an SGML file has unclosed elements, closed ones, escapes and empty elements, then the XML keeps its lines', () => {
    const body = '<OFX>\n<A>\n<B>1,50\n<C>M&M <3</C>\n<D>\n<E>x &amp; y\n</A>\n</OFX>';
    const xml = sgmlToXml(body);
    expect(xml).toBe('<OFX>\n<A>\n<B>1,50</B>\n<C>M&amp;M &lt;3</C>\n<D></D>\n<E>x &amp; y</E>\n</A>\n</OFX>');
    expect(xml.split('\n')).toHaveLength(body.split('\n').length);
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
    const file = sgml('<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-1<FITID>a\n</STMTTRX>');
    expect(() => parseOfx(file, SP)).toThrow(/^linha 11: OFX malformado/);
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

/**
 * Statement files the tests write themselves, shaped as Brazilian banks export them: OFX 1.0.2 (SGML, CRLF,
 * `CHARSET:1252` bytes) and 2.x (XML, UTF-8), bank and credit-card statements, and the CSV exports of the presets.
 */

export interface OfxEntry {
  fitid?: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Signed, as the file writes it: `-45,90` or `1234.56`. */
  amount: string;
  memo: string;
  name?: string;
  type?: string;
  /** Written after the date, e.g. `120000[-3:BRT]`. */
  time?: string;
  /** `<ORIGCURRENCY>`: rate and currency of a foreign purchase. */
  original?: { rate: string; currency: string };
}

export interface OfxOptions {
  version?: '102' | '211';
  kind?: 'bank' | 'card';
  /** Latin-1 bytes (`CHARSET:1252`) or UTF-8. */
  charset?: 'latin1' | 'utf8';
  ledgerBalance?: { amount: string; date: string };
}

const ofxDate = (date: string, time = '') => `${date.replaceAll('-', '')}${time}`;

function transaction(entry: OfxEntry, xml: boolean): string {
  const element = (name: string, value: string) => (xml ? `<${name}>${value}</${name}>` : `<${name}>${value}`);
  const escaped = (value: string) => (xml ? value.replaceAll('&', '&amp;') : value);
  return [
    '<STMTTRN>',
    element('TRNTYPE', entry.type ?? (entry.amount.startsWith('-') ? 'DEBIT' : 'CREDIT')),
    element('DTPOSTED', ofxDate(entry.date, entry.time)),
    element('TRNAMT', entry.amount),
    ...(entry.fitid ? [element('FITID', entry.fitid)] : []),
    ...(entry.name ? [element('NAME', escaped(entry.name))] : []),
    element('MEMO', escaped(entry.memo)),
    ...(entry.original
      ? [
          `<ORIGCURRENCY>`,
          element('CURRATE', entry.original.rate),
          element('CURSYM', entry.original.currency),
          '</ORIGCURRENCY>',
        ]
      : []),
    '</STMTTRN>',
  ].join(xml ? '\n' : '\r\n');
}

/** An OFX statement file's bytes. */
export function ofxFile(entries: OfxEntry[], options: OfxOptions = {}): Buffer {
  const xml = options.version === '211';
  const card = options.kind === 'card';
  const newline = xml ? '\n' : '\r\n';
  const element = (name: string, value: string) => (xml ? `<${name}>${value}</${name}>` : `<${name}>${value}`);
  const dates = entries.map((entry) => entry.date).sort();
  const header = xml
    ? [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        '<?OFX OFXHEADER="200" VERSION="211" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>',
      ]
    : [
        'OFXHEADER:100',
        'DATA:OFXSGML',
        'VERSION:102',
        'SECURITY:NONE',
        `ENCODING:${options.charset === 'utf8' ? 'UTF-8' : 'USASCII'}`,
        `CHARSET:${options.charset === 'utf8' ? 'NONE' : '1252'}`,
        'COMPRESSION:NONE',
        'OLDFILEUID:NONE',
        'NEWFILEUID:NONE',
        '',
      ];
  const account = card
    ? ['<CCACCTFROM>', element('ACCTID', '5502********1234'), '</CCACCTFROM>']
    : [
        '<BANKACCTFROM>',
        element('BANKID', '0341'),
        element('ACCTID', '12345-6'),
        element('ACCTTYPE', 'CHECKING'),
        '</BANKACCTFROM>',
      ];
  const list = [
    '<BANKTRANLIST>',
    element('DTSTART', ofxDate(dates[0] ?? '2026-01-01')),
    element('DTEND', ofxDate(dates[dates.length - 1] ?? '2026-01-31')),
    ...entries.map((entry) => transaction(entry, xml)),
    '</BANKTRANLIST>',
  ];
  const balance = options.ledgerBalance
    ? [
        '<LEDGERBAL>',
        element('BALAMT', options.ledgerBalance.amount),
        element('DTASOF', ofxDate(options.ledgerBalance.date)),
        '</LEDGERBAL>',
      ]
    : [];
  const statement = card
    ? [
        '<CREDITCARDMSGSRSV1>',
        '<CCSTMTTRNRS>',
        element('TRNUID', '1'),
        '<CCSTMTRS>',
        element('CURDEF', 'BRL'),
        ...account,
        ...list,
        ...balance,
        '</CCSTMTRS>',
        '</CCSTMTTRNRS>',
        '</CREDITCARDMSGSRSV1>',
      ]
    : [
        '<BANKMSGSRSV1>',
        '<STMTTRNRS>',
        element('TRNUID', '1'),
        '<STMTRS>',
        element('CURDEF', 'BRL'),
        ...account,
        ...list,
        ...balance,
        '</STMTRS>',
        '</STMTTRNRS>',
        '</BANKMSGSRSV1>',
      ];
  const signon = [
    '<SIGNONMSGSRSV1>',
    '<SONRS>',
    '<STATUS>',
    element('CODE', '0'),
    element('SEVERITY', 'INFO'),
    '</STATUS>',
    element('DTSERVER', '20260201120000[-3:BRT]'),
    element('LANGUAGE', 'POR'),
    '</SONRS>',
    '</SIGNONMSGSRSV1>',
  ];
  const text = [...header, '<OFX>', ...signon, ...statement, '</OFX>', ''].join(newline);
  return Buffer.from(text, options.charset === 'utf8' || xml ? 'utf8' : 'latin1');
}

/** A CSV's bytes: rows joined with the delimiter (cells holding it, or quotes, are quoted). */
export function csvFile(rows: string[][], delimiter = ',', encoding: 'utf8' | 'latin1' = 'utf8'): Buffer {
  const quote = (cell: string) =>
    cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') ? `"${cell.replaceAll('"', '""')}"` : cell;
  return Buffer.from(`${rows.map((row) => row.map(quote).join(delimiter)).join('\r\n')}\r\n`, encoding);
}

/** A hostile statement file: what it is, how it is sent, the query it is read with, and its bytes when asked. */
export interface HostileFile {
  name: string;
  contentType: string;
  query: string;
  /** Made when asked, so a test holds one 10 MiB file at a time (each one held longer lengthens every GC pause). */
  body: () => Buffer;
}

const TEN_MIB = 10 * 1024 * 1024;

/** `unit` repeated up to just under 10 MiB (with `head` first and `tail` last), made when asked. */
const filled =
  (head: string, unit: string, tail = '') =>
  () =>
    Buffer.from(
      head + unit.repeat(Math.floor((TEN_MIB - head.length - tail.length - 1) / unit.length)) + tail,
      'latin1',
    );

/**
 * Files of just under 10 MiB made to cost a reader the most: a CSV of 40 header-less lines of 125,000 cells (once
 * normalized per preset column in the header search), a CSV and an OFX read to their end whose every line is left
 * out, an OFX of one endless tag-like run, one nested past any depth, and one made of elements named after
 * properties every object has.
 */
export function hostileStatementFiles(): HostileFile[] {
  const ofxHead = 'OFXHEADER:100\r\nDATA:OFXSGML\r\n\r\n<OFX>\r\n';
  const statement = '<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\r\n<BANKTRANLIST>\r\n';
  const closing = '</BANKTRANLIST>\r\n</STMTRS></STMTTRNRS></BANKMSGSRSV1>\r\n</OFX>\r\n';
  const cells = `${'a;'.repeat(125_000)}\n`;
  return [
    {
      name: 'CSV of 40 lines of 125,000 cells',
      contentType: 'text/csv',
      query: 'preset=bradesco',
      body: filled('', cells),
    },
    {
      name: 'CSV whose every row is a balance',
      contentType: 'text/csv',
      query: 'preset=bradesco',
      body: filled('Data;Histórico;Docto.;Crédito (R$);Débito (R$)\n', '05/01/26;SALDO DO DIA;1;;;\n'),
    },
    {
      name: 'OFX of zero amounts',
      contentType: 'application/x-ofx',
      query: '',
      body: filled(
        ofxHead + statement,
        '<STMTTRN><TRNTYPE>OTHER<DTPOSTED>20260105<TRNAMT>0,00<FITID>z<MEMO>Tarifa isenta\r\n</STMTTRN>\r\n',
        closing,
      ),
    },
    { name: 'OFX of one tag-like run', contentType: 'application/x-ofx', query: '', body: filled(`${ofxHead}<`, 'A') },
    { name: 'OFX nested past any depth', contentType: 'application/ofx', query: '', body: filled(ofxHead, '<A>\n') },
    {
      name: 'OFX of elements named __proto__, constructor, prototype',
      contentType: 'application/x-ofx',
      query: '',
      body: filled(ofxHead + statement, '<__proto__>x</constructor><prototype>\r\n</prototype>\r\n', closing),
    },
  ];
}

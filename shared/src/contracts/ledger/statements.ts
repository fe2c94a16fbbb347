import Joi from 'joi';
import { ReceivedFile } from '../../http/received-file.ts';
import { errorSchema, idParams } from '../common.ts';
import { defineRoute, type FileBody } from '../route.ts';
import { jobSchema } from './jobs.ts';

/** The CSV exports the import reads without a column mapping (docs/open-banking.md lists their columns). */
export const CSV_PRESET_NAMES = [
  'nubank-conta',
  'nubank-cartao',
  'itau',
  'bradesco',
  'banco-do-brasil',
  'caixa',
  'santander',
  'inter',
  'c6-cartao',
] as const;
export type CsvPresetName = (typeof CSV_PRESET_NAMES)[number];

export const CSV_DATE_FORMATS = ['DD/MM/YYYY', 'DD/MM/YY', 'YYYY-MM-DD', 'YYYYMMDD', 'MM/DD/YYYY'] as const;

/** How a statement file is read: its format, and for a CSV a bank preset or an explicit column mapping. */
export interface StatementQuery {
  format?: 'ofx' | 'csv';
  preset?: CsvPresetName;
  date_column?: string;
  description_column?: string;
  amount_column?: string;
  credit_column?: string;
  debit_column?: string;
  id_column?: string;
  date_format?: (typeof CSV_DATE_FORMATS)[number];
  decimal_separator?: ',' | '.';
  delimiter?: ',' | ';' | 'tab' | '|';
  expense_sign?: 'negative' | 'positive';
}

/** What a statement import did, in its job's `result`. */
export const statementResultSchema = Joi.object({
  format: Joi.string().valid('ofx', 'csv').required(),
  lines: Joi.number().integer().required().description('Entries read from the file'),
  created: Joi.number().integer().required(),
  updated: Joi.number()
    .integer()
    .required()
    .description('Entries already there that the file changed (an effected pending entry)'),
  duplicates: Joi.number().integer().required().description('Entries already there, from this file or another source'),
  reconciled: Joi.number().integer().required().description('Unpaid manual forecasts settled (auto_reconcile_enabled)'),
  reconciliation_suggestions: Joi.number().integer().required(),
  categorized: Joi.number().integer().required(),
  skipped: Joi.array()
    .items(Joi.object({ line: Joi.number().integer().allow(null).required(), reason: Joi.string().required() }))
    .required()
    .description('The lines not imported, with why, in file order: the first 1,000'),
  skipped_count: Joi.number().integer().required().description('How many lines were not imported'),
  ledger_balance: Joi.object({
    statement: Joi.number().integer().required().description('`LEDGERBAL` of the file, cents'),
    ledger: Joi.number().integer().required().description("The account's balance at that day after the import, cents"),
    as_of: Joi.string().required(),
    matches: Joi.boolean().required(),
  })
    .allow(null)
    .required()
    .description("An OFX bank statement's stated balance checked against the account (null otherwise)"),
}).label('StatementImportResult');

const OFX_EXAMPLE = [
  'OFXHEADER:100',
  'DATA:OFXSGML',
  'VERSION:102',
  'CHARSET:1252',
  '',
  '<OFX>',
  '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>BRL',
  '<BANKACCTFROM><BANKID>0341<ACCTID>12345-6<ACCTTYPE>CHECKING</BANKACCTFROM>',
  '<BANKTRANLIST><DTSTART>20260101<DTEND>20260131',
  '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260105120000[-3:BRT]<TRNAMT>-45,90<FITID>202601050001<MEMO>Padaria São João',
  '</STMTTRN>',
  '</BANKTRANLIST>',
  '<LEDGERBAL><BALAMT>1204,10<DTASOF>20260131</LEDGERBAL>',
  '</STMTRS></STMTTRNRS></BANKMSGSRSV1>',
  '</OFX>',
  '',
].join('\r\n');

export const STATEMENT_FILE: FileBody = {
  mediaTypes: ['application/x-ofx', 'application/ofx', 'text/csv', 'text/plain', 'application/octet-stream'],
  description:
    'The statement file as the bank exported it: OFX 1.0.2 (SGML) or 2.x (XML), bank or credit card, or CSV; UTF-8 or Latin-1 (Windows-1252), up to 10 MiB',
  example: OFX_EXAMPLE,
};

const statementQuery = Joi.object<StatementQuery>({
  format: Joi.string()
    .valid('ofx', 'csv')
    .description('Default: told by the content type (`application/x-ofx`, `text/csv`) or by the file itself'),
  preset: Joi.string()
    .valid(...CSV_PRESET_NAMES)
    .description('CSV: the bank export to read; without it, the column mapping below is required'),
  date_column: Joi.string().max(100).description('CSV mapping: the header of the date column'),
  description_column: Joi.string().max(100),
  amount_column: Joi.string().max(100).description('One signed amount column; or `credit_column` and `debit_column`'),
  credit_column: Joi.string().max(100),
  debit_column: Joi.string().max(100),
  id_column: Joi.string().max(100).description("The bank's id of each entry, when the file has one"),
  date_format: Joi.string()
    .valid(...CSV_DATE_FORMATS)
    .description('Default DD/MM/YYYY (2-digit years are read too)'),
  decimal_separator: Joi.string().valid(',', '.').description('Default `,`'),
  delimiter: Joi.string().valid(',', ';', 'tab', '|').description('Default: the most frequent of them in the file'),
  expense_sign: Joi.string()
    .valid('negative', 'positive')
    .description('Default `negative`; card exports that list purchases as positive amounts take `positive`'),
})
  .with('credit_column', 'debit_column')
  .with('debit_column', 'credit_column')
  .oxor('amount_column', 'credit_column')
  .oxor('preset', 'date_column');

const jobAnswer = Joi.object({ job: jobSchema.required() }).label('StatementImportAccepted');

const DESCRIPTION = [
  'The body is the file itself (`curl --data-binary @extrato.ofx -H "content-type: application/x-ofx"`), up to 10 MiB (413 above); other content types are 415. It is stored as it arrives and read by the statement-file worker, never in the request. Every entry goes through the import pipeline shared with bank connections and the JSON import (docs/decisions.md §9).',
  "**OFX**: 1.0.2 (SGML) and 2.x (XML); bank (`STMTRS`) and credit-card (`CCSTMTRS`) statements, one per file; UTF-8 or Latin-1 (`CHARSET:1252`/ISO-8859-1: the bytes decide); amounts with a decimal comma or dot; dates with a time zone in brackets (`20240105120000[-3:BRT]`) are the context's calendar day of that instant. Read as mainstream OFX readers read it: a value ends at the next tag, and a closing tag right after a value closes it whatever its name (`<DTUSER>20240105</DTPOSTED>`). A file with a DTD, an entity declaration or any `<!`/`<?` declaration other than the XML and OFX headers is refused. Values of at most 32 KiB, elements nested at most 100 deep. `LEDGERBAL` of a bank statement is compared with the account's balance at its day after the import (`ledger_balance` in the result; a difference is reported, not refused).",
  '**CSV**: `preset` reads a bank export (`nubank-conta`, `nubank-cartao`, `itau`, `bradesco`, `banco-do-brasil`, `caixa`, `santander`, `inter`, `c6-cartao`); or map the columns by header name: `date_column`, `description_column`, `amount_column` (or `credit_column` + `debit_column`), optional `id_column`, `date_format`, `decimal_separator`, `delimiter`, `expense_sign`. The header is looked for in the first 40 rows; rows above it are passed over; balance and total rows, rows without a date and zero amounts are skipped and listed with their reason. Lines of at most 32 KiB and 200 columns.',
  "Deduplication: an entry is keyed by the bank's id (OFX `FITID`, the CSV id column) together with its date, amount and direction (without an id, by its description), so re-importing a file or an overlapping one creates only what is new and a bank that repeats one id on different entries loses none; a key longer than 200 characters is kept as its SHA-256. An entry a bank connection (or another file format) already brought is recognised by the matching rule (same account or card, amount and direction, dates at most 5 days apart) and not created again. An entry that settles an unpaid manual forecast reconciles it when `auto_reconcile_enabled`, else is counted in `reconciliation_suggestions` (`GET /v1/reconciliation/suggestions`). Enabled categorization rules categorize new entries. The same bytes imported again the same way (options and time zone) into the same account or card after a completed import are not read again: the job completes with every entry counted in `duplicates`.",
  "A file whose first bytes already cannot be read (empty, binary, a CSV without preset or mapping) is 400 at once. A file up to 1 MiB is waited for up to 5 s: **200** `{job}` when its import finished, **400** with the line in `message` and `details` when it cannot be read (nothing written, no job left), else **202**. A larger file is answered **202** `{job}` at once; if it cannot be read, its job fails with `error` naming the line, nothing written. Poll `GET /v1/jobs/{id}`: while it runs, `progress` and `result.lines_read` (the file's lines read so far); the finished job's `result` is a `StatementImportResult` (created, updated, duplicates, reconciled and skipped lines with their reasons).",
].join('\n\n');

const statementRoute = <const Id extends string>(operationId: Id, path: string, holder: string) =>
  defineRoute({
    operationId,
    method: 'post',
    path,
    service: 'ledger',
    tag: 'Open banking',
    summary: `Import a statement file (OFX or CSV) into ${holder}`,
    description: DESCRIPTION,
    bodyLimit: '10mb',
    file: STATEMENT_FILE,
    body: Joi.object<ReceivedFile>().instance(ReceivedFile),
    params: idParams,
    query: statementQuery,
    responses: {
      200: { description: 'The job, finished within 5 s', schema: jobAnswer },
      202: { description: 'The job, still running', schema: jobAnswer },
      404: { description: `Unknown ${holder} in this context`, schema: errorSchema },
    },
  });

export const statementRoutes = [
  statementRoute('importAccountStatement', '/v1/accounts/:id/statements', 'an account'),
  statementRoute('importCardStatement', '/v1/credit-cards/:id/statements', 'a credit card'),
];

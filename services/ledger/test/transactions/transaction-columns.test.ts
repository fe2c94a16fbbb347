import { TestStack } from '../../../../test/support/stack.ts';
import { type ColumnSpec, TRANSACTION_COLUMNS } from '../../src/data-access/transaction-columns.ts';

/** How information_schema names each SQL type of the definition (`udt_name`). */
const UDT: Record<ColumnSpec['type'], string> = {
  uuid: 'uuid',
  text: 'text',
  bigint: 'int8',
  numeric: 'numeric',
  integer: 'int4',
  boolean: 'bool',
  date: 'date',
  timestamptz: 'timestamptz',
  'text[]': '_text',
};

/** A definition's default as PostgreSQL prints `column_default`. */
function sqlDefault(value: ColumnSpec['default']): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return `'${value}'::text`;
  if (Array.isArray(value)) return `'{${value.join(',')}}'::text[]`;
  return String(value);
}

interface ColumnFacts {
  name: string;
  udt: string;
  nullable: boolean;
  default: string | null;
  generated: boolean;
}

describe('ledger.transactions: the column definition (transaction-columns.ts) and the migrated table', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  it('when the migrations ran, then every column has the name, type, nullability and default of the definition, and none is missing on either side', async () => {
    const rows = await stack.sql<{
      column_name: string;
      udt_name: string;
      is_nullable: 'YES' | 'NO';
      column_default: string | null;
      is_generated: 'ALWAYS' | 'NEVER';
    }>(
      `select column_name, udt_name, is_nullable, column_default, is_generated
       from information_schema.columns where table_schema = 'ledger' and table_name = 'transactions'`,
    );
    const byName = (a: ColumnFacts, b: ColumnFacts) => a.name.localeCompare(b.name);
    const actual: ColumnFacts[] = rows
      .map((row) => ({
        name: row.column_name,
        udt: row.udt_name,
        nullable: row.is_nullable === 'YES',
        default: row.column_default,
        generated: row.is_generated === 'ALWAYS',
      }))
      .sort(byName);
    const expected: ColumnFacts[] = (Object.entries(TRANSACTION_COLUMNS) as Array<[string, ColumnSpec]>)
      .map(([name, spec]) => ({
        name,
        udt: UDT[spec.type],
        nullable: spec.nullable,
        default: sqlDefault(spec.default),
        generated: spec.generated === true,
      }))
      .sort(byName);
    expect(actual).toEqual(expected);
  });
});

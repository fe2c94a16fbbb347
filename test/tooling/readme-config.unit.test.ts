import { readFileSync } from 'node:fs';
import { CONFIG_TABLE_DOC, withConfigTable } from '../../scripts/config-table.ts';

describe('configuration table (docs/operations.md)', () => {
  it('when the config schemas change, then the table must be regenerated (npm run config-table -- --write)', () => {
    const doc = readFileSync(CONFIG_TABLE_DOC, 'utf8');
    expect(withConfigTable(doc)).toBe(doc);
  });
});

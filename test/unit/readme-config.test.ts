import { readFileSync } from 'node:fs';
import { withConfigTable } from '../../scripts/config-table.ts';

describe('README configuration table', () => {
  it('when the config schemas change, then the README table must be regenerated (npm run config-table -- --write)', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(withConfigTable(readme)).toBe(readme);
  });
});

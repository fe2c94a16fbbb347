import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

describe('typed client: the generated schema', () => {
  it('when regenerated from the route contracts, then it equals the committed src/schema.ts', () => {
    const script = resolve(import.meta.dirname, '../scripts/generate.ts');
    const result = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: result.status, stderr: result.stderr.trim() }).toEqual({ status: 0, stderr: '' });
  });
});

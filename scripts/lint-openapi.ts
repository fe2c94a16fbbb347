// Lints the OpenAPI document the gateway serves with Redocly (recommended, warnings as errors) and
// Spectral (spectral:oas, failing on warnings); configs and the reason for each rule switched off are
// in .ci/openapi/. Offline: no telemetry, no remote rule sets. Part of `npm run lint`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openApiDocument } from './openapi-document.ts';

const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));

const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
const run = (name: string, args: string[]) => {
  console.log(`--- ${name}`);
  const result = spawnSync(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
  return result.status === 0;
};
const redocly = run('redocly lint (recommended-strict)', [
  join(root, 'node_modules/@redocly/cli/bin/cli.js'),
  'lint',
  file,
  '--config',
  join(root, '.ci/openapi/redocly.yaml'),
  '--format=stylish',
]);
const spectral = run('spectral lint (spectral:oas)', [
  join(root, 'node_modules/@stoplight/spectral-cli/dist/index.js'),
  'lint',
  file,
  '--ruleset',
  join(root, '.ci/openapi/spectral.yaml'),
  '--fail-severity=warn',
]);
rmSync(dir, { recursive: true, force: true });
if (!redocly || !spectral) {
  console.error('lint-openapi: the OpenAPI document has lint problems');
  process.exit(1);
}
console.log('lint-openapi: 0 errors, 0 warnings');

import { readFileSync } from 'node:fs';
import { SecretBox } from '../services/ledger/src/domain/open-banking/secret-box.ts';

/**
 * `npm run --silent seal-secret < private-key.jwk.json`: prints the text sealed with the first key of
 * OPEN_BANKING_ENCRYPTION_KEYS, for a signing key kept sealed in OPEN_BANKING_CLIENTS (`signing_key`).
 */
const keys = process.env.OPEN_BANKING_ENCRYPTION_KEYS;
if (!keys) {
  process.stderr.write('seal-secret: set OPEN_BANKING_ENCRYPTION_KEYS (the keyring the ledger runs with)\n');
  process.exit(1);
}
const plain = readFileSync(0, 'utf8').trim();
if (!plain) {
  process.stderr.write('seal-secret: give the secret on standard input\n');
  process.exit(1);
}
process.stdout.write(`${new SecretBox(keys).seal(plain)}\n`);

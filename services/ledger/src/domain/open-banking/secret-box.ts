import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'v1';
const ALGORITHM = 'aes-256-gcm';

/** Why a stored secret could not be opened (unknown key id, tampered or truncated text). */
export class SecretUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnreadable';
  }
}

/**
 * Secrets at rest (refresh tokens, PKCE verifiers, nonces, private keys in configuration): AES-256-GCM with a
 * random 96-bit IV, sealed as `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url). The keyring's first key seals;
 * every key opens what it sealed, so a new key goes first and the old one stays until nothing uses it.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly current: string;

  /** `keyring`: `kid:base64key[,kid:base64key…]`, each key 32 bytes; the first seals. */
  constructor(keyring: string) {
    const entries = keyring.split(',').map((entry) => {
      const [kid, key] = entry.trim().split(':');
      const bytes = Buffer.from(key ?? '', 'base64');
      if (!kid || !/^[\w-]{1,32}$/.test(kid) || bytes.length !== 32) {
        throw new Error('OPEN_BANKING_ENCRYPTION_KEYS: each entry is <key id>:<32 bytes in base64>');
      }
      return [kid, bytes] as const;
    });
    this.keys = new Map(entries);
    this.current = entries[0][0];
  }

  get currentKeyId(): string {
    return this.current;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.current) as Buffer, iv);
    cipher.setAAD(Buffer.from(`${PREFIX}.${this.current}`));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [PREFIX, this.current, iv, body, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [prefix, kid, iv, body, tag, extra] = sealed.split('.');
    const key = this.keys.get(kid ?? '');
    if (prefix !== PREFIX || !key || !iv || body === undefined || !tag || extra !== undefined) {
      throw new SecretUnreadable('Segredo cifrado com uma chave desconhecida ou em formato inválido');
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`${PREFIX}.${kid}`));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadable('Segredo cifrado adulterado ou com a chave errada');
    }
  }

  /** Whether a sealed text is under an older key (to seal it again under the current one). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.current;
  }

  static isSealed(text: string): boolean {
    return text.startsWith(`${PREFIX}.`) && text.split('.').length === 5;
  }
}

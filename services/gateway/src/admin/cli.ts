import { parseArgs } from 'node:util';
import { ensureDatabase, migrateSchema } from '@finance/shared/db/orm';
import { AppError } from '@finance/shared/errors/app-error';
import { loadGatewayConfig } from '../config.ts';
import type { License } from '../data-access/entities.ts';
import {
  createCompany,
  createKey,
  createUser,
  listKeys,
  revokeKey,
  type Scope,
  setLicense,
} from '../domain/manage-access.ts';
import { GATEWAY_SCHEMA, openGatewayOrm } from '../start-gateway.ts';

const USAGE = `usage: npm run --silent admin -- <command>
  create-user [--name N]
  create-company --user ID --name N [--license active|inactive]
  create-key --user ID [--profile ID] --scopes read[,write]
  revoke-key --key ID
  list-keys --user ID
  set-license --profile ID --license active|inactive`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function required(values: Record<string, string | undefined>, name: string, uuid = false): string {
  const value = values[name];
  if (!value) throw new AppError(400, `--${name} é obrigatório`);
  if (uuid && !UUID.test(value)) throw new AppError(400, `--${name} deve ser um UUID`);
  return value;
}

function license(value: string | undefined, fallback?: License): License {
  const chosen = value ?? fallback;
  if (chosen !== 'active' && chosen !== 'inactive') throw new AppError(400, '--license deve ser active ou inactive');
  return chosen;
}

const COMMANDS = new Set(['create-user', 'create-company', 'create-key', 'revoke-key', 'list-keys', 'set-license']);

// node:util's parse errors are English; the CLI answers in Portuguese like the API.
const PARSE_ERRORS: Record<string, string> = {
  ERR_PARSE_ARGS_UNKNOWN_OPTION: 'Opção desconhecida',
  ERR_PARSE_ARGS_INVALID_OPTION_VALUE: 'Opção sem valor',
  ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: 'Argumento inesperado',
};

function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        name: { type: 'string' },
        user: { type: 'string' },
        profile: { type: 'string' },
        scopes: { type: 'string' },
        key: { type: 'string' },
        license: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    const token = /'([^']+)'/.exec((err as Error).message)?.[1]?.split(' ')[0];
    throw new AppError(400, `${PARSE_ERRORS[code] ?? 'Argumentos inválidos'}${token ? `: ${token}` : ''}\n${USAGE}`);
  }
}

/** The admin CLI: one command, one JSON object on stdout; errors as JSON on stderr with exit 1. */
async function main(argv: string[]) {
  const [command, ...rest] = argv;
  // Usage mistakes are answered before touching the database.
  if (!command || !COMMANDS.has(command)) throw new AppError(400, USAGE);
  const values = parseOptions(rest);
  const config = loadGatewayConfig();
  await ensureDatabase(config.DATABASE_URL);
  const orm = await openGatewayOrm(config);
  try {
    await migrateSchema(orm, config.DATABASE_URL, GATEWAY_SCHEMA);
    const em = orm.em.fork();
    switch (command) {
      case 'create-user':
        return await createUser(em, values.name ?? null);
      case 'create-company':
        return await createCompany(em, {
          userId: required(values, 'user', true),
          name: required(values, 'name'),
          license: license(values.license, 'active'),
        });
      case 'create-key':
        return await createKey(em, {
          userId: required(values, 'user', true),
          profileId: values.profile ? required(values, 'profile', true) : null,
          scopes: required(values, 'scopes')
            .split(',')
            .map((s) => s.trim()) as Scope[],
          pepper: config.KEY_PEPPER,
        });
      case 'revoke-key':
        return await revokeKey(em, required(values, 'key', true));
      case 'list-keys':
        return await listKeys(em, required(values, 'user', true));
      case 'set-license':
        return await setLicense(em, required(values, 'profile', true), license(values.license));
      default:
        throw new AppError(400, USAGE);
    }
  } finally {
    await orm.close();
  }
}

main(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    process.exitCode = 1;
  },
);

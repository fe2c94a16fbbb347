import { now } from '@finance/shared/clock';
import { AppError, notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKeySchema, CompanyMemberSchema, CompanySchema, type License, UserSchema } from '../data-access/entities.ts';
import { generateSecret, generateToken, hashSecret } from './key-secret.ts';

export type Scope = 'read' | 'write';

/**
 * Gateways cache verified keys and drop them when PostgreSQL notifies a change of access, which reaches them
 * a moment (about a millisecond, more under load) after the commit. Revoking and license changes answer only
 * after this grace, so once they return every replica refuses the old access on its next request.
 */
export const ACCESS_PROPAGATION_MS = 100;
const propagated = () => new Promise((resolve) => setTimeout(resolve, ACCESS_PROPAGATION_MS));

/** Use cases behind the admin CLI: users, companies, licenses and keys. */
export async function createUser(em: EntityManager, name: string | null) {
  const user = em.create(UserSchema, { name });
  await em.flush();
  return { user_id: user.id };
}

export async function createCompany(em: EntityManager, input: { userId: string; name: string; license: License }) {
  return em.transactional(async (tx) => {
    const user = await tx.findOne(UserSchema, { id: input.userId });
    if (!user) throw notFound('Usuário não encontrado');
    const company = tx.create(CompanySchema, { name: input.name, license: input.license });
    await tx.flush();
    tx.create(CompanyMemberSchema, { companyId: company.id, userId: user.id });
    return { profile_id: company.id };
  });
}

export async function createKey(
  em: EntityManager,
  input: { userId: string; profileId: string | null; scopes: Scope[]; pepper: string },
) {
  return em.transactional(async (tx) => {
    const user = await tx.findOne(UserSchema, { id: input.userId });
    if (!user) throw notFound('Usuário não encontrado');
    if (input.profileId) {
      const member = await tx.findOne(CompanyMemberSchema, { companyId: input.profileId, userId: input.userId });
      if (!member) throw notFound('Empresa não encontrada para este usuário');
    }
    const scopes = [...new Set(input.scopes)].sort();
    if (scopes.length === 0 || scopes.some((s) => s !== 'read' && s !== 'write')) {
      throw new AppError(400, 'Escopos inválidos: use read e/ou write');
    }
    const token = generateToken();
    const secret = generateSecret();
    const key = tx.create(ApiKeySchema, {
      token,
      secretHash: hashSecret(secret, input.pepper),
      scopes,
      userId: input.userId,
      profileId: input.profileId,
      revokedAt: null,
    });
    return { key_id: key.id, token, secret, scopes, user_id: input.userId, profile_id: input.profileId };
  });
}

export async function revokeKey(em: EntityManager, keyId: string) {
  const key = await em.findOne(ApiKeySchema, { id: keyId });
  if (!key) throw notFound('Chave não encontrada');
  key.revokedAt ??= now();
  await em.flush();
  await propagated();
  return { key_id: key.id, revoked_at: key.revokedAt.toISOString() };
}

export async function listKeys(em: EntityManager, userId: string) {
  const keys = await em.find(ApiKeySchema, { userId }, { orderBy: { createdAt: 'asc' } });
  return {
    keys: keys.map((key) => ({
      key_id: key.id,
      token: key.token,
      scopes: key.scopes,
      user_id: key.userId,
      profile_id: key.profileId,
      revoked_at: key.revokedAt?.toISOString() ?? null,
      createdAt: key.createdAt.toISOString(),
    })),
  };
}

export async function setLicense(em: EntityManager, profileId: string, license: License) {
  const company = await em.findOne(CompanySchema, { id: profileId });
  if (!company) throw notFound('Empresa não encontrada');
  company.license = license;
  await em.flush();
  await propagated();
  return { profile_id: company.id, license };
}

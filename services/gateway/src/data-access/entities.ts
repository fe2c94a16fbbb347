import { BaseSchema } from '@finance/shared/db/base-entity';
import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  extends: BaseSchema,
  properties: {
    name: p.string().nullable(),
  },
});
export type User = InferEntity<typeof UserSchema>;

export const LICENSES = ['active', 'inactive'] as const;
export type License = (typeof LICENSES)[number];

export const CompanySchema = defineEntity({
  name: 'Company',
  tableName: 'companies',
  extends: BaseSchema,
  properties: {
    name: p.string(),
    license: p.string().$type<License>(),
  },
});
export type Company = InferEntity<typeof CompanySchema>;

export const CompanyMemberSchema = defineEntity({
  name: 'CompanyMember',
  tableName: 'company_members',
  properties: {
    companyId: p.uuid().primary(),
    userId: p.uuid().primary(),
    createdAt: p
      .datetime()
      .columnType('timestamptz(3)')
      .onCreate(() => new Date()),
  },
});

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  extends: BaseSchema,
  properties: {
    token: p.string().unique(),
    secretHash: p.string(),
    scopes: p.array<string>().columnType('text[]'),
    userId: p.uuid(),
    profileId: p.uuid().nullable(),
    revokedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKeySchema>;

export const gatewayEntities = [UserSchema, CompanySchema, CompanyMemberSchema, ApiKeySchema];

import Joi from 'joi';
import type { SecretBox } from './secret-box.ts';

/** The API families a connection reads, by the directory's `ApiFamilyType`. */
export const API_FAMILIES = [
  'consents',
  'resources',
  'accounts',
  'credit-cards-accounts',
  'bank-fixed-incomes',
  'credit-fixed-incomes',
  'funds',
  'treasure-titles',
  'variable-incomes',
] as const;
export type ApiFamily = (typeof API_FAMILIES)[number];
export type InvestmentFamily = Exclude<ApiFamily, 'consents' | 'resources' | 'accounts' | 'credit-cards-accounts'>;
export const INVESTMENT_FAMILIES: InvestmentFamily[] = [
  'bank-fixed-incomes',
  'credit-fixed-incomes',
  'funds',
  'treasure-titles',
  'variable-incomes',
];

/** An institution this deployment can connect to: its directory entry joined with our registration there. */
export interface Institution {
  id: string;
  name: string;
  /** The OpenID discovery document (or the issuer). */
  discoveryUrl: string;
  /** Base URL of each family's API (`…/open-banking/accounts/v2`). */
  apis: Partial<Record<ApiFamily, string>>;
  client: {
    clientId: string;
    /** The private JWK of our private_key_jwt assertions and request objects (PS256). */
    signingKey: Record<string, unknown>;
    keyId: string;
    /** PEM texts of our transport certificate, its key and the institution's CA, where mutual TLS is configured. */
    mtls?: { cert: string; key: string; ca?: string };
  };
  /** A customer the institution's sandbox knows, used when a connection names no CPF. */
  testCpf?: string;
}

/** One registration of ours at an authorisation server (client id, keys). */
export interface ClientRegistration {
  authorisation_server_id: string;
  client_id: string;
  /** A private JWK, or the same sealed with OPEN_BANKING_ENCRYPTION_KEYS (`v1.<kid>.…`). */
  signing_key: Record<string, unknown> | string;
  signing_key_id?: string;
  mtls?: { cert: string; key: string; ca?: string };
  test_cpf?: string;
}

const participantsSchema = Joi.array()
  .items(
    Joi.object({
      OrganisationName: Joi.string(),
      AuthorisationServers: Joi.array()
        .items(
          Joi.object({
            AuthorisationServerId: Joi.string().required(),
            CustomerFriendlyName: Joi.string().required(),
            OpenIDDiscoveryDocument: Joi.string()
              .uri({ scheme: ['http', 'https'] })
              .required(),
            ApiResources: Joi.array()
              .items(
                Joi.object({
                  ApiFamilyType: Joi.string().required(),
                  ApiDiscoveryEndpoints: Joi.array()
                    .items(
                      Joi.object({
                        ApiEndpoint: Joi.string()
                          .uri({ scheme: ['http', 'https'] })
                          .required(),
                      }).unknown(),
                    )
                    .default([]),
                }).unknown(),
              )
              .default([]),
          }).unknown(),
        )
        .default([]),
    }).unknown(),
  )
  .required();

const registrationsSchema = Joi.array()
  .items(
    Joi.object<ClientRegistration>({
      authorisation_server_id: Joi.string().required(),
      client_id: Joi.string().required(),
      signing_key: Joi.alternatives()
        .try(Joi.object({ kty: Joi.string().required(), d: Joi.string().required() }).unknown(), Joi.string())
        .required(),
      signing_key_id: Joi.string(),
      mtls: Joi.object({ cert: Joi.string().required(), key: Joi.string().required(), ca: Joi.string() }),
      test_cpf: Joi.string().pattern(/^\d{11}$/),
    }),
  )
  .required();

/** The base URL of a family from one of its endpoints: everything up to `/open-banking/<family>/v<n>`. */
function familyBase(endpoint: string, family: string): string | null {
  const match = new RegExp(`^(.*/open-banking/${family}/v\\d+)(/|$)`).exec(endpoint);
  return match ? match[1] : null;
}

/**
 * The institutions of a participants list (the Open Finance directory's format) that we hold a registration
 * at; a sealed signing key is opened with the keyring. Throws with the reason on a malformed configuration.
 */
export function parseInstitutions(
  participants: unknown,
  registrations: unknown,
  secrets: () => SecretBox,
): Institution[] {
  const listed = participantsSchema.validate(participants, { allowUnknown: true });
  if (listed.error) throw new Error(`OPEN_BANKING_PARTICIPANTS: ${listed.error.message}`);
  const ours = registrationsSchema.validate(registrations);
  if (ours.error) throw new Error(`OPEN_BANKING_CLIENTS: ${ours.error.message}`);
  const byServer = new Map((ours.value as ClientRegistration[]).map((entry) => [entry.authorisation_server_id, entry]));
  const institutions: Institution[] = [];
  for (const organisation of listed.value as Array<{ AuthorisationServers: Array<Record<string, unknown>> }>) {
    for (const server of organisation.AuthorisationServers as Array<{
      AuthorisationServerId: string;
      CustomerFriendlyName: string;
      OpenIDDiscoveryDocument: string;
      ApiResources: Array<{ ApiFamilyType: string; ApiDiscoveryEndpoints: Array<{ ApiEndpoint: string }> }>;
    }>) {
      const registration = byServer.get(server.AuthorisationServerId);
      if (!registration) continue;
      const apis: Institution['apis'] = {};
      for (const resource of server.ApiResources) {
        const family = resource.ApiFamilyType as ApiFamily;
        if (!API_FAMILIES.includes(family)) continue;
        const base = resource.ApiDiscoveryEndpoints.map((e) => familyBase(e.ApiEndpoint, family)).find(Boolean);
        if (base) apis[family] = base;
      }
      const key =
        typeof registration.signing_key === 'string'
          ? JSON.parse(secrets().open(registration.signing_key))
          : registration.signing_key;
      institutions.push({
        id: server.AuthorisationServerId,
        name: server.CustomerFriendlyName,
        discoveryUrl: server.OpenIDDiscoveryDocument,
        apis,
        client: {
          clientId: registration.client_id,
          signingKey: key,
          keyId: registration.signing_key_id ?? String(key.kid ?? 'signing'),
          mtls: registration.mtls,
        },
        testCpf: registration.test_cpf,
      });
    }
  }
  return institutions;
}

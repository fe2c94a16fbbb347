import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type ProviderClient } from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import type { ConsentStore } from './consents.ts';

/** A client the institution registered (in the ecosystem, through the directory and dynamic registration). */
export interface SandboxClient {
  client_id: string;
  /** The client's public keys: its private_key_jwt assertions and request objects are checked with them. */
  jwks: { keys: JWK[] };
  redirect_uris: string[];
}

/** The scopes of the data families the connector asks for, beside the dynamic `consent:{consentId}`. */
export const FAMILY_SCOPES = [
  'accounts',
  'credit-cards-accounts',
  'resources',
  'bank-fixed-incomes',
  'credit-fixed-incomes',
  'funds',
  'treasure-titles',
  'variable-incomes',
];
export const ACR_LOA2 = 'urn:brasil:openbanking:loa2';
/** Access tokens live 900 s, the longest the security profile allows. */
const ACCESS_TOKEN_TTL = 900;

/**
 * The institution's authorization server: oidc-provider with its FAPI 1.0 Advanced profile ('1.0 Final') on,
 * shaped by the Open Finance Brasil security profile: pushed authorization requests only, signed request
 * objects (PS256, with exp/nbf/aud), PKCE (S256), private_key_jwt client authentication, authorization
 * responses as signed JWTs (JARM, `response_mode=jwt`), refresh tokens without rotation, access tokens of
 * 900 s for the API resource, and the dynamic scope `consent:{consentId}` of the consent being authorised.
 */
export async function createAuthorizationServer(options: {
  issuer: string;
  /** The resource indicator of the data APIs (their base URL). */
  resource: string;
  clients: SandboxClient[];
  consents: ConsentStore;
}) {
  const { privateKey } = await generateKeyPair('PS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'sandbox-signing-1', alg: 'PS256', use: 'sig' };
  const consentScopes = (clientId: string) =>
    options.consents
      .all()
      .filter((consent) => consent.clientId === clientId)
      .map((consent) => `consent:${consent.consentId}`);

  const provider = new Provider(options.issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.client_id,
      redirect_uris: client.redirect_uris,
      jwks: client.jwks,
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      response_types: ['code'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'PS256',
      request_object_signing_alg: 'PS256',
      id_token_signed_response_alg: 'PS256',
      authorization_signed_response_alg: 'PS256',
      require_pushed_authorization_requests: true,
      // the profile: every ID token carries an acr
      default_acr_values: [ACR_LOA2],
    })),
    jwks: { keys: [signingKey] },
    // a sandbox keeps its grants and tokens in its process on purpose (a restart forgets them)
    adapter: createMemoryAdapter(0),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: ['openid', 'consents', ...FAMILY_SCOPES],
    claims: { openid: ['sub'], cpf: ['cpf'] },
    acrValues: [ACR_LOA2, 'urn:brasil:openbanking:loa3'],
    pkce: { required: () => true },
    rotateRefreshToken: false,
    issueRefreshToken: async (_ctx: unknown, client: ProviderClient) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      ClientCredentials: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 3600,
      Grant: 365 * 86400,
      Interaction: 600,
      Session: 3600,
      PushedAuthorizationRequest: 90,
      // at least as long as the consent it is bound to (the documents' longest consent is 12 months)
      RefreshToken: 366 * 86400,
    },
    enabledJWA: {
      clientAuthSigningAlgValues: ['PS256'],
      requestObjectSigningAlgValues: ['PS256'],
      idTokenSigningAlgValues: ['PS256'],
      authorizationSigningAlgValues: ['PS256'],
    },
    features: {
      fapi: { enabled: true, profile: '1.0 Final' },
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: true },
      requestObjects: { enabled: true, requireSignedRequestObject: true },
      jwtResponseModes: { enabled: true },
      clientCredentials: { enabled: true },
      claimsParameter: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resourceIndicator: string, client: ProviderClient) => {
          if (resourceIndicator !== options.resource) throw new Error('unknown resource');
          return {
            scope: ['consents', ...FAMILY_SCOPES, ...consentScopes(client.clientId)].join(' '),
            audience: options.resource,
            accessTokenTTL: ACCESS_TOKEN_TTL,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, cpf: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    renderError: async (ctx: { type: string; body: unknown }, out: unknown) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  });
  return provider;
}

/** The API families the sandbox serves, with the version of the document each follows. */
const FAMILIES: Array<[family: string, version: string, path: string]> = [
  ['consents', '3.3.1', 'consents/v3/consents'],
  ['resources', '3.1.0', 'resources/v3/resources'],
  ['accounts', '2.4.2', 'accounts/v2/accounts'],
  ['credit-cards-accounts', '2.3.1', 'credit-cards-accounts/v2/accounts'],
  ['bank-fixed-incomes', '1.1.0', 'bank-fixed-incomes/v1/investments'],
  ['credit-fixed-incomes', '1.1.0', 'credit-fixed-incomes/v1/investments'],
  ['funds', '1.1.0', 'funds/v1/investments'],
  ['treasure-titles', '1.1.0', 'treasure-titles/v1/investments'],
  ['variable-incomes', '1.3.0', 'variable-incomes/v1/investments'],
];

export const SANDBOX_SERVER_ID = 'banco-sandbox';

/**
 * Banco Sandbox as the Open Finance directory lists a participant (its participants list format): the
 * organisation, its authorisation server with the discovery document, and each API family's endpoints.
 */
export function directoryEntry(base: string) {
  return {
    OrganisationId: '00000000-0000-4000-8000-000000000999',
    OrganisationName: 'Banco Sandbox S.A.',
    RegistrationNumber: '99999999000191',
    Status: 'Active',
    AuthorisationServers: [
      {
        AuthorisationServerId: SANDBOX_SERVER_ID,
        CustomerFriendlyName: 'Banco Sandbox',
        CustomerFriendlyDescription: 'Instituição de teste local (dados fictícios e determinísticos)',
        OpenIDDiscoveryDocument: `${base}/.well-known/openid-configuration`,
        ApiResources: FAMILIES.map(([family, version, path]) => ({
          ApiFamilyType: family,
          ApiVersion: version,
          ApiDiscoveryEndpoints: [{ ApiEndpoint: `${base}/open-banking/${path}` }],
        })),
      },
    ],
  };
}

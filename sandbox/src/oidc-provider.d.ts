// The parts of oidc-provider (which ships no types) the sandbox uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface StoredToken {
    clientId: string;
    scope?: string;
    isExpired: boolean;
  }
  interface TokenModel {
    find(value: string): Promise<StoredToken | undefined>;
    revokeByGrantId(grantId: string): Promise<void>;
  }
  export interface ProviderClient {
    clientId: string;
    grantTypeAllowed(type: string): boolean;
  }
  export interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string; reasons: string[] };
  }
  class Grant {
    constructor(properties: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    AccessToken: TokenModel;
    ClientCredentials: TokenModel;
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}

declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  /** The in-memory adapter, named explicitly: the sandbox's state is meant to live in its process only. */
  export function createMemoryAdapter(clockTolerance?: number): (name: string) => unknown;
}

import { randomUUID } from 'node:crypto';
import { sandboxNow } from './clock.ts';

export type ConsentStatus = 'AWAITING_AUTHORISATION' | 'AUTHORISED' | 'REJECTED';
export type RejectionCode =
  | 'CONSENT_EXPIRED'
  | 'CUSTOMER_MANUALLY_REJECTED'
  | 'CUSTOMER_MANUALLY_REVOKED'
  | 'CONSENT_MAX_DATE_REACHED'
  | 'CONSENT_TECHNICAL_ISSUE'
  | 'INTERNAL_SECURITY_REASON';

export interface Consent {
  consentId: string;
  clientId: string;
  status: ConsentStatus;
  permissions: string[];
  cpf: string;
  cnpj?: string;
  creationDateTime: string;
  statusUpdateDateTime: string;
  expirationDateTime?: string;
  rejection?: { rejectedBy: 'USER' | 'ASPSP' | 'TPP'; reason: { code: RejectionCode; additionalInformation?: string } };
  /** The grant the customer's authorization created: its tokens die with the consent. */
  grantId?: string;
}

/** Seconds-precision UTC, as the consent documents write date-times. */
export const dateTime = (date = new Date(sandboxNow())) => `${date.toISOString().slice(0, 19)}Z`;

/** Consents of the sandbox, in memory (a restart forgets them, as it forgets the tokens). */
export class ConsentStore {
  private readonly consents = new Map<string, Consent>();

  create(
    clientId: string,
    input: { permissions: string[]; cpf: string; cnpj?: string; expirationDateTime?: string },
  ): Consent {
    const now = dateTime();
    const consent: Consent = {
      consentId: `urn:bancosandbox:${randomUUID()}`,
      clientId,
      status: 'AWAITING_AUTHORISATION',
      permissions: input.permissions,
      cpf: input.cpf,
      cnpj: input.cnpj,
      creationDateTime: now,
      statusUpdateDateTime: now,
      expirationDateTime: input.expirationDateTime,
    };
    this.consents.set(consent.consentId, consent);
    return consent;
  }

  /** The consent as of now: one past its expiration is rejected with CONSENT_EXPIRED. */
  get(consentId: string): Consent | undefined {
    const consent = this.consents.get(consentId);
    if (
      consent?.status === 'AUTHORISED' &&
      consent.expirationDateTime &&
      Date.parse(consent.expirationDateTime) <= sandboxNow()
    ) {
      this.reject(consent, 'ASPSP', 'CONSENT_EXPIRED');
    }
    return consent;
  }

  all(): Consent[] {
    return [...this.consents.values()];
  }

  authorise(consent: Consent, grantId: string): void {
    consent.status = 'AUTHORISED';
    consent.grantId = grantId;
    consent.statusUpdateDateTime = dateTime();
  }

  reject(consent: Consent, rejectedBy: 'USER' | 'ASPSP' | 'TPP', code: RejectionCode): void {
    consent.status = 'REJECTED';
    consent.rejection = { rejectedBy, reason: { code } };
    consent.statusUpdateDateTime = dateTime();
  }
}

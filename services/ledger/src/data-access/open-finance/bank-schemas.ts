import Joi from 'joi';

/**
 * The fields of the Open Finance Brasil answers the connector reads, hand-derived from the published documents
 * (consents 3.3.1, resources 3.1.0, accounts 2.4.2, credit-cards-accounts 2.3.1, the investment families). Each
 * record of a list is checked on its own: one that breaks them is left out with its reason and the rest is read
 * (docs/open-banking.md, "Sync"). Where institutions are known to bend a format the mapping still reads exactly
 * (single-digit date parts the documents' patterns allow, a decimal comma, JSON numbers, blanks around an id), the
 * schema lets it through and the mapping normalizes it. Other fields pass unread.
 */
const decimal = () =>
  Joi.alternatives().try(
    Joi.string().pattern(/^\s*-?\d{1,15}(?:[.,]\d{1,10})?\s*$/),
    Joi.number().min(-1e15).max(1e15),
  );
const money = () =>
  Joi.object({
    amount: decimal().required(),
    currency: Joi.string()
      .pattern(/^[A-Z]{3}$/)
      .required(),
  });
/** The documents' id (`^[a-zA-Z0-9][a-zA-Z0-9-]{0,99}$`), blanks around it allowed (the mapping trims them). */
const id = () =>
  Joi.string()
    .pattern(/^\s*[a-zA-Z0-9][a-zA-Z0-9-]{0,99}\s*$/)
    .required();
/** A day as the documents' patterns allow it (`2024-3-5` too), or the dummy `0001-01-01`. */
const day = () => Joi.string().pattern(/^\d{4}-\d{1,2}-\d{1,2}$/);
/** A date-time: the documents' `…T10:30:00.000Z`, single-digit date parts, without milliseconds, or with an offset. */
const dateTime = () =>
  Joi.string().pattern(/^\d{4}-\d{1,2}-\d{1,2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/);
const links = Joi.object({ self: Joi.string(), next: Joi.string() });

/** A page of a list: `data` (records checked one by one), `links` with an optional `next`, `meta` when given. */
export const pageSchema = Joi.object({
  data: Joi.array().required(),
  links: links.required(),
  meta: Joi.object({ totalPages: Joi.number().integer().min(0) }),
});
/** One record: `data`. */
export const oneOf = (item: Joi.Schema) => Joi.object({ data: item.required() });

export const consentSchema = oneOf(
  Joi.object({
    consentId: Joi.string()
      .pattern(/^urn:[a-zA-Z0-9][a-zA-Z0-9-]{0,31}:[a-zA-Z0-9()+,\-.:=@;$_!*'%/?#]+$/)
      .max(256)
      .required(),
    status: Joi.string().valid('AUTHORISED', 'AWAITING_AUTHORISATION', 'REJECTED').required(),
    expirationDateTime: Joi.string().isoDate(),
    rejection: Joi.object({ reason: Joi.object({ code: Joi.string().required() }).required() }),
  }),
);

export const resourceSchema = Joi.object({
  resourceId: Joi.string().required(),
  type: Joi.string().required(),
  status: Joi.string().required(),
});

/** An account: its number only names it, so any text the institution gives is taken. */
export const accountSchema = Joi.object({
  accountId: id(),
  brandName: Joi.string().required(),
  type: Joi.string().required(),
  compeCode: Joi.string(),
  number: Joi.string().required(),
});

export const balancesSchema = oneOf(Joi.object({ availableAmount: money().required() }));

export const accountTransactionSchema = Joi.object({
  transactionId: id(),
  completedAuthorisedPaymentType: Joi.string()
    .valid('TRANSACAO_EFETIVADA', 'LANCAMENTO_FUTURO', 'TRANSACAO_PROCESSANDO')
    .required(),
  creditDebitType: Joi.string().valid('CREDITO', 'DEBITO').required(),
  transactionName: Joi.string().max(200).allow('').required(),
  type: Joi.string().required(),
  transactionAmount: money().required(),
  transactionDateTime: dateTime().required(),
  partieCnpjCpf: Joi.string(),
  partiePersonType: Joi.string(),
});

export const cardSchema = Joi.object({
  creditCardAccountId: id(),
  brandName: Joi.string().required(),
  name: Joi.string().required(),
});

export const limitSchema = Joi.object({
  creditLineLimitType: Joi.string().required(),
  isLimitFlexible: Joi.boolean(),
  limitAmount: money(),
  usedAmount: money(),
  availableAmount: money(),
});

export const billSchema = Joi.object({
  billId: id(),
  dueDate: day().required(),
  billTotalAmount: money(),
  payments: Joi.array().items(
    Joi.object({ paymentDate: day().required(), amount: decimal().required(), currency: Joi.string() }),
  ),
  financeCharges: Joi.array().items(Joi.object({ type: Joi.string().required(), amount: decimal().required() })),
});

export const cardTransactionSchema = Joi.object({
  transactionId: id(),
  transactionName: Joi.string().max(200).allow('').required(),
  billId: Joi.string(),
  creditDebitType: Joi.string().valid('CREDITO', 'DEBITO').required(),
  transactionType: Joi.string().required(),
  paymentType: Joi.string(),
  feeType: Joi.string(),
  otherCreditsType: Joi.string(),
  chargeIdentificator: Joi.number().integer().min(0).max(999),
  chargeNumber: Joi.number().integer().min(0).max(999),
  brazilianAmount: money().required(),
  amount: money().required(),
  transactionDateTime: dateTime().required(),
  billPostDate: day().required(),
});

export const investmentItemSchema = Joi.object({ investmentId: id(), brandName: Joi.string().required() });

/** Identification: the position's name is `name` (funds), `productName` (treasury) or the type (fixed income). */
export const investmentIdentificationSchema = oneOf(
  Joi.object({
    name: Joi.string(),
    productName: Joi.string(),
    investmentType: Joi.string(),
    anbimaCategory: Joi.string(),
    isinCode: Joi.string(),
    ticker: Joi.string(),
  }),
);

/** A position's balance (some variable-income institutions send it as a list of one). */
export const investmentBalanceSchema = Joi.object({
  data: Joi.alternatives()
    .try(
      Joi.object({ grossAmount: money().required() }),
      Joi.array()
        .items(Joi.object({ grossAmount: money() }))
        .min(1),
    )
    .required(),
});

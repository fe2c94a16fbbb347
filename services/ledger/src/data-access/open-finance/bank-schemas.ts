import Joi from 'joi';

/**
 * The fields of the Open Finance Brasil answers the connector reads, hand-derived from the published documents
 * (consents 3.3.1, resources 3.1.0, accounts 2.4.2, credit-cards-accounts 2.3.1, the investment families):
 * an answer missing one of them, or holding it in another shape, is an institution answering garbage.
 * Other fields pass unread.
 */
const amount = (signed = false) =>
  Joi.string()
    .pattern(signed ? /^-?\d{1,15}\.\d{2,10}$/ : /^\d{1,15}\.\d{2,10}$/)
    .required();
const money = (signed = false) =>
  Joi.object({
    amount: amount(signed),
    currency: Joi.string()
      .pattern(/^[A-Z]{3}$/)
      .required(),
  });
const id = () =>
  Joi.string()
    .pattern(/^[a-zA-Z0-9][a-zA-Z0-9-]{0,99}$/)
    .required();
const day = () => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/);
const dateTime = () => Joi.string().isoDate();
const links = Joi.object({ self: Joi.string().required(), next: Joi.string() });

/** A page of a list: `data` of `item`, `links` with an optional `next`. */
export const pageOf = (item: Joi.Schema) =>
  Joi.object({ data: Joi.array().items(item).required(), links: links.required() });
/** One record: `data`. */
export const oneOf = (item: Joi.Schema) => Joi.object({ data: item.required() });

export const consentSchema = oneOf(
  Joi.object({
    consentId: Joi.string()
      .pattern(/^urn:[a-zA-Z0-9][a-zA-Z0-9-]{0,31}:[a-zA-Z0-9()+,\-.:=@;$_!*'%/?#]+$/)
      .max(256)
      .required(),
    status: Joi.string().valid('AUTHORISED', 'AWAITING_AUTHORISATION', 'REJECTED').required(),
    expirationDateTime: dateTime(),
    rejection: Joi.object({ reason: Joi.object({ code: Joi.string().required() }).required() }),
  }),
);

export const resourceSchema = Joi.object({
  resourceId: Joi.string().required(),
  type: Joi.string().required(),
  status: Joi.string().required(),
});

export const accountSchema = Joi.object({
  accountId: id(),
  brandName: Joi.string().max(80).required(),
  type: Joi.string().required(),
  compeCode: Joi.string()
    .pattern(/^\d{3}$/)
    .required(),
  number: Joi.string()
    .pattern(/^\d{8,20}$/)
    .required(),
});

export const balancesSchema = oneOf(Joi.object({ availableAmount: money(true).required() }));

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
  partieCnpjCpf: Joi.string().pattern(/^\d{11}$|^\d{14}$/),
  partiePersonType: Joi.string(),
});

export const cardSchema = Joi.object({
  creditCardAccountId: id(),
  brandName: Joi.string().max(80).required(),
  name: Joi.string().max(50).required(),
});

export const limitSchema = Joi.object({
  creditLineLimitType: Joi.string().required(),
  limitAmount: money(),
});

export const billSchema = Joi.object({ billId: id(), dueDate: day().required() });

export const cardTransactionSchema = Joi.object({
  transactionId: id(),
  transactionName: Joi.string().max(200).allow('').required(),
  billId: Joi.string(),
  creditDebitType: Joi.string().valid('CREDITO', 'DEBITO').required(),
  transactionType: Joi.string().required(),
  paymentType: Joi.string(),
  chargeIdentificator: Joi.number().integer().min(1).max(999),
  chargeNumber: Joi.number().integer().min(1).max(999),
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
  }),
);

export const investmentBalanceSchema = oneOf(Joi.object({ grossAmount: money(true).required() }));

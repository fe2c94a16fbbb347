import Joi from 'joi';

/**
 * The Open Finance Brasil documents' own rules for the records Banco Sandbox serves (accounts 2.4.2,
 * credit-cards-accounts 2.3.1, resources 3.1.0, the investment families), hand-derived from the published OpenAPI
 * documents: patterns, enums and required fields as written there. The connector reads institutions more leniently
 * (they bend these rules); the sandbox, which stands for an institution, must follow them exactly.
 */
const AMOUNT = /^\d{1,15}\.\d{2,4}$/;
const SIGNED_AMOUNT = /^-?\d{1,15}\.\d{2,4}$/;
const ID = /^[a-zA-Z0-9][a-zA-Z0-9-]{0,99}$/;
const DAY = /^(\d{4})-(1[0-2]|0?[1-9])-(3[01]|[12][0-9]|0?[1-9])$/;
const DATE_TIME =
  /^(\d{4})-(1[0-2]|0?[1-9])-(3[01]|[12][0-9]|0?[1-9])T(?:[01]\d|2[0123]):(?:[012345]\d):(?:[012345]\d)\.(?:[0-9]){3}Z$/;

const money = (pattern = AMOUNT) =>
  Joi.object({
    amount: Joi.string().pattern(pattern).required(),
    currency: Joi.string()
      .pattern(/^[A-Z]{3}$/)
      .required(),
  });
const id = () => Joi.string().pattern(ID).max(100);
const links = Joi.object({
  self: Joi.string().required(),
  first: Joi.string(),
  prev: Joi.string(),
  next: Joi.string(),
  last: Joi.string(),
});

/** A page of the documents: `data` of `item`, `links`, `meta` with `requestDateTime`. */
export const documentPage = (item: Joi.Schema) =>
  Joi.object({
    data: Joi.array().items(item).required(),
    links: links.required(),
    meta: Joi.object({ requestDateTime: Joi.string().required() }).unknown().required(),
  });
export const documentRecord = (item: Joi.Schema) => Joi.object({ data: item.required() }).unknown();

export const documentResource = Joi.object({
  resourceId: Joi.string().required(),
  type: Joi.string()
    .valid(
      'ACCOUNT',
      'CREDIT_CARD_ACCOUNT',
      'LOAN',
      'FINANCING',
      'UNARRANGED_ACCOUNT_OVERDRAFT',
      'INVOICE_FINANCING',
      'BANK_FIXED_INCOME',
      'CREDIT_FIXED_INCOME',
      'VARIABLE_INCOME',
      'TREASURE_TITLE',
      'FUND',
      'EXCHANGE',
    )
    .required(),
  status: Joi.string().valid('AVAILABLE', 'UNAVAILABLE', 'TEMPORARILY_UNAVAILABLE', 'PENDING_AUTHORISATION').required(),
});

export const documentAccount = Joi.object({
  brandName: Joi.string().max(80).required(),
  companyCnpj: Joi.string()
    .pattern(/^\d{14}$/)
    .required(),
  type: Joi.string().valid('CONTA_DEPOSITO_A_VISTA', 'CONTA_POUPANCA', 'CONTA_PAGAMENTO_PRE_PAGA').required(),
  compeCode: Joi.string()
    .pattern(/^\d{3}$/)
    .required(),
  branchCode: Joi.string().pattern(/^\d{4}$/),
  number: Joi.string()
    .pattern(/^\d{8,20}$/)
    .required(),
  checkDigit: Joi.string()
    .pattern(/^[\w\W]{1}$/)
    .required(),
  accountId: id().required(),
});

export const documentBalances = documentRecord(
  Joi.object({
    availableAmount: money(SIGNED_AMOUNT).required(),
    blockedAmount: money().required(),
    automaticallyInvestedAmount: money().required(),
    updateDateTime: Joi.string().required(),
  }),
);

const TRANSACTION_TYPES = [
  'TED',
  'DOC',
  'PIX',
  'TRANSFERENCIA_MESMA_INSTITUICAO',
  'BOLETO',
  'CONVENIO_ARRECADACAO',
  'PACOTE_TARIFA_SERVICOS',
  'TARIFA_SERVICOS_AVULSOS',
  'FOLHA_PAGAMENTO',
  'DEPOSITO',
  'SAQUE',
  'CARTAO',
  'ENCARGOS_JUROS_CHEQUE_ESPECIAL',
  'RENDIMENTO_APLIC_FINANCEIRA',
  'PORTABILIDADE_SALARIO',
  'RESGATE_APLIC_FINANCEIRA',
  'OPERACAO_CREDITO',
  'OUTROS',
];

export const documentAccountTransaction = Joi.object({
  transactionId: id().required(),
  completedAuthorisedPaymentType: Joi.string()
    .valid('TRANSACAO_EFETIVADA', 'LANCAMENTO_FUTURO', 'TRANSACAO_PROCESSANDO')
    .required(),
  creditDebitType: Joi.string().valid('CREDITO', 'DEBITO').required(),
  transactionName: Joi.string().max(200).required(),
  type: Joi.string()
    .valid(...TRANSACTION_TYPES)
    .required(),
  transactionAmount: money().required(),
  transactionDateTime: Joi.string().pattern(DATE_TIME).max(24).required(),
  partieCnpjCpf: Joi.string().pattern(/^\d{11}$|^\d{14}$/),
  partiePersonType: Joi.string().valid('PESSOA_NATURAL', 'PESSOA_JURIDICA'),
  partieCompeCode: Joi.string().pattern(/^\d{3}$/),
  partieBranchCode: Joi.string().pattern(/^\d{4}$/),
  partieNumber: Joi.string().pattern(/^\d{8,20}$/),
  partieCheckDigit: Joi.string().pattern(/^[\w\W]{1}$/),
});

export const documentCard = Joi.object({
  creditCardAccountId: id().required(),
  brandName: Joi.string().max(80).required(),
  companyCnpj: Joi.string()
    .pattern(/^\d{14}$/)
    .required(),
  name: Joi.string().max(50).required(),
  productType: Joi.string().required(),
  creditCardNetwork: Joi.string().required(),
});

export const documentLimit = Joi.object({
  creditLineLimitType: Joi.string().valid('LIMITE_CREDITO_TOTAL', 'LIMITE_CREDITO_MODALIDADE_OPERACAO').required(),
  consolidationType: Joi.string().valid('CONSOLIDADO', 'INDIVIDUAL').required(),
  identificationNumber: id().required(),
  isLimitFlexible: Joi.boolean().required(),
  limitAmount: money(),
  usedAmount: money(SIGNED_AMOUNT).required(),
  availableAmount: money(SIGNED_AMOUNT),
});

export const documentBill = Joi.object({
  billId: id().required(),
  dueDate: Joi.string().pattern(DAY).required(),
  billTotalAmount: money(SIGNED_AMOUNT).required(),
  billMinimumAmount: money().required(),
  isInstalment: Joi.boolean().required(),
  financeCharges: Joi.array(),
  payments: Joi.array()
    .items(
      Joi.object({
        valueType: Joi.string()
          .valid('VALOR_PAGAMENTO_FATURA_PARCELADO', 'VALOR_PAGAMENTO_FATURA_REALIZADO', 'OUTRO_VALOR_PAGO_FATURA')
          .required(),
        paymentDate: Joi.string().pattern(DAY).required(),
        paymentMode: Joi.string()
          .valid('DEBITO_CONTA_CORRENTE', 'BOLETO_BANCARIO', 'AVERBACAO_FOLHA', 'PIX')
          .required(),
        amount: Joi.string().pattern(AMOUNT).required(),
        currency: Joi.string().required(),
      }),
    )
    .required(),
});

const CARD_TYPES = ['PAGAMENTO', 'TARIFA', 'OPERACOES_CREDITO_CONTRATADAS_CARTAO', 'ESTORNO', 'CASHBACK', 'OUTROS'];

export const documentCardTransaction = Joi.object({
  transactionId: id().required(),
  identificationNumber: id().required(),
  transactionName: Joi.string().max(200).required(),
  billId: id(),
  creditDebitType: Joi.string().valid('CREDITO', 'DEBITO').required(),
  transactionType: Joi.string()
    .valid(...CARD_TYPES)
    .required(),
  // [Restrição] required when the type is PAGAMENTO
  paymentType: Joi.string()
    .valid('A_VISTA', 'A_PRAZO')
    .when('transactionType', { is: 'PAGAMENTO', then: Joi.required() }),
  chargeIdentificator: Joi.number()
    .integer()
    .min(1)
    .max(999)
    .when('paymentType', { is: 'A_PRAZO', then: Joi.required() }),
  chargeNumber: Joi.number().integer().max(999),
  brazilianAmount: money().required(),
  amount: money().required(),
  transactionDateTime: Joi.string().pattern(DATE_TIME).max(24).required(),
  billPostDate: Joi.string().pattern(DAY).max(20).required(),
  payeeMCC: Joi.number().integer(),
});

export const documentInvestmentItem = Joi.object({
  investmentId: id().required(),
  brandName: Joi.string().required(),
  companyCnpj: Joi.string().pattern(/^\d{14}$/),
}).unknown();

/** Every answer of a family names its document's version (`x-v`) and echoes the caller's interaction id. */
export const VERSION_HEADER = /^\d+\.\d+\.\d+$/;

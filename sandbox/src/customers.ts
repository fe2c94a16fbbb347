import { addDays, addMonths, amountOf, brl, dayOfMonth, seeded } from './money.ts';

/** The institution itself, as the documents name it in every record. */
export const BANK = { brandName: 'Banco Sandbox', companyCnpj: '99999999000191', compeCode: '999' };

type Money = { amount: string; currency: string };

export interface AccountTransaction {
  transactionId: string;
  completedAuthorisedPaymentType: 'TRANSACAO_EFETIVADA' | 'LANCAMENTO_FUTURO' | 'TRANSACAO_PROCESSANDO';
  creditDebitType: 'CREDITO' | 'DEBITO';
  transactionName: string;
  type: string;
  transactionAmount: Money;
  transactionDateTime: string;
  partieCnpjCpf?: string;
  partiePersonType?: 'PESSOA_NATURAL' | 'PESSOA_JURIDICA';
  partieCompeCode?: string;
  partieBranchCode?: string;
  partieNumber?: string;
  partieCheckDigit?: string;
}

export interface Account {
  accountId: string;
  type: 'CONTA_DEPOSITO_A_VISTA' | 'CONTA_POUPANCA' | 'CONTA_PAGAMENTO_PRE_PAGA';
  subtype: 'INDIVIDUAL' | 'CONJUNTA_SIMPLES' | 'CONJUNTA_SOLIDARIA';
  branchCode: string;
  number: string;
  checkDigit: string;
  openingBalance: number;
  transactions: AccountTransaction[];
}

export interface CardTransaction {
  transactionId: string;
  identificationNumber: string;
  transactionName: string;
  billId?: string;
  creditDebitType: 'CREDITO' | 'DEBITO';
  transactionType: 'PAGAMENTO' | 'TARIFA' | 'OPERACOES_CREDITO_CONTRATADAS_CARTAO' | 'ESTORNO' | 'CASHBACK' | 'OUTROS';
  paymentType?: 'A_VISTA' | 'A_PRAZO';
  chargeIdentificator?: number;
  chargeNumber?: number;
  brazilianAmount: Money;
  amount: Money;
  transactionDateTime: string;
  billPostDate: string;
  payeeMCC?: number;
}

export interface Bill {
  billId: string;
  dueDate: string;
  closingDate: string;
  totalCents: number;
  transactions: CardTransaction[];
}

export interface Card {
  creditCardAccountId: string;
  name: string;
  productType: string;
  creditCardNetwork: string;
  identificationNumber: string;
  limitCents: number;
  closingDay: number;
  dueDay: number;
  bills: Bill[];
  /** Purchases of the period still open (not in any bill yet). */
  open: CardTransaction[];
}

export type InvestmentFamily =
  | 'bank-fixed-incomes'
  | 'credit-fixed-incomes'
  | 'funds'
  | 'treasure-titles'
  | 'variable-incomes';

export interface Investment {
  family: InvestmentFamily;
  investmentId: string;
  name: string;
  /** Invested on this day, growing by `dailyRate` each calendar day since. */
  purchaseDate: string;
  dueDate: string;
  principalCents: number;
  dailyRate: number;
  isinCode: string;
  /** The family's own kind (CDB for bank fixed income, the ANBIMA category for funds). */
  kind: string;
}

export interface Customer {
  cpf: string;
  name: string;
  accounts: Account[];
  cards: Card[];
  investments: Investment[];
}

const at = (day: string, time = '15:30:00') => `${day}T${time}.000Z`;
/** `billPostDate` of a card entry not yet on a bill (the documents' dummy day). */
const DUMMY_DAY = '0001-01-01';

const MERCHANTS = [
  { name: 'PADARIA PAO QUENTE', cnpj: '12345678000195' },
  { name: 'SUPERMERCADO BOM PRECO', cnpj: '23456789000106' },
  { name: 'FARMACIA SAUDE', cnpj: '34567890000117' },
  { name: 'POSTO DE GASOLINA RODOVIA', cnpj: '45678901000128' },
];
const CARD_MERCHANTS = [
  { name: 'RESTAURANTE SABOR CASEIRO', mcc: 5812 },
  { name: 'LIVRARIA CULTURA NOVA', mcc: 5942 },
  { name: 'UBER TRIP', mcc: 4121 },
  { name: 'CINEMA SHOPPING', mcc: 7832 },
];
const EMPLOYER = { name: 'SALARIO EMPRESA EXEMPLO LTDA', cnpj: '11222333000181' };
const UTILITY = { name: 'CONTA DE LUZ ENERGIA SA', cnpj: '61695227000193' };

/** A checking account's year: salary, Pix, TED, boleto and card-bill payments, and the entries tests rely on. */
function checkingAccount(
  prefix: string,
  today: string,
  bills: Bill[],
  seed: string,
  holder: { cpf: string; investments: Investment[] },
): Account {
  const random = seeded(seed);
  const transactions: AccountTransaction[] = [];
  let n = 0;
  const add = (
    tx: Omit<AccountTransaction, 'transactionId' | 'completedAuthorisedPaymentType'> & Partial<AccountTransaction>,
  ) =>
    transactions.push({
      transactionId: `${prefix}-tx-${String(++n).padStart(4, '0')}`,
      completedAuthorisedPaymentType: 'TRANSACAO_EFETIVADA',
      ...tx,
    });
  const start = addDays(today, -364);
  for (let month = 0; month <= 12; month++) {
    const base = addMonths(start, month);
    const inWindow = (day: string) => day >= start && day < today;
    const salaryDay = dayOfMonth(base, 5);
    if (inWindow(salaryDay)) {
      add({
        creditDebitType: 'CREDITO',
        transactionName: EMPLOYER.name,
        type: 'FOLHA_PAGAMENTO',
        transactionAmount: brl(850000),
        transactionDateTime: at(salaryDay),
        partieCnpjCpf: EMPLOYER.cnpj,
        partiePersonType: 'PESSOA_JURIDICA',
        partieCompeCode: '341',
        partieBranchCode: '0001',
        partieNumber: '12345678',
        partieCheckDigit: '9',
      });
    }
    for (const week of [2, 9, 16, 23]) {
      const day = dayOfMonth(base, week);
      if (!inWindow(day)) continue;
      const merchant = MERCHANTS[Math.floor(random() * MERCHANTS.length)];
      add({
        creditDebitType: 'DEBITO',
        transactionName: `PIX ${merchant.name}`,
        type: 'PIX',
        transactionAmount: brl(1500 + Math.floor(random() * 7500)),
        transactionDateTime: at(day),
        partieCnpjCpf: merchant.cnpj,
        partiePersonType: 'PESSOA_JURIDICA',
      });
    }
    const utilityDay = dayOfMonth(base, 15);
    if (inWindow(utilityDay)) {
      add({
        creditDebitType: 'DEBITO',
        transactionName: UTILITY.name,
        type: 'BOLETO',
        transactionAmount: brl(18000 + Math.floor(random() * 6000)),
        transactionDateTime: at(utilityDay),
        partieCnpjCpf: UTILITY.cnpj,
        partiePersonType: 'PESSOA_JURIDICA',
      });
    }
    const tedDay = dayOfMonth(base, 20);
    if (inWindow(tedDay)) {
      add({
        creditDebitType: 'CREDITO',
        transactionName: 'TED RECEBIDA JOAO DA SILVA',
        type: 'TED',
        transactionAmount: brl(50000),
        transactionDateTime: at(tedDay),
        partieCnpjCpf: '52998224725',
        partiePersonType: 'PESSOA_NATURAL',
        partieCompeCode: '237',
        partieBranchCode: '1234',
        partieNumber: '00098765',
        partieCheckDigit: '1',
      });
    }
  }
  for (const bill of bills) {
    if (bill.dueDate >= start && bill.dueDate < today) {
      add({
        creditDebitType: 'DEBITO',
        transactionName: 'PAGAMENTO FATURA CARTAO SANDBOX',
        type: 'BOLETO',
        transactionAmount: brl(bill.totalCents),
        transactionDateTime: at(bill.dueDate, '11:00:00'),
        partieCnpjCpf: BANK.companyCnpj,
        partiePersonType: 'PESSOA_JURIDICA',
      });
    }
  }
  // money of the holder's own: a Pix to their account at another bank, an application and a redemption
  add({
    creditDebitType: 'DEBITO',
    transactionName: 'PIX ENVIADO MESMA TITULARIDADE',
    type: 'PIX',
    transactionAmount: brl(70000),
    transactionDateTime: at(addDays(today, -20)),
    partieCnpjCpf: holder.cpf,
    partiePersonType: 'PESSOA_NATURAL',
    partieCompeCode: '260',
    partieBranchCode: '0001',
    partieNumber: '98765432',
    partieCheckDigit: '1',
  });
  for (const investment of holder.investments.filter((position) => position.purchaseDate >= start)) {
    add({
      creditDebitType: 'DEBITO',
      transactionName: `APLICACAO ${investment.name.toUpperCase()}`.slice(0, 200),
      type: 'OUTROS',
      transactionAmount: brl(investment.principalCents),
      transactionDateTime: at(investment.purchaseDate, '10:00:00'),
      partieCnpjCpf: BANK.companyCnpj,
      partiePersonType: 'PESSOA_JURIDICA',
    });
  }
  add({
    creditDebitType: 'CREDITO',
    transactionName: 'RESGATE FUNDO SANDBOX RENDA FIXA',
    type: 'RESGATE_APLIC_FINANCEIRA',
    transactionAmount: brl(125000),
    transactionDateTime: at(addDays(today, -30), '10:00:00'),
    partieCnpjCpf: BANK.companyCnpj,
    partiePersonType: 'PESSOA_JURIDICA',
  });
  // two fees under one id, as some institutions give them
  const feesId = `${prefix}-tx-tarifas`;
  for (const cents of [50, 26]) {
    transactions.push({
      transactionId: feesId,
      completedAuthorisedPaymentType: 'TRANSACAO_EFETIVADA',
      creditDebitType: 'DEBITO',
      transactionName: cents === 50 ? 'TARIFA PIX AGENDADO' : 'TARIFA SMS',
      type: 'TARIFA_SERVICOS_AVULSOS',
      transactionAmount: brl(cents),
      transactionDateTime: at(addDays(today, -12), '09:00:00'),
      partieCnpjCpf: BANK.companyCnpj,
      partiePersonType: 'PESSOA_JURIDICA',
    });
  }
  // the amounts and hours the mapping rules are tested on
  add({
    creditDebitType: 'DEBITO',
    transactionName: 'PIX TESTE CENTAVOS',
    type: 'PIX',
    transactionAmount: brl(10),
    transactionDateTime: at(addDays(today, -10)),
    partieCnpjCpf: '52998224725',
    partiePersonType: 'PESSOA_NATURAL',
  });
  add({
    creditDebitType: 'CREDITO',
    transactionName: 'TED VENDA DE IMOVEL',
    type: 'TED',
    transactionAmount: brl(123456789),
    transactionDateTime: at(addDays(today, -40)),
    partieCnpjCpf: '33000167000101',
    partiePersonType: 'PESSOA_JURIDICA',
    partieCompeCode: '001',
    partieBranchCode: '0001',
    partieNumber: '00012345',
    partieCheckDigit: '6',
  });
  // 02:30 UTC is 23:30 of the day before in São Paulo: booked on that calendar day
  add({
    creditDebitType: 'DEBITO',
    transactionName: 'PIX RESTAURANTE NOTURNO',
    type: 'PIX',
    transactionAmount: brl(8990),
    transactionDateTime: at(addDays(today, -3), '02:30:00'),
    partieCnpjCpf: '56789012000140',
    partiePersonType: 'PESSOA_JURIDICA',
  });
  add({
    completedAuthorisedPaymentType: 'LANCAMENTO_FUTURO',
    creditDebitType: 'DEBITO',
    transactionName: 'BOLETO CONDOMINIO EDIFICIO SOL',
    type: 'BOLETO',
    transactionAmount: brl(95000),
    transactionDateTime: at(addDays(today, 5), '12:00:00'),
    partieCnpjCpf: '67890123000151',
    partiePersonType: 'PESSOA_JURIDICA',
  });
  add({
    completedAuthorisedPaymentType: 'TRANSACAO_PROCESSANDO',
    creditDebitType: 'DEBITO',
    transactionName: 'PIX MERCADO DO BAIRRO',
    type: 'PIX',
    transactionAmount: brl(12345),
    transactionDateTime: at(addDays(today, -1), '18:00:00'),
    partieCnpjCpf: '78901234000162',
    partiePersonType: 'PESSOA_JURIDICA',
  });
  transactions.sort(
    (a, b) =>
      a.transactionDateTime.localeCompare(b.transactionDateTime) || a.transactionId.localeCompare(b.transactionId),
  );
  return {
    accountId: `${prefix}-conta`,
    type: 'CONTA_DEPOSITO_A_VISTA',
    subtype: 'INDIVIDUAL',
    branchCode: '0001',
    number: '0012345678',
    checkDigit: '0',
    openingBalance: 500000,
    transactions,
  };
}

/** A credit card with a year of closed bills, an installment purchase, an international purchase and a cashback. */
function creditCard(prefix: string, today: string, seed: string): Card {
  const random = seeded(seed);
  const closingDay = 3;
  const dueDay = 10;
  const last4 = '4453';
  let n = 0;
  const txId = () => `${prefix}-ct-${String(++n).padStart(4, '0')}`;
  // the closing dates of the last 12 closed bills and of the open period
  const lastClosing =
    dayOfMonth(today, closingDay) <= today
      ? dayOfMonth(today, closingDay)
      : addMonths(dayOfMonth(today, closingDay), -1);
  const closings = Array.from({ length: 13 }, (_, i) => addMonths(lastClosing, i - 12));
  const bills: Bill[] = [];
  const installmentStart = addMonths(addDays(lastClosing, 6), -4); // bought 4 bills ago, in 6 parts
  const foreignDay = addDays(addMonths(lastClosing, -2), 8);
  const cashbackDay = addDays(addMonths(lastClosing, -1), 4);
  const refundDay = addDays(addMonths(lastClosing, -3), 10);
  const purchase = (
    day: string,
    billPostDate: string,
    fields: Partial<CardTransaction> & { transactionName: string; cents: number },
  ): CardTransaction => {
    const { cents, ...rest } = fields;
    return {
      transactionId: txId(),
      identificationNumber: last4,
      creditDebitType: 'DEBITO',
      // a purchase is a PAGAMENTO (paid at once, A_VISTA, or in installments, A_PRAZO)
      transactionType: 'PAGAMENTO',
      paymentType: 'A_VISTA',
      brazilianAmount: brl(cents),
      amount: brl(cents),
      transactionDateTime: at(day, '16:00:00'),
      billPostDate,
      ...rest,
    };
  };
  const periodPurchases = (from: string, to: string, postDate: string): CardTransaction[] => {
    const rows: CardTransaction[] = [];
    for (let day = from; day < to; day = addDays(day, 6)) {
      const merchant = CARD_MERCHANTS[Math.floor(random() * CARD_MERCHANTS.length)];
      rows.push(
        purchase(day, postDate, {
          transactionName: merchant.name,
          cents: 2000 + Math.floor(random() * 18000),
          payeeMCC: merchant.mcc,
        }),
      );
    }
    for (let k = 1; k <= 6; k++) {
      const day = addMonths(installmentStart, k - 1);
      if (day >= from && day < to) {
        rows.push(
          purchase(day, postDate, {
            transactionName: 'NOTEBOOK LOJA TECNOLOGIA',
            cents: 50000,
            paymentType: 'A_PRAZO',
            chargeIdentificator: k,
            chargeNumber: 6,
            payeeMCC: 5732,
          }),
        );
      }
    }
    if (foreignDay >= from && foreignDay < to) {
      rows.push(
        purchase(foreignDay, postDate, {
          transactionName: 'AMAZON.COM US',
          cents: 27540,
          amount: { amount: '50.00', currency: 'USD' },
          payeeMCC: 5942,
        }),
      );
    }
    if (refundDay >= from && refundDay < to) {
      rows.push(
        purchase(refundDay, postDate, {
          transactionName: 'ESTORNO LIVRARIA CULTURA NOVA',
          cents: 3990,
          creditDebitType: 'CREDITO',
          transactionType: 'ESTORNO',
          paymentType: undefined,
        }),
      );
    }
    if (cashbackDay >= from && cashbackDay < to) {
      rows.push(
        purchase(cashbackDay, postDate, {
          transactionName: 'CASHBACK SANDBOX',
          cents: 1250,
          creditDebitType: 'CREDITO',
          transactionType: 'CASHBACK',
          paymentType: undefined,
        }),
      );
    }
    return rows;
  };
  for (let i = 1; i < closings.length; i++) {
    const closingDate = closings[i];
    const dueDate = dayOfMonth(closingDate, dueDay);
    const billId = `${prefix}-fatura-${closingDate.slice(0, 7)}`;
    const transactions = periodPurchases(closings[i - 1], closingDate, closingDate).map((tx) => ({ ...tx, billId }));
    const totalCents = transactions.reduce(
      (sum, tx) =>
        sum + (tx.creditDebitType === 'DEBITO' ? 1 : -1) * Number(tx.brazilianAmount.amount.replace('.', '')),
      0,
    );
    // its payment is in the bill's `payments` (and a debit of the account), not among its entries
    bills.push({ billId, dueDate, closingDate, totalCents, transactions });
  }
  // not on a bill yet: the documents' dummy day
  const open = periodPurchases(lastClosing, addDays(today, 1), DUMMY_DAY).filter(
    (tx) => tx.transactionDateTime.slice(0, 10) < today,
  );
  return {
    creditCardAccountId: `${prefix}-cartao`,
    name: 'Sandbox Platinum',
    productType: 'PLATINUM',
    creditCardNetwork: 'MASTERCARD',
    identificationNumber: last4,
    limitCents: 1000000,
    closingDay,
    dueDay,
    bills,
    open,
  };
}

function investments(prefix: string, today: string): Investment[] {
  return [
    {
      family: 'bank-fixed-incomes',
      investmentId: `${prefix}-cdb`,
      name: 'CDB Sandbox 110% CDI',
      kind: 'CDB',
      purchaseDate: addDays(today, -200),
      dueDate: addDays(today, 900),
      principalCents: 1000000,
      dailyRate: 0.00045,
      isinCode: 'BRSBXCDB0001',
    },
    {
      family: 'treasure-titles',
      investmentId: `${prefix}-tesouro`,
      name: 'Tesouro Selic 2029',
      kind: 'SELIC',
      purchaseDate: addDays(today, -300),
      dueDate: '2029-03-01',
      principalCents: 2500000,
      dailyRate: 0.0004,
      isinCode: 'BRSTNCLF1RC4',
    },
    {
      family: 'funds',
      investmentId: `${prefix}-fundo`,
      name: 'Sandbox Renda Fixa FIC FI',
      kind: 'RENDA_FIXA',
      purchaseDate: addDays(today, -120),
      dueDate: addDays(today, 3650),
      principalCents: 750000,
      dailyRate: 0.0003,
      isinCode: 'BRSBXFND0007',
    },
  ];
}

/** The gross balance of a position on a day, in cents: the principal grown by its daily rate (rounded down). */
export function positionCents(investment: Investment, day: string): number {
  const days = Math.max(0, Math.round((Date.parse(day) - Date.parse(investment.purchaseDate)) / 86_400_000));
  return Math.floor(investment.principalCents * (1 + investment.dailyRate) ** days);
}

/** The cents of an amount as a record holds it (a record added as some institution sends it may bend the format). */
const centsOf = (amount: unknown): number => Math.round(Number(String(amount ?? '').replace(',', '.')) * 100);

/** The account's balance: the opening balance and every effected entry whose amount reads as one. */
export function balanceCents(account: Account): number {
  return account.transactions
    .filter((tx) => tx.completedAuthorisedPaymentType === 'TRANSACAO_EFETIVADA')
    .map((tx) => (tx.creditDebitType === 'CREDITO' ? 1 : -1) * centsOf(tx.transactionAmount?.amount))
    .filter(Number.isFinite)
    .reduce((sum, cents) => sum + cents, account.openingBalance);
}

/** The test customers, the same on every start for the same `today`. */
export function buildCustomers(today: string, largeEntries = LARGE_ENTRIES): Customer[] {
  const card = creditCard('ana', today, 'ana-card');
  const anaCpf = '76109277673';
  const anaInvestments = investments('ana', today);
  const ana: Customer = {
    cpf: anaCpf,
    name: 'Ana Sandbox',
    accounts: [checkingAccount('ana', today, card.bills, 'ana-conta', { cpf: anaCpf, investments: anaInvestments })],
    cards: [card],
    investments: anaInvestments,
  };
  const bruno: Customer = {
    cpf: '52998224725',
    name: 'Bruno Sandbox',
    accounts: [checkingAccount('bruno', today, [], 'bruno-conta', { cpf: '52998224725', investments: [] })],
    cards: [],
    investments: [],
  };
  return [ana, bruno, largeCustomer(today, largeEntries)];
}

/** How many entries Carla's account holds: a history long enough that its list runs past 200 pages. */
export const LARGE_ENTRIES = 10_000;

/** Carla: one account with a long year of card-machine sales and Pix (many entries a day), for long lists. */
function largeCustomer(today: string, entries: number): Customer {
  const random = seeded('carla-conta');
  const start = addDays(today, -364);
  const transactions: AccountTransaction[] = [];
  for (let n = 0; n < entries; n++) {
    const day = addDays(start, Math.floor((n * 364) / entries));
    const credit = n % 3 !== 0;
    const merchant = MERCHANTS[n % MERCHANTS.length];
    transactions.push({
      transactionId: `carla-tx-${String(n + 1).padStart(6, '0')}`,
      completedAuthorisedPaymentType: 'TRANSACAO_EFETIVADA',
      creditDebitType: credit ? 'CREDITO' : 'DEBITO',
      transactionName: credit ? 'VENDA CARTAO MAQUININHA' : `PIX ${merchant.name}`,
      type: credit ? 'OUTROS' : 'PIX',
      transactionAmount: brl(500 + Math.floor(random() * 20000)),
      transactionDateTime: at(day, `${String(8 + (n % 12)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:00`),
      ...(credit ? {} : { partieCnpjCpf: merchant.cnpj, partiePersonType: 'PESSOA_JURIDICA' as const }),
    });
  }
  return {
    cpf: CARLA_CPF,
    name: 'Carla Sandbox',
    accounts: [
      {
        accountId: 'carla-conta',
        type: 'CONTA_DEPOSITO_A_VISTA',
        subtype: 'INDIVIDUAL',
        branchCode: '0001',
        number: '0099887766',
        checkDigit: '5',
        openingBalance: 1000000,
        transactions,
      },
    ],
    cards: [],
    investments: [],
  };
}

/** Carla's CPF (valid check digits). */
export const CARLA_CPF = '11144477735';

export { amountOf };

/** Brazilian banks by COMPE code, accepted as account logos (docs/decisions.md §7). */
export const BANKS: ReadonlyArray<{ code: string; name: string }> = [
  { code: '001', name: 'Banco do Brasil' },
  { code: '004', name: 'Banco do Nordeste' },
  { code: '021', name: 'Banestes' },
  { code: '033', name: 'Santander' },
  { code: '037', name: 'Banpará' },
  { code: '041', name: 'Banrisul' },
  { code: '070', name: 'BRB' },
  { code: '077', name: 'Banco Inter' },
  { code: '102', name: 'XP Investimentos' },
  { code: '104', name: 'Caixa Econômica Federal' },
  { code: '121', name: 'Agibank' },
  { code: '197', name: 'Stone' },
  { code: '208', name: 'BTG Pactual' },
  { code: '212', name: 'Banco Original' },
  { code: '237', name: 'Bradesco' },
  { code: '260', name: 'Nubank' },
  { code: '290', name: 'PagBank' },
  { code: '318', name: 'Banco BMG' },
  { code: '323', name: 'Mercado Pago' },
  { code: '336', name: 'C6 Bank' },
  { code: '341', name: 'Itaú Unibanco' },
  { code: '364', name: 'Efí' },
  { code: '380', name: 'PicPay' },
  { code: '389', name: 'Banco Mercantil do Brasil' },
  { code: '403', name: 'Cora' },
  { code: '422', name: 'Banco Safra' },
  { code: '623', name: 'Banco Pan' },
  { code: '655', name: 'Banco BV' },
  { code: '707', name: 'Banco Daycoval' },
  { code: '748', name: 'Sicredi' },
  { code: '756', name: 'Sicoob' },
];

const byCode = new Map(BANKS.map((bank) => [bank.code, bank]));

export const bankLogoUrl = (baseUrl: string, code: string): string => `${baseUrl.replace(/\/$/, '')}/${code}.png`;

export function listBanks(baseUrl: string) {
  return BANKS.map((bank) => ({ ...bank, logo: bankLogoUrl(baseUrl, bank.code) }));
}

/** A logo is kept as a URL: a bank code becomes its bank's logo URL; an unknown code is null. */
export function resolveLogo(baseUrl: string, logo: string): string | null {
  if (/^\d{3}$/.test(logo)) return byCode.has(logo) ? bankLogoUrl(baseUrl, logo) : null;
  return logo;
}

/** Cents as a Brazilian reader writes money: `R$ 1.234,56` (`R$ -12,50` below zero). */
export const reais = (cents: number) =>
  `R$ ${(cents / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A calendar date as a Brazilian reader writes it: `31/12/2026`. */
export const day = (date: string) => date.split('-').reverse().join('/');

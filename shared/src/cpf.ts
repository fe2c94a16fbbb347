/**
 * A CPF's two check digits (Receita Federal's modulus 11 rule): each is 11 minus the remainder of the weighted sum of
 * the digits before it (weights from 10, then 11, down to 2), 0 when that is 10 or 11. Eleven equal digits pass the
 * rule but no CPF is issued with them.
 */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const checkDigit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    return ((sum * 10) % 11) % 10;
  };
  return checkDigit(9) === Number(digits[9]) && checkDigit(10) === Number(digits[10]);
}

import { percentageOf, statusOf } from '../src/domain/limits/limit-status.ts';

describe('statusOf', () => {
  const limit = { amount: 10_000, notificationPercentage: 80 };

  it.each([
    [0, 'OK'],
    [7_999, 'OK'],
    [8_000, 'WARNING'],
    [9_999, 'WARNING'],
    [10_000, 'EXCEEDED'],
    [25_000, 'EXCEEDED'],
  ])('when %i of 10 000 is spent at 80 %%, then %s', (spent, status) => {
    expect(statusOf(limit, spent)).toBe(status);
  });

  it('when the warning level is 100 %, then only EXCEEDED is reached', () => {
    expect(statusOf({ amount: 3, notificationPercentage: 100 }, 2)).toBe('OK');
    expect(statusOf({ amount: 3, notificationPercentage: 100 }, 3)).toBe('EXCEEDED');
  });

  it('when computing the percentage, then it has at most two decimals', () => {
    expect(percentageOf(3, 1)).toBe(33.33);
    expect(percentageOf(10_000, 8_000)).toBe(80);
  });
});

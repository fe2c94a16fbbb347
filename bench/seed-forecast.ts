import { addDays, addMonthsClamped, type CalendarDate } from '@finance/shared/calendar';
import type { ApiClient } from '../test/support/api-client.ts';
import type { SeededContext } from './seed.ts';

async function created(api: ApiClient, path: string, body: unknown): Promise<void> {
  const response = await api.post(path, body);
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
}

/**
 * What a forecast of the person reads ahead, through the API (so series, bills and reminders are as the services
 * write them): recurrences on the accounts and the cards, installment purchases on the cards, boletos scheduled
 * over the year and a goal with a monthly reminder. Once per database (`marker` names it), however many passes.
 */
export async function seedForecast(person: SeededContext, today: CalendarDate): Promise<void> {
  const marker = await person.api.get('/v1/transactions?limit=1&start_date=2999-12-31');
  if (marker.status === 200 && marker.body.data.length) return;
  const [main, other] = person.accountIds;
  const start = addMonthsClamped(today, -2);
  const recurrences = [
    { title: 'Salário', amount: 1_200_000, is_expense: false, account_id: main, day: 5 },
    { title: 'Aluguel', amount: 350_000, is_expense: true, account_id: main, day: 10 },
    { title: 'Internet', amount: 12_990, is_expense: true, account_id: other, day: 15 },
    ...person.cardIds.flatMap((card, n) => [
      { title: `Streaming ${n + 1}`, amount: 5_590, is_expense: true, credit_card_id: card, day: 12 },
      { title: `Academia ${n + 1}`, amount: 11_990, is_expense: true, credit_card_id: card, day: 20 },
    ]),
  ];
  for (const { day, ...recurrence } of recurrences) {
    await created(person.api, '/v1/transactions', {
      ...recurrence,
      date: `${start.slice(0, 8)}${String(day).padStart(2, '0')}`,
      type: 'RECURRENT',
      paid: true,
    });
  }
  for (let n = 0; n < 12; n++) {
    await created(person.api, '/v1/transactions', {
      title: `Parcelado ${n + 1}`,
      amount: 120_000 + n * 1_001,
      date: addDays(today, -10 * n),
      is_expense: true,
      credit_card_id: person.cardIds[n % person.cardIds.length],
      type: 'PARCELLED',
      installments: 10,
      is_full_amount: true,
    });
  }
  for (let n = 1; n <= 40; n++) {
    await created(person.api, '/v1/transactions', {
      title: `Boleto ${n}`,
      amount: 15_000 + n * 337,
      date: addDays(today, n * 9),
      is_expense: true,
      account_id: n % 3 === 0 ? other : main,
      paid: false,
    });
  }
  await created(person.api, '/v2/goals', {
    title: 'Reserva',
    amount: 5_000_000,
    deadline: addDays(today, 730),
    reminder: { amount: 50_000, start_date: addDays(today, 3) },
  });
  // the marker: a far entry no read of the bench reaches
  await created(person.api, '/v1/transactions', {
    title: 'Marcador da previsão',
    amount: 1,
    date: '2999-12-31',
    is_expense: true,
    account_id: other,
    paid: true,
  });
}

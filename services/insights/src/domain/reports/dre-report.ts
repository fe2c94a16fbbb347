import type { LedgerInsightsClient } from '@finance/shared/clients/ledger-insights-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PeriodQuery } from '@finance/shared/contracts/common';
import { assertPeriod } from './period.ts';

const GROUPS: Array<[group: string, label: string]> = [
  ['receita', 'Receita bruta'],
  ['deducoes', 'Deduções'],
  ['custos', 'Custos'],
  ['despesas_operacionais', 'Despesas operacionais'],
  ['financeiro', 'Resultado financeiro'],
  ['investimento', 'Investimentos'],
  ['retiradas', 'Retiradas'],
];

/** Income statement: every group in DRE order (zero when empty) and the result lines that add them up. */
export async function dreReport(ledger: LedgerInsightsClient, ctx: CallerContext, period: PeriodQuery) {
  const { groups } = await ledger.dre(ctx, assertPeriod(period));
  const byGroup = new Map(groups.map((group) => [group.dre_group, group]));
  const lines = GROUPS.map(([group, label]) => {
    const row = byGroup.get(group);
    const income = row?.income ?? 0;
    const expenses = row?.expenses ?? 0;
    return { dre_group: group, label, income, expenses, total: income - expenses };
  });
  const total = (group: string) => lines.find((line) => line.dre_group === group)?.total ?? 0;
  const receitaLiquida = total('receita') + total('deducoes');
  const lucroBruto = receitaLiquida + total('custos');
  const resultadoOperacional = lucroBruto + total('despesas_operacionais');
  return {
    start_date: period.start_date,
    end_date: period.end_date,
    groups: lines,
    receita_liquida: receitaLiquida,
    lucro_bruto: lucroBruto,
    resultado_operacional: resultadoOperacional,
    resultado_liquido: resultadoOperacional + total('financeiro') + total('investimento') + total('retiradas'),
  };
}

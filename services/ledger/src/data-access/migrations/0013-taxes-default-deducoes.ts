import { Migration } from '@mikro-orm/migrations';

export class TaxesDefaultToDeducoes extends Migration {
  override async up(): Promise<void> {
    // "Impostos e taxas" are taxes on revenue in Brazilian practice: their default DRE group is `deducoes`.
    // Companies that mapped it keep their choice (dre_mappings); every other context now sees the new default.
    this.addSql(
      `update categories set dre_group = 'deducoes' where id = 'c0000000-0000-4000-8000-000000000009' and user_id is null`,
    );
  }
}

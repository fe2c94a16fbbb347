import { Migration } from '@mikro-orm/migrations';
import { merchantNameFunctionSql } from '../merchant-name-sql.ts';

export class MerchantNameNfd extends Migration {
  override async up(): Promise<void> {
    // decomposed accents (NFD) and every Unicode blank normalize like their plain forms
    this.addSql(merchantNameFunctionSql());
    // a stored generated column is recomputed only when its row is written
    this.addSql(`update transactions set merchant_name = merchant_name
      where merchant_name is not null and merchant_name_normalized is distinct from normalize_merchant_name(merchant_name)`);
    this.addSql(`update categorization_rules set match_merchant_name = normalize_merchant_name(match_merchant_name)
      where match_merchant_name is not null`);
  }
}

import { Migration } from '@mikro-orm/migrations';

export class AddContextTimeZone extends Migration {
  override async up(): Promise<void> {
    // the IANA zone whose calendar is the context's "today"; null = America/Sao_Paulo
    this.addSql('alter table personal_configs add column time_zone text');
  }
}

import { Migration } from '@mikro-orm/migrations';

export class UserEditedFields extends Migration {
  override async up(): Promise<void> {
    // the fields a user changed on a transaction: a re-import of the bank's data leaves them as the user wrote them
    this.addSql(`alter table transactions add column user_edited_fields text[] not null default '{}'`);
  }
}

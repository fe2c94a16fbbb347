import { Migration } from '@mikro-orm/migrations';

export class RecategorizationLanes extends Migration {
  override async up(): Promise<void> {
    // a run's matches split by id into lanes that batches walk side by side; each lane keeps its own cursor
    this.addSql(`create table recategorization_lanes (
      job_id uuid not null references recategorization_runs (job_id) on delete cascade,
      lane smallint not null,
      cursor_id uuid,
      upper_id uuid,
      finished_at timestamptz(3),
      primary key (job_id, lane)
    )`);
    // a run recorded before lanes existed goes on from its cursor as one lane with no upper bound
    this.addSql(`insert into recategorization_lanes (job_id, lane, cursor_id, upper_id, finished_at)
      select job_id, 0, cursor_id, null, finished_at from recategorization_runs`);
    this.addSql('alter table recategorization_runs drop column cursor_id');
  }
}

// At most one running recovery per target. Each recovery takes a single place in the target's ingest
// window however many events it replays, so several at once would multiply a target's load past what
// the window allows. The request checks first (to name the running one), but only a unique index
// holds when two requests race; it is partial, so finished recoveries stay as many as there were.
//
// Rows from before this rule may break it: all but the oldest running recovery of a target are failed
// first, with a reason saying to start them again, rather than leaving the migration unable to run.
import { sql, type Kysely } from 'kysely';

const SUPERSEDED =
  'stopped: another recovery of this target was running, and only one may run at a time; start this one again once it has finished';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update recoveries r
       set state = 'failed', failure_reason = ${SUPERSEDED}, finished_at = now(), updated_at = now()
     where r.state = 'running'
       and exists (select 1 from recoveries o
                    where o.target_id = r.target_id and o.state = 'running'
                      and (o.created_at, o.id) < (r.created_at, r.id))`.execute(db);
  await db.schema
    .createIndex('recoveries_one_running')
    .on('recoveries')
    .column('target_id')
    .unique()
    .where(sql.ref('state'), '=', 'running')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('recoveries_one_running').ifExists().execute();
}

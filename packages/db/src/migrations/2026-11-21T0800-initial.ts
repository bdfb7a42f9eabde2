// The whole service's schema: tenants and accounts, targets of all three kinds, items, attempts,
// mailbox messages, usage and idempotency. Indexes follow the lists and filters of the spec.
import { sql, type Kysely } from 'kysely';

const now = sql`now()`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('billing_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('exempt')
        .check(sql`billing_status in ('pending','active','grace','suspended','exempt')`),
    )
    .addColumn('billing_grace_ends_at', 'timestamptz')
    .addColumn('processor_customer_id', 'text')
    .addColumn('has_payment_method', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('users_org').on('users').columns(['org_id']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sessions_user_created')
    .on('sessions')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('sessions_expires').on('sessions').columns(['expires_at']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('api_keys_org_created')
    .on('api_keys')
    .columns(['org_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('targets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('webhook','mailbox','a2a')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('url', 'text')
    .addColumn('event_types', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('max_payload_bytes', 'integer', (c) => c.notNull().defaultTo(262144))
    .addColumn('max_retries', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('retry_interval_seconds', 'integer', (c) => c.notNull().defaultTo(60))
    // Secrets are AES-256-GCM envelopes ("v1.<kid>.<iv>.<tag>.<ciphertext>"), never plain text.
    .addColumn('signing_secret', 'text')
    .addColumn('previous_signing_secret', 'text')
    .addColumn('verify_inbound_signatures', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('inbound_secret', 'text')
    .addColumn('agent_card_url', 'text')
    .addColumn('a2a_interface', 'jsonb')
    .addColumn('a2a_card', 'jsonb')
    .addColumn('a2a_card_etag', 'text')
    .addColumn('a2a_card_fetched_at', 'timestamptz')
    .addColumn('a2a_auth_type', 'text', (c) => c.check(sql`a2a_auth_type in ('none','bearer')`))
    .addColumn('a2a_auth_token', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('targets_org_created')
    .on('targets')
    .columns(['org_id', 'created_at', 'id'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('target_id', 'text', (c) => c.notNull().references('targets.id'))
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text')
    .addColumn('correlation_id', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('QUEUED','DELIVERED','FAILED','RETRYING','EXPIRED','REPLAYED')`),
    )
    .addColumn('source_event_id', 'text')
    // The accepted body, byte for byte; null once payload retention has dropped it.
    .addColumn('payload', 'bytea')
    .addColumn('payload_size', 'integer', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('final_reason', 'text')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  for (const [name, cols] of [
    ['events_org_created', ['org_id', 'created_at', 'id']],
    ['events_org_target_created', ['org_id', 'target_id', 'created_at']],
    ['events_org_status_created', ['org_id', 'status', 'created_at']],
    ['events_org_type_created', ['org_id', 'event_type', 'created_at']],
    ['events_org_correlation', ['org_id', 'correlation_id']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('events')
      .columns([...cols])
      .execute();
  }
  await db.schema
    .createIndex('events_due')
    .on('events')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), 'in', sql`('QUEUED','RETRYING')`)
    .execute();
  await db.schema
    .createIndex('events_payload_retention')
    .on('events')
    .columns(['created_at'])
    .where(sql.ref('payload'), 'is not', null)
    .execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('a2a_task_id', 'text')
    .addColumn('a2a_task_state', 'text')
    .execute();
  await db.schema
    .createIndex('attempts_event')
    .on('delivery_attempts')
    .columns(['event_id', 'attempted_at'])
    .execute();
  await db.schema
    .createIndex('attempts_org_attempted')
    .on('delivery_attempts')
    .columns(['org_id', 'attempted_at'])
    .execute();

  await db.schema
    .createTable('mailbox_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('mailbox_id', 'text', (c) => c.notNull().references('targets.id'))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('UNREAD','CLAIMED','ACKNOWLEDGED','EXPIRED')`),
    )
    .addColumn('event_type', 'text')
    .addColumn('correlation_id', 'text')
    .addColumn('payload', 'bytea')
    .addColumn('payload_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('claimed_by_key_id', 'text')
    .addColumn('lease_expires_at', 'timestamptz')
    .addColumn('acknowledged_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('mailbox_messages_list')
    .on('mailbox_messages')
    .columns(['mailbox_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('mailbox_messages_state_list')
    .on('mailbox_messages')
    .columns(['mailbox_id', 'state', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('mailbox_messages_retention')
    .on('mailbox_messages')
    .columns(['expires_at'])
    .where(sql.ref('state'), '<>', 'EXPIRED')
    .execute();

  await db.schema
    .createTable('usage_records')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull().unique())
    .addColumn('item_kind', 'text', (c) => c.notNull().check(sql`item_kind in ('webhook','mailbox','a2a')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('reported_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('usage_org_created')
    .on('usage_records')
    .columns(['org_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['org_id', 'target_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_expires').on('idempotency_keys').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'idempotency_keys',
    'usage_records',
    'mailbox_messages',
    'delivery_attempts',
    'events',
    'targets',
    'api_keys',
    'sessions',
    'users',
    'organizations',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}

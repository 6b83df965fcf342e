import { integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../columns';

/**
 * The external MQTT subscriber's delivery ledger (`platform/mqtt/delivery-ledger.ts`): per
 * persistent session, the packet ids and payload digests of its last committed batches, written
 * in each batch's transaction, so a message the broker redelivers after a crash (committed, but
 * its PUBACK never left) is recognised and not stored twice. A few rows per server process.
 */
export const mqttDelivery = pgTable(
  'mes_mqtt_delivery',
  {
    session: varchar('session', { length: 128 }).notNull(),
    slot: integer('slot').notNull(),
    packetIds: integer('packet_ids').array().notNull(),
    digests: integer('digests').array().notNull(),
    committedAt: timestampColumn('committed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.session, t.slot] })],
);

import { integer, pgTable, varchar } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../columns';

/**
 * The embedded broker's publication ledger (`platform/mqtt/publish-ledger.ts`): per device MQTT
 * client id, the packet ids and payload digests of its last committed QoS-1 messages (newest
 * first), upserted in each batch's transaction, so a message the device publishes again because
 * its PUBACK was lost (a restart, a crash, a dropped connection) is acknowledged and not stored
 * twice, by whichever process it reconnects to. One row per device.
 */
export const mqttPublisher = pgTable('mes_mqtt_publisher', {
  clientId: varchar('client_id', { length: 128 }).primaryKey(),
  packetIds: integer('packet_ids').array().notNull(),
  digests: integer('digests').array().notNull(),
  committedAt: timestampColumn('committed_at').notNull().defaultNow(),
});

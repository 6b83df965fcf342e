/**
 * The change-feed topic (platform/cache/change-feed.ts) that cuts a device off the embedded
 * broker of every server process: its secret was rotated, or it was removed or disabled. The
 * device module sends it with `pg_notify` inside the transaction of the change, so it goes out
 * exactly when the change commits; each process's broker closes that client id's connection.
 */
const PREFIX = 'mqtt-revoke:';

export const mqttRevocationTopic = (clientId: string) => `${PREFIX}${clientId}`;

/** The MQTT client id a revocation topic names, else undefined. */
export const revokedClientOf = (topic: string) => (topic.startsWith(PREFIX) ? topic.slice(PREFIX.length) : undefined);

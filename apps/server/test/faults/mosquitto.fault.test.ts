import { databaseCases } from './cases/database.cases';
import { deviceCases } from './cases/devices.cases';
import { poisonCases } from './cases/poison.cases';
import { restartCases } from './cases/restart.cases';
import { useStack } from './support/stack';

/**
 * The fault suite through an external broker: the suite's own Mosquitto (support/mosquitto.ts)
 * with the server subscribed on its shared subscription. One stack for every case.
 */
const s = useStack('mosquitto');
databaseCases(s);
restartCases(s);
deviceCases(s);
poisonCases(s);

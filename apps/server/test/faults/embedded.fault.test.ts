import { databaseCases } from './cases/database.cases';
import { deviceCases } from './cases/devices.cases';
import { jobAndRecordCases } from './cases/jobs-records.cases';
import { poisonCases } from './cases/poison.cases';
import { restartCases } from './cases/restart.cases';
import { useStack } from './support/stack';

/**
 * The fault suite on the embedded broker (aedes in the server process): one stack (database
 * behind a fault proxy, one server process) for every case, as a stack takes about 20 s to make;
 * a case that leaves the server dead or stalled has it revived or reset by the next.
 */
const s = useStack('embedded');
databaseCases(s);
restartCases(s);
deviceCases(s);
poisonCases(s);
jobAndRecordCases(s);

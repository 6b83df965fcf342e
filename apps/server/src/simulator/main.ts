import { SimulatorError } from './errors';
import { HELP, parseOptions } from './options';
import { runSimulator } from './run';

/** `npm run simulate -- --devices 200 --rate 10` (docs/simulator.md). */
async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (!options) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const stop = new AbortController();
  const interrupt = () => {
    if (stop.signal.aborted) {
      // A second Ctrl-C: leave at once; the broker sends each device's will.
      process.stderr.write('stopping at once\n');
      process.exit(130);
    }
    process.stderr.write('stopping: every device says offline and disconnects (Ctrl-C again to quit at once)\n');
    stop.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  const stamp = () => new Date().toISOString().slice(11, 19);
  await runSimulator(options, { log: (line) => process.stdout.write(`[${stamp()}] ${line}\n`), signal: stop.signal });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof SimulatorError) process.stderr.write(`simulate: ${error.message}\n`);
    else process.stderr.write(`simulate: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);

import { ConfigError, loadConfig, type AppConfig } from './platform/config';

// The settings are checked before the server's modules load: a wrong setting is refused in well
// under a second, instead of after the several seconds that loading the whole server takes.
let config: AppConfig;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
  throw e;
}
const { startServer } = await import('./server-start');
await startServer(config);

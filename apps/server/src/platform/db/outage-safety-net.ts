import { isDatabaseUnavailable } from './unavailable';

interface SafetyNetLog {
  error(details: object, message: string): void;
  fatal(details: object, message: string): void;
}

/** The words every line of the safety net starts with (tests look for them). */
export const SAFETY_NET_MARK = 'process safety net';

/**
 * The last resort of a server process: a database connection error that nothing handled (an
 * 'error' event without a listener, a rejection nobody awaited) is logged as the bug it is and
 * the process keeps serving — one missed listener must not take every tenant offline while the
 * database blips. Anything else still ends the process as Node would, after a fatal line: an
 * unknown failure is not hidden.
 *
 * Every connection and promise of the server handles its own errors (database.ts,
 * listen-connection.ts); a line from here means one of them does not, and is to be fixed.
 */
export function installOutageSafetyNet(log: SafetyNetLog, exit: (code: number) => void = process.exit): void {
  process.on('uncaughtException', (error, origin) => {
    if (isDatabaseUnavailable(error)) {
      log.error(
        { err: error, origin },
        `${SAFETY_NET_MARK}: a database connection error nothing handled (a bug to report); the server keeps running`,
      );
      return;
    }
    log.fatal({ err: error, origin }, `uncaught exception: ${error instanceof Error ? error.message : String(error)}`);
    exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      log.error(
        { err: reason },
        `${SAFETY_NET_MARK}: a database error nobody awaited (a bug to report); the server keeps running`,
      );
      return;
    }
    // As Node itself would (`--unhandled-rejections=throw`), after saying what it was.
    log.fatal({ err: reason }, `unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`);
    exit(1);
  });
}

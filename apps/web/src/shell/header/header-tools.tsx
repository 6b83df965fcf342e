import { ErrorLogButton } from '../error-log/error-log-button';
import { LockButton } from '../lock/lock-button';

/** Header tools (top menu, search, theme, colour, notices, full screen) plus the lock and error-log buttons. */
export function HeaderTools() {
  return (
    <>
      <ErrorLogButton />
      <LockButton />
    </>
  );
}

/** Header icon that opens the lock dialog (lock password required), then goes to /lock. */
export function LockButton() {
  return null;
}

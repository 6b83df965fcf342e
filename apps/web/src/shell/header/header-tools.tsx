/** Header tools (search, error log, lock, theme, colour, notices, full screen) go here. */
export function HeaderTools() {
  return null;
}

/** Header badge with the count of local errors (max 99); opens the full-screen error-log dialog. */
export function ErrorLogButton() {
  return null;
}

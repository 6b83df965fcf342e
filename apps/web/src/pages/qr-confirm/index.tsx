/** Where a signed-in user confirms a QR sign-in started on another device. */
export default function QrConfirmPage() {
  return null;
}

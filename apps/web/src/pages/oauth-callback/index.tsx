/** Where a third-party provider sends the browser back with `code` and `state`. */
export default function OAuthCallbackPage() {
  return null;
}

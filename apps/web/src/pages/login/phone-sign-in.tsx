import { NotConfigured } from './not-configured';

/** The phone sign-in panel of the sign-in page. */
export function PhoneSignIn() {
  return <NotConfigured />;
}

import { NotConfigured } from './not-configured';

/** The social sign-in panel of the sign-in page. */
export function SocialSignIn() {
  return <NotConfigured />;
}

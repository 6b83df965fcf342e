import type { TokenResponse } from '@mes/contracts';
import type { NavigateFunction } from 'react-router';
import { useSession } from '../../session/session-store';
import { useTabs } from '../../shell/tabs/tabs-store';
import { redirectTarget } from './redirect-target';

/** What every sign-in method does with the token reply: start the session and open the target page. */
export function completeSignIn(result: TokenResponse, navigate: NavigateFunction): void {
  useSession.getState().signIn(result);
  useTabs.getState().reset();
  void navigate(redirectTarget(window.location.search), { replace: true });
}

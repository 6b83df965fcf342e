import type { TokenResponse } from '@mes/contracts';
import type { NavigateFunction } from 'react-router';
import { useSession } from '../../session/session-store';
import { useTabs } from '../../shell/tabs/tabs-store';

/** What every sign-in method does with the token reply: start the session and open the desk. */
export function completeSignIn(result: TokenResponse, navigate: NavigateFunction): void {
  useSession.getState().signIn(result);
  useTabs.getState().reset();
  void navigate('/wel/index', { replace: true });
}

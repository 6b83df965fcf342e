import { ErrorLogButton } from '../error-log/error-log-button';
import { LockButton } from '../lock/lock-button';
import { ColorPicker } from './color-picker';
import { FullscreenToggle } from './fullscreen-toggle';
import { MenuSearch } from './menu-search';
import { NoticePopover } from './notice-popover';
import { ThemePicker } from './theme-picker';
import { TopMenu } from './top-menu';
import './header-tools.css';

/**
 * Header tools in the spec's order (section 2): top menu, menu search, error log, lock, theme,
 * colour, notice, full screen. Below 768 px search, error log, lock and the notice bell stay
 * (mes-hide-xs hides the rest): a warning must reach the staff member on a phone too.
 */
export function HeaderTools() {
  return (
    <>
      <TopMenu />
      <MenuSearch />
      <ErrorLogButton />
      <LockButton />
      <ThemePicker />
      <ColorPicker />
      <NoticePopover />
      <FullscreenToggle />
    </>
  );
}

import { Dropdown, type MenuProps } from 'antd';
import { useState, type KeyboardEvent, type ReactNode } from 'react';

interface HeaderDropdownProps {
  /** Accessible name of the control. */
  label: string;
  menu: MenuProps;
  className?: string;
  children: ReactNode;
  'data-testid'?: string;
}

/**
 * A header control with a menu: opens on hover or click, and from the keyboard with Enter, Space
 * or ↓; the menu then takes focus (arrows move, Enter picks, Esc closes and returns focus here).
 */
export function HeaderDropdown({ label, menu, className, children, ...rest }: HeaderDropdownProps) {
  const [open, setOpen] = useState(false);
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    setOpen(true);
  };
  return (
    <Dropdown
      trigger={['hover', 'click']}
      open={open}
      onOpenChange={setOpen}
      autoFocus
      menu={{
        ...menu,
        onClick: (info) => {
          setOpen(false);
          menu.onClick?.(info);
        },
      }}
    >
      <span
        className={['mes-header-tool', className ?? ''].join(' ').trim()}
        role="button"
        tabIndex={0}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        onKeyDown={onKeyDown}
        data-testid={rest['data-testid']}
      >
        {children}
      </span>
    </Dropdown>
  );
}

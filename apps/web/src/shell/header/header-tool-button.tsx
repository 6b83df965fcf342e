import { Tooltip } from 'antd';
import type { HTMLAttributes, ReactNode } from 'react';
import { activateOnKey } from './key-activate';

interface HeaderToolButtonProps extends HTMLAttributes<HTMLSpanElement> {
  /** Tooltip text and accessible name. */
  label: string;
  /** Hidden on phones (< 768 px), where the header has room only for the essentials. */
  optional?: boolean;
  children: ReactNode;
}

/** An icon button of the header: tooltip, accessible name, and reachable by keyboard. */
export function HeaderToolButton({ label, optional, className, children, onClick, ...rest }: HeaderToolButtonProps) {
  return (
    <Tooltip title={label}>
      <span
        {...rest}
        className={['mes-header-tool', optional ? 'mes-hide-xs' : '', className ?? ''].join(' ').trim()}
        role="button"
        tabIndex={0}
        aria-label={label}
        onClick={onClick}
        onKeyDown={activateOnKey}
      >
        {children}
      </span>
    </Tooltip>
  );
}

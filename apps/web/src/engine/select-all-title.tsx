import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The select-all checkbox of the table's header. antd copies every column title into a hidden
 * measuring row (`aria-hidden`) of tables with fixed columns; a copy of a checkbox there would be
 * a focusable element screen readers cannot see (WCAG 4.1.2). The copy finds itself in that row
 * after mounting and renders an empty cell instead; the real header keeps the checkbox.
 */
export function SelectAllTitle({ checkbox }: { checkbox: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [measuring, setMeasuring] = useState(false);
  useLayoutEffect(() => {
    if (ref.current?.closest('.ant-table-measure-row')) setMeasuring(true);
  }, []);
  return <span ref={ref}>{measuring ? '\u00a0' : checkbox}</span>;
}

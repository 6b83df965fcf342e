import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FIRST_FIELD = 'input:not([disabled]):not([type="hidden"]), textarea:not([disabled])';
const FIELD = 'input, textarea, [contenteditable="true"], [role="combobox"]';

/**
 * The inside of a form dialog, for keyboard users: once the fields are there, focus moves to
 * the first one, and Enter in a one-line field submits (never in a text area, nor while an input
 * method composes or a select's list is open, where Enter picks an option).
 */
export function DialogBody({
  ready,
  onSubmit,
  children,
}: {
  /** The fields are rendered (after loading) and editable. */
  ready: boolean;
  onSubmit?: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ready) return;
    // After antd's own open animation has placed focus on the dialog. On a slow machine the
    // timer can fire after the user has already chosen a field and started typing: never take
    // the focus away from a field, or the keystrokes that follow land in another one.
    const timer = window.setTimeout(() => {
      const body = ref.current;
      const active = document.activeElement;
      if (!body || (active && active !== body && body.contains(active) && active.matches(FIELD))) return;
      body.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    }, 50);
    return () => window.clearTimeout(timer);
  }, [ready]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!onSubmit || event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    if (target.tagName !== 'INPUT' || target.closest('.ant-select, .ant-picker, .ant-cascader')) return;
    event.preventDefault();
    onSubmit();
  };

  return (
    <div ref={ref} onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}

import type { KeyboardEvent } from 'react';

/** Enter and Space on a `role="button"` element act as a click, as on a real button. */
export function activateOnKey(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
  event.currentTarget.click();
}

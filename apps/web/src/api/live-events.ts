import type { LiveEvent, LiveEventType } from '@mes/contracts';

/**
 * Calls `handler` for each live event of the given types that reaches this browser (docs/live.md).
 * Placeholder: the stream is being built this session.
 */
export function useLiveEvents(_types: readonly LiveEventType[], _handler: (event: LiveEvent) => void): void {}

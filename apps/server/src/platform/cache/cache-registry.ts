/**
 * Every in-process cache registers here, so `GET /oauth/clear-cache` can empty them all.
 * A cache is only ever a copy: what it holds can always be read again from the database.
 */
export class CacheRegistry {
  private readonly clearers = new Map<string, () => void | Promise<void>>();

  register(name: string, clear: () => void | Promise<void>): void {
    this.clearers.set(name, clear);
  }

  async clearAll(): Promise<void> {
    await Promise.all([...this.clearers.values()].map((clear) => clear()));
  }
}

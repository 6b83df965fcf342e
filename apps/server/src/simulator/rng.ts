/**
 * A small seeded random source (mulberry32), so a model run is reproducible in tests and two
 * simulated devices with different seeds do not move in step.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
}

export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return {
    next() {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

export const uniform = (rng: Rng, low: number, high: number) => low + (high - low) * rng.next();

export const chance = (rng: Rng, probability: number) => rng.next() < probability;

/** Standard normal (Box–Muller). */
export function normal(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng.next() * items.length)] as T;

export const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** A stable 32-bit seed from a text (a device code), so a device behaves the same on every run with one seed. */
export function seedOf(text: string, base = 0): number {
  let h = 2166136261 ^ base;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

import { describe, expect, it } from 'vitest';
import { hashSecret, newClientId, newSecret, secretMatches } from './device-credentials';

describe('device MQTT credentials', () => {
  it('issues client ids and full-entropy secrets that differ each time', () => {
    expect(newClientId()).toMatch(/^d_[0-9a-f]{16}$/);
    expect(newSecret()).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(Array.from({ length: 100 }, newSecret)).size).toBe(100);
  });

  it('matches a secret only against the hash of that secret', () => {
    const secret = newSecret();
    const stored = hashSecret(secret);
    expect(stored).not.toContain(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(newSecret(), stored)).toBe(false);
    expect(secretMatches(stored, stored)).toBe(false);
    // A device that never had a secret (empty hash) or a damaged hash matches nothing.
    expect(secretMatches('', '')).toBe(false);
    expect(secretMatches(secret, stored.slice(1))).toBe(false);
    expect(secretMatches(secret, stored.toUpperCase())).toBe(false);
  });
});

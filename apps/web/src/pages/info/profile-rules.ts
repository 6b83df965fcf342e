/** The spec's avatar limit: 500 KB. */
export const AVATAR_MAX_BYTES = 500 * 1024;

export type PhoneProblem = 'phoneEmpty' | 'phoneLength' | 'phoneFormat';
export type AvatarProblem = 'avatarType' | 'avatarSize';

/** Spec section 5, in its order: empty, then length, then "1 and ten digits". */
export function phoneProblem(value: string | undefined | null): PhoneProblem | undefined {
  const phone = value ?? '';
  if (phone === '') return 'phoneEmpty';
  if (phone.length !== 11) return 'phoneLength';
  if (!/^1\d{10}$/.test(phone)) return 'phoneFormat';
  return undefined;
}

/**
 * Checked before the upload starts, so a wrong file never leaves the browser. The type comes from
 * what the browser reports (its guess from the name); the server checks the bytes again.
 */
export function avatarProblem(file: { type: string; size: number; name: string }): AvatarProblem | undefined {
  const typeOk = file.type
    ? file.type === 'image/jpeg' || file.type === 'image/png'
    : /\.(jpe?g|png)$/i.test(file.name);
  if (!typeOk) return 'avatarType';
  if (file.size > AVATAR_MAX_BYTES) return 'avatarSize';
  return undefined;
}

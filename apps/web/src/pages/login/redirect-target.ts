/**
 * Where to go after sign-in: the page the guard sent the user away from (`?redirect=`), when it is
 * a path of this site; otherwise the desk. Anything else (`//host`, `https:`) is ignored, so the
 * parameter cannot send a freshly signed-in user to another site.
 */
export function redirectTarget(search: string): string {
  const target = new URLSearchParams(search).get('redirect') ?? '';
  return /^\/(?![/\\])/.test(target) && !target.startsWith('/login') ? target : '/wel/index';
}

/**
 * Third-party and QR sign-in: only the tab titles load with the app (the router needs them);
 * the screens' strings are added when their chunk loads (social-more.ts), keeping /login light.
 */
export const social = {
  qrConfirmTitle: '扫码确认',
  callbackTitle: '第三方登录',
};

/** The 注册账号 link of the sign-in page and its 账号注册 dialog. */
export function RegisterLink() {
  return null;
}

/**
 * antd's text inputs without the rest of its `Input` module: `import { Input } from 'antd'`
 * brings TextArea, Search and OTP along (about 10 KB gzip), which the sign-in page's 250 KB
 * first-load budget cannot carry. Screens that load later use `antd` directly.
 */
export { default as Input } from 'antd/es/input/Input';
export { default as Password } from 'antd/es/input/Password';

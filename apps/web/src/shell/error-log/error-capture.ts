/** Records uncaught errors and unhandled rejections into the local error log. */
export function installErrorCapture(): void {}

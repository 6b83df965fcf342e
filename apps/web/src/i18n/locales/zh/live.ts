/** Texts of live push: the connection state and the notification popover. */
export const live = {};

/** Texts of the warning screens: list, handle dialog, detail with its chart. */
export const warning = {};

/** Texts of the notice screens and the desk services. */
export const notice = {};

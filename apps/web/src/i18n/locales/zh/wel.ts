/** Texts of the welcome page and the wall-screen dashboard. */
export const wel = {};

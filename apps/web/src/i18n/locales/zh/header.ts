/** Strings of the header tools. */
export const header = {};

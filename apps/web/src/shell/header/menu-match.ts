/** The items whose label starts with `text`, ignoring case and surrounding spaces (spec section 2: prefix match). */
export function matchMenus<T extends { label: string }>(items: T[], text: string): T[] {
  const prefix = text.trim().toLowerCase();
  if (!prefix) return [];
  return items.filter((item) => item.label.toLowerCase().startsWith(prefix));
}

import { create } from 'zustand';

/** Whether the phone layout's menu drawer is open; the header's ☰ and the drawer share it. */
export const useMenuDrawer = create<{ open: boolean; setOpen(open: boolean): void }>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

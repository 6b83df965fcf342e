import { useEffect, useState } from 'react';

/** Screen-size class from the window width (spec section 2): ≥1200 → 3, ≥992 → 2, ≥768 → 1, else 0. */
export function screenSizeOf(width: number): 0 | 1 | 2 | 3 {
  if (width >= 1200) return 3;
  if (width >= 992) return 2;
  if (width >= 768) return 1;
  return 0;
}

export function useScreenSize(): 0 | 1 | 2 | 3 {
  const [size, setSize] = useState(() => screenSizeOf(window.innerWidth));
  useEffect(() => {
    const onResize = () => setSize(screenSizeOf(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}

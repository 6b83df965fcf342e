/** At most `size` holders at once; the next waits, first come first served, for one to give its slot back. */
export interface Slots {
  /** Resolves when a slot is free; call what it answers once to give the slot back. */
  take(): Promise<() => void>;
}

export function slots(size: number): Slots {
  let held = 0;
  const waiting: (() => void)[] = [];
  const giveBack = () => {
    const next = waiting.shift();
    // The slot passes straight to the next in line: `held` stays as it is.
    if (next) next();
    else held--;
  };
  const once = () => {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      giveBack();
    };
  };
  return {
    take() {
      if (held < size) {
        held++;
        return Promise.resolve(once());
      }
      return new Promise((resolve) => waiting.push(() => resolve(once())));
    },
  };
}

import { describe, expect, it } from 'vitest';
import { reconcileScreens, type KeptScreens } from './keep-alive-screens';

const HOME = '/wel/index';
const DICT = '/system/dict';
const POST = '/system/post';

/** Renders as KeepAliveOutlet does: reconciles until nothing changes. */
function render(prev: KeptScreens<string>, pathname: string, key: string, open: string[]): KeptScreens<string> {
  let kept = prev;
  for (let i = 0; i < 3; i++) {
    const next = reconcileScreens(kept, { pathname, key, element: `${pathname}@${key}`, openPaths: new Set(open) });
    if (!next) return kept;
    kept = next;
  }
  throw new Error('does not settle');
}

const shown = (kept: KeptScreens<string>) => kept.screens.map((s) => `${s.path}#${s.instance}`);

describe('kept-alive screens', () => {
  it('keeps a tab’s screen across switches and drops it when its tab closes', () => {
    let kept = render({ screens: [], key: '' }, HOME, 'k1', [HOME]);
    kept = render(kept, DICT, 'k2', [HOME]);
    kept = render(kept, DICT, 'k2', [HOME, DICT]); // the tab bar opened its tab
    kept = render(kept, HOME, 'k3', [HOME, DICT]);
    kept = render(kept, DICT, 'k4', [HOME, DICT]);
    expect(shown(kept)).toEqual([`${HOME}#k1`, `${DICT}#k2`]);
    kept = render(kept, DICT, 'k4', [HOME]); // closed; the navigation away has not landed
    expect(shown(kept)).toEqual([`${HOME}#k1`, `${DICT}#k2`]);
    kept = render(kept, HOME, 'k5', [HOME]);
    expect(shown(kept)).toEqual([`${HOME}#k1`]);
  });

  it('opens a closed tab’s screen afresh when it is visited again before the navigation away landed', () => {
    let kept = render({ screens: [], key: '' }, HOME, 'k1', [HOME]);
    kept = render(kept, POST, 'k2', [HOME, POST]);
    kept = render(kept, DICT, 'k3', [HOME, POST, DICT]);
    kept = render(kept, DICT, 'k3', [HOME, POST]); // 关闭: off to POST, whose code is still loading
    kept = render(kept, DICT, 'k4', [HOME, POST]); // the menu click on DICT landed first
    expect(shown(kept)).toEqual([`${HOME}#k1`, `${POST}#k2`, `${DICT}#k4`]);
    kept = render(kept, DICT, 'k4', [HOME, POST, DICT]); // and its tab is back
    kept = render(kept, POST, 'k5', [HOME, POST, DICT]);
    expect(shown(kept)).toEqual([`${HOME}#k1`, `${POST}#k2`, `${DICT}#k4`]);
  });

  it('never renews a screen without a tab when its own URL changes, and drops it once left', () => {
    let kept = render({ screens: [], key: '' }, '/qr-confirm', 'k1', [HOME]);
    kept = render(kept, '/qr-confirm', 'k2', [HOME]);
    expect(shown(kept)).toEqual(['/qr-confirm#k1']);
    kept = render(kept, HOME, 'k3', [HOME]);
    expect(shown(kept)).toEqual([`${HOME}#k3`]);
  });

  it('changes nothing when nothing changed', () => {
    const kept = render({ screens: [], key: '' }, HOME, 'k1', [HOME]);
    expect(reconcileScreens(kept, { pathname: HOME, key: 'k1', element: 'x', openPaths: new Set([HOME]) })).toBe(
      undefined,
    );
  });
});

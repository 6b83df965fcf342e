import { useEffect, useRef, type CSSProperties } from 'react';
import { init, type ChartOption, type EChartsType } from './echarts-core';

export interface EChartProps {
  option: ChartOption;
  /** The box the chart fills; give it a height (the chart takes the box's size). */
  style?: CSSProperties;
  className?: string;
  /**
   * Components replaced rather than merged on a new option (`['series']` when series come and
   * go); the rest merges, so an open tooltip survives a refresh of the data.
   */
  replaceMerge?: string[];
  'data-testid'?: string;
}

/**
 * One ECharts instance in a div: created on mount, given each new option, resized whenever its
 * box changes size (a window resize, the side menu folding, a phone turned) and disposed on
 * unmount, so a closed tab leaves no canvas or listener behind.
 */
export function EChart({ option, style, className, replaceMerge, 'data-testid': testId }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    // The box, not the window: the content area changes width when the side menu folds.
    const observer = new ResizeObserver(() => {
      if (!instance.isDisposed()) instance.resize();
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  // Compared by content: callers pass the list inline.
  const replace = replaceMerge?.join(',');
  useEffect(() => {
    chart.current?.setOption(option, { replaceMerge: replace ? replace.split(',') : undefined, lazyUpdate: true });
  }, [option, replace]);

  return <div ref={box} className={className} style={{ width: '100%', ...style }} data-testid={testId} />;
}

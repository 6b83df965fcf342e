import './iot.css';

export interface LimitLegendItem {
  key: string;
  text: string;
  colour: string;
}

/**
 * A chart's limits and bands as text under it, each with its line's colour: readable where a label
 * on the canvas is cut short (a phone) and by a screen reader, which sees no canvas. Nothing when
 * there are none.
 */
export function LimitLegend({ items, testId }: { items: readonly LimitLegendItem[]; testId: string }) {
  if (!items.length) return null;
  return (
    <div className="mes-iot-chart-limits" data-testid={testId}>
      {items.map((item) => (
        <span key={item.key} className="mes-iot-chart-limit">
          <i style={{ background: item.colour }} />
          {item.text}
        </span>
      ))}
    </div>
  );
}

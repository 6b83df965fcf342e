import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type MarkAreaComponentOption,
  type MarkLineComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { use as registerParts, type ComposeOption } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * The parts of ECharts the console draws with, registered once. Importing `echarts` whole would
 * add every chart type and component to the bundle (about 1 MB); this set is a fraction of it.
 * A chart needing another type adds it here and to {@link ChartOption}.
 */
registerParts([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  // A threshold as a line, a warning's span as a band (the warning page).
  MarkLineComponent,
  MarkAreaComponent,
  CanvasRenderer,
]);

/** The options a chart of the console may use: only what is registered above type-checks. */
export type ChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | MarkLineComponentOption
  | MarkAreaComponentOption
>;

export { init, type EChartsType } from 'echarts/core';

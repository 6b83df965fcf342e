import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  TooltipComponent,
  type GridComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { use as registerParts, type ComposeOption } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * The parts of ECharts the console draws with, registered once. Importing `echarts` whole would
 * add every chart type and component to the bundle (about 1 MB); this set is a fraction of it.
 * A chart needing another type adds it here and to {@link ChartOption}.
 */
registerParts([LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

/** The options a chart of the console may use: only what is registered above type-checks. */
export type ChartOption = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption>;

export { init, type EChartsType } from 'echarts/core';

/**
 * ECharts with only what the market chart draws (candles, lines, bars, grid, tooltip, zoom, marks),
 * loaded as its own chunk after the trade or lever page so the book and forms render first.
 */
import { BarChart, CandlestickChart, LineChart } from 'echarts/charts';
import {
  AxisPointerComponent,
  DataZoomInsideComponent,
  GridComponent,
  MarkPointComponent,
  TooltipComponent,
} from 'echarts/components';
import { init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([
  CandlestickChart,
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  AxisPointerComponent,
  DataZoomInsideComponent,
  MarkPointComponent,
  CanvasRenderer,
]);

export { init };

/** ECharts with only what a progress ring draws (a pie on canvas): a small share of the chart bundle. */
import { PieChart } from 'echarts/charts';
import { init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([PieChart, CanvasRenderer]);

export { init };

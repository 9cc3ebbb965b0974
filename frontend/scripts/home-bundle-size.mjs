// Reports the gzip size of the JavaScript the home page loads (the entry chunk and the chunks
// index.html preloads; other pages are lazy chunks) and fails above the budget or when ECharts
// or the QR code library is among them. Run after `npm run build`: `npm run size:home`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);

let total = 0;
let echarts = false;
let qrcode = false;
for (const file of files) {
  const code = readFileSync(join(dist, file));
  const gz = gzipSync(code, { level: 9 }).length;
  total += gz;
  if (/echarts/i.test(file) || code.includes('ECharts')) echarts = true;
  // qrcode-generator's own error text: the deposit panel's chunk only.
  if (code.includes('bad maskPattern:')) qrcode = true;
  console.log(`${(gz / 1024).toFixed(1).padStart(8)} KB  ${file}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(8)} KB  total gzip JS on the home page (budget ${BUDGET_KB} KB)`);
if (echarts) {
  console.error('ECharts is loaded by the home page: it must stay in the chart pages\' chunks.');
  process.exit(1);
}
if (qrcode) {
  console.error('The QR code library is loaded by the home page: it must stay in the deposit panel\'s chunk.');
  process.exit(1);
}
if (total > BUDGET_KB * 1024) process.exit(1);

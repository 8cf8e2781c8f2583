import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const chrome = await chromeLauncher.launch({
  chromePath: '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
});
const r = await lighthouse(process.argv[2], {
  port: chrome.port,
  output: 'json',
  logLevel: 'error',
  onlyCategories: ['performance'],
});
const a = r.lhr.audits;
const m = a.metrics.details.items[0];
console.log(
  'perf',
  r.lhr.categories.performance.score,
  'LCP',
  a['largest-contentful-paint'].numericValue,
  'FCP',
  a['first-contentful-paint'].numericValue,
  'obsLCP',
  m.observedLargestContentfulPaint,
  'obsFCP',
  m.observedFirstContentfulPaint,
  'obsLoad',
  m.observedLoad,
  'obsDCL',
  m.observedDomContentLoaded,
);
const t0 = m.observedNavigationStartTs;
for (const req of a['network-requests'].details.items)
  console.log(
    Math.round(req.networkRequestTime),
    Math.round(req.networkEndTime),
    req.priority,
    req.resourceType,
    req.url.replace(/^https?:\/\/[^/]+/, ''),
  );
await chrome.kill();

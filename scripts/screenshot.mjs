// Screenshot of a page in Debian's Chromium: node scripts/screenshot.mjs URL OUT.png [width] [full]
import { chromium } from '@playwright/test';

const [, , url, out, width = '1280', full = ''] = process.argv;
if (!url || !out) {
  console.error('usage: node scripts/screenshot.mjs URL OUT.png [width] [full]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
page.on('pageerror', (e) => console.log('pageerror', e.message));
await page.goto(url, { waitUntil: 'networkidle' });
await page.screenshot({ path: out, fullPage: full === 'full' });
await browser.close();

// The playground's screenshots in www/README.md, at a phone's, a tablet's and a laptop's width
// (390×844, 768×1024, 1440×900), of the default page as it first shows. Run after
// `node www/build.mjs`:
//
//   node scripts/www-screenshots.mjs      writes www/screenshots/playground-<w>x<h>.png

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { root, startPlayground } from '../tests/www/browser.mjs';

const SIZES = [
  [390, 844],
  [768, 1024],
  [1440, 900],
];
const out = join(root, 'www', 'screenshots');
mkdirSync(out, { recursive: true });
const playground = await startPlayground();
try {
  for (const [width, height] of SIZES) {
    const page = await playground.open('');
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    const path = join(out, `playground-${width}x${height}.png`);
    await page.screenshot({ path });
    console.log(`wrote ${path}`);
    await page.close();
  }
} finally {
  await playground.close();
}

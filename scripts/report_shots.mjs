// Pictures of HTML reports, for looking at the page while changing report/page/:
// each history is checked with --html, loaded in Debian's headless Chromium (driven by
// the browser test's playwright-core, tests/browser/node_modules) and shot twice: the
// whole page, and the timeline with the hover card of the failing op (or of an op in
// the middle of the order).
//
//   node scripts/report_shots.mjs --ariadne build/ariadne --out-dir DIR HISTORY MODEL [HISTORY MODEL ...]
//
// writes DIR/NAME.png and DIR/NAME-hover.png, NAME being the history's file name
// without its extension. Needs `npm ci --prefix tests/browser` (make deps).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// playwright-core is installed for the browser test, not for this folder.
const require = createRequire(join(here, '../tests/browser/package.json'));
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
function option(name) {
  const at = args.indexOf('--' + name);
  if (at < 0 || at + 1 >= args.length) {
    console.error('usage: node scripts/report_shots.mjs --ariadne PATH --out-dir DIR HISTORY MODEL [HISTORY MODEL ...]');
    process.exit(2);
  }
  return resolve(args.splice(at, 2)[1]);
}
const ariadne = option('ariadne');
const outDir = option('out-dir');
if (args.length === 0 || args.length % 2) option('histories');
mkdirSync(outDir, { recursive: true });

const userDataDir = mkdtempSync(join(tmpdir(), 'ariadne-shots-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.ARIADNE_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  viewport: { width: 1440, height: 1000 },
});
try {
  for (let k = 0; k < args.length; k += 2) {
    const history = resolve(args[k]), model = args[k + 1];
    const name = basename(history, extname(history));
    const html = join(outDir, name + '.html');
    const checked = spawnSync(ariadne, ['check', history, '--model', model, '--json', '--html', html], { encoding: 'utf8' });
    if (checked.status !== 0 && checked.status !== 1) {
      console.error(`ariadne check ${history} exited ${checked.status}: ${checked.stderr}`);
      process.exitCode = 1;
      continue;
    }
    const json = JSON.parse(checked.stdout);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`${name}: page error: ${error.message}`));
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    await page.screenshot({ path: join(outDir, name + '.png'), fullPage: true });
    const target = json.failing_op ?? (json.linearization ? json.linearization[json.linearization.length >> 1] : null);
    const spot = target === null ? null : await page.evaluate((id) => window.ariadneReport.focus(id), target);
    if (spot) {
      await page.mouse.move(spot.x, spot.y);
      await page.locator('#tooltip').waitFor({ state: 'visible' });
      await page.screenshot({ path: join(outDir, name + '-hover.png') });
    }
    console.log(`${name}: ${json.verdict}, ${json.operations} ops -> ${join(outDir, name)}.png`);
    await page.close();
  }
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}

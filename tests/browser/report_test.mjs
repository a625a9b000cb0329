// Browser test of `ariadne check --html`: writes four reports and loads each in
// Debian's headless Chromium, driven by playwright-core (never a downloaded browser).
//
//   node report_test.mjs --ariadne build/ariadne --source-dir . --out-dir build/tests/browser
//
// (a) a violation (worked-example-abcd): the page highlights exactly the core that
//     `--json` reports, draws its real-time facts and shows the explanation, says the
//     violation in one sentence on top (`--json`'s why, when the check says one), gives
//     every core op its part, and an op id in the sentence or the explanation, clicked,
//     brings that op into view with its card; hovering an op of the linearizable prefix
//     shows the states around it, and any other op says it is not in the prefix;
// (b) a linearizable history (lecture-example-1): the page draws the order `--json`
//     reports, and hovering an op shows its place in it and the states around it;
// (c) a generated kv violation over 10 keys and 50 processes: the key list opens on the
//     failing key, which alone is drawn, every lane is labelled, and "All keys" and
//     another key switch the timeline;
// (d) a generated crash storm of just over 100,000 ops: the file stays under 20 MB, the page is
//     drawn within 5 s of navigation start, zoomed out it summarises lanes, and hover
//     still works once zoomed in.
// Every page must load without page errors, console errors or any network request.
// Screenshots go to the out dir. Exit status: 0 passed, 1 failed, 77 skipped (ctest's
// SKIP_RETURN_CODE), which happens only when Chromium or playwright-core is missing
// and the npm registry cannot be reached to install them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SKIP = 77;
const MAX_BYTES = 20 * 1024 * 1024;
const MAX_READY_MS = 5000;

function option(name, fallback) {
  const at = process.argv.indexOf('--' + name);
  if (at >= 0 && at + 1 < process.argv.length) return process.argv[at + 1];
  if (fallback !== undefined) return fallback;
  console.error(`usage: node report_test.mjs --ariadne PATH --source-dir DIR --out-dir DIR (missing --${name})`);
  process.exit(2);
}
const ariadne = resolve(option('ariadne'));
const sourceDir = resolve(option('source-dir'));
const outDir = resolve(option('out-dir'));
const chromiumPath = process.env.ARIADNE_CHROMIUM || '/usr/bin/chromium';
mkdirSync(outDir, { recursive: true });

// ---- Preconditions: a clear failure, or a skip when nothing can be installed ----
function registryReachable() {
  const ping = spawnSync('npm', ['ping', '--fetch-timeout=5000', '--fetch-retries=0'], { encoding: 'utf8', timeout: 20000 });
  return ping.status === 0;
}
let playwright = null;
try {
  playwright = await import('playwright-core');
} catch {
  playwright = null;
}
const missing = [];
if (!existsSync(chromiumPath)) missing.push(`Chromium (${chromiumPath}; Debian package chromium)`);
if (!playwright) missing.push(`playwright-core (${join(here, 'node_modules')}; npm ci --prefix tests/browser)`);
if (missing.length) {
  const how = 'run `make deps` (scripts/install-deps.sh), which installs both';
  if (!registryReachable()) {
    console.log(`SKIPPED: missing ${missing.join(' and ')}, and the npm registry cannot be reached to install ${missing.length > 1 ? 'them' : 'it'}; ${how}.`);
    process.exit(SKIP);
  }
  console.error(`FAILED: missing ${missing.join(' and ')}; ${how}.`);
  process.exit(1);
}

// ---- Helpers ----
let passed = 0, failed = 0;
function check(condition, what, detail) {
  if (condition) {
    passed++;
    console.log(`  ok    ${what}`);
  } else {
    failed++;
    console.log(`  FAIL  ${what}${detail === undefined ? '' : ': ' + detail}`);
  }
}
const sameIds = (a, b) => JSON.stringify([...a].sort((x, y) => x - y)) === JSON.stringify([...b].sort((x, y) => x - y));

function run(args, expectedStatus) {
  const started = process.hrtime.bigint();
  const child = spawnSync(ariadne, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.error) throw child.error;
  if (child.status !== expectedStatus) {
    throw new Error(`ariadne ${args.join(' ')} exited ${child.status}, expected ${expectedStatus}\n${child.stderr}`);
  }
  return { stdout: child.stdout, ms };
}

// A refuted report's top: the sentence, the roles, and op ids as links.
async function checkViolationTop(page, json) {
  const top = await page.evaluate(() => {
    const why = document.getElementById('why');
    return {
      hidden: why.hidden, text: why.textContent, given: why.dataset.given,
      firstOfHeader: why.previousElementSibling && why.previousElementSibling.classList.contains('title-row'),
      roles: window.ariadneReport.roles, legend: document.getElementById('legend').textContent,
    };
  });
  check(!top.hidden && top.text.trim().length > 0 && top.firstOfHeader, 'the violation is said in one sentence on top',
    JSON.stringify(top.text));
  if (json.why) {
    check(top.text.trim() === json.why.trim() && top.given === '1', 'the sentence is --json\'s why',
      `page ${JSON.stringify(top.text)}, --json ${JSON.stringify(json.why)}`);
  } else {
    check(top.given === '0', 'without --json\'s why, the page says its own sentence (made from the failing op)', top.given);
  }
  const named = [...json.core, ...(json.failing_op === undefined ? [] : [json.failing_op])];
  check(named.every((id) => typeof top.roles[id] === 'string'), 'every core op and the failing op has a part',
    JSON.stringify(top.roles));
  if (json.failing_op !== undefined) check(top.roles[json.failing_op] === 'refused', 'the failing op is the refused one');
  for (const named of json.why_ops || []) {
    check(top.roles[named.op] === named.role, `op ${named.op} plays the part --json's why_ops gives it (${named.role})`,
      top.roles[named.op]);
  }
  check(top.legend.includes('refused'), 'the legend names the parts', top.legend);

  // Op ids in the sentence and in the explanation are links that bring the op into view.
  for (const where of ['why', 'explanation']) {
    if (where === 'explanation') await page.evaluate(() => { document.getElementById('explanation-box').open = true; });
    const links = page.locator(`#${where} a.oplink`);
    const count = await links.count();
    check(count > 0, `the ${where === 'why' ? 'sentence' : 'explanation'} links its op ids`);
    if (!count) continue;
    const link = links.nth(count - 1);
    const id = Number(await link.getAttribute('data-op'));
    check((await link.textContent()).includes(String(id)), `the link to op ${id} reads as its id`);
    await page.evaluate(() => window.ariadneReport.fit());
    await link.click();
    const after = await page.evaluate(() => ({
      pinned: window.ariadneReport.pinnedId(), card: document.getElementById('tooltip').dataset.op ?? null,
      hidden: document.getElementById('tooltip').hidden,
    }));
    const spot = await page.evaluate((op) => window.ariadneReport.locate(op), id);
    check(after.pinned === id && after.card === String(id) && !after.hidden && spot !== null,
      `clicking op ${id} in the ${where === 'why' ? 'sentence' : 'explanation'} focuses it and opens its card`,
      JSON.stringify({ ...after, spot }));
    await page.keyboard.press('Escape');
  }
}

// Hovering an op of the linearizable prefix shows the model states around it.
async function checkPrefixStates(page) {
  const inPrefix = await page.evaluate(() => window.ariadneReport.orderIds);
  check(inPrefix.length > 0, '--html finds the linearizable prefix');
  if (!inPrefix.length) return;
  const target = inPrefix[inPrefix.length - 1];
  const spot = await page.evaluate((id) => window.ariadneReport.focus(id), target);
  if (!spot) { check(false, `op ${target} of the prefix can be brought into view`); return; }
  await page.mouse.move(spot.x, spot.y);
  const tooltip = page.locator('#tooltip');
  await tooltip.waitFor({ state: 'visible', timeout: 5000 });
  const text = await tooltip.textContent();
  check((await tooltip.getAttribute('data-op')) === String(target) && /state before[\s\S]*state after/.test(text),
    `hovering op ${target} of the prefix shows the states before and after it`, text);
  await page.mouse.move(1, 1);
}

// A keyed history: the key list opens on the failing key, which alone is drawn.
async function checkKeyList(page, json) {
  const keys = await page.evaluate(() => Array.from(document.querySelectorAll('#keys button.key'), (b) => ({
    key: b.dataset.key, pressed: b.getAttribute('aria-pressed') === 'true', text: b.textContent,
  })));
  check(keys.length > 2 && keys[0].key === '', 'the key list offers all keys and each key', JSON.stringify(keys));
  check(keys.length > 1 && keys[1].key === json.failing_partition && keys[1].pressed,
    'the failing key comes first and is selected', JSON.stringify(keys.slice(0, 3)));
  check(keys[1] && keys[1].text.includes('\u2717'), 'the failing key is marked not linearizable', keys[1] && keys[1].text);
  const shown = async () => page.evaluate(() => ({
    key: window.ariadneReport.selectedKey(), count: document.getElementById('timeline-count').textContent,
    frame: { ...window.ariadneReport.frame },
  }));
  const first = await shown();
  check(first.key === json.failing_partition && first.count.includes('key ' + json.failing_partition),
    'the timeline shows the failing key', JSON.stringify(first));
  const failingKeyOps = await page.evaluate((key) => window.ariadneReport.keyOpIds(key), json.failing_partition);
  check(json.core.every((id) => failingKeyOps.includes(id)), 'the core lies in the key shown');
  await page.locator('#keys button.key').first().click();
  await page.waitForFunction(() => window.ariadneReport.selectedKey() === null);
  const all = await shown();
  check(all.count.startsWith(json.operations.toLocaleString('en-US') + ' ops'), '"All keys" shows every op', all.count);
  const lanes = await page.evaluate(() => window.ariadneReport.lanes);
  check(lanes === 50 && all.frame.labels === lanes && all.frame.lanes === lanes,
    'all 50 lanes are drawn at once and each is labelled', JSON.stringify({ lanes, frame: all.frame }));
  await page.locator('#keys button.key').nth(2).click();
  const other = await shown();
  check(other.key === keys[2].key && other.key !== json.failing_partition, 'another key can be shown alone',
    JSON.stringify(other));
  // Focusing an op of a key not shown switches to that key.
  const spot = await page.evaluate((id) => window.ariadneReport.focus(id), json.failing_op);
  check(spot !== null && (await shown()).key === json.failing_partition, 'focusing an op shows its key');
}

// ---- The reports ----
// 125,000 generated ops leave a little over 100,000 once the failed cas ops are dropped.
const storm = join(outDir, 'crash-storm-125000.edn');
const generated = run(['generate', 'crash-storm', '--ops', '125000', '--crashed-writes', '0', '--clients', '5',
  '--seed', '1', '-o', storm], 0);
console.log(`generated ${storm} in ${generated.ms.toFixed(0)} ms`);
// Seed 2 fails on key "k8", not the first key in order: the list must put it first.
// Without crashes the 50 clients stay 50 processes (a crashed client comes back as a
// new process, as in Jepsen).
const keyed = join(outDir, 'kv-50-processes.edn');
run(['generate', 'atomic', '--model', 'kv', '--ops', '2000', '--processes', '50', '--keys', '10', '--crash-rate', '0',
  '--violation', '--seed', '2', '-o', keyed], 0);

const cases = [
  {
    name: 'violation', file: join(sourceDir, 'corpus/classic/worked-example-abcd.edn'),
    args: ['--model', 'register', '--init', '0'], status: 1,
  },
  {
    name: 'linearizable', file: join(sourceDir, 'corpus/classic/lecture-example-1.edn'),
    args: ['--model', 'register'], status: 0,
  },
  { name: 'kv-keys', file: keyed, args: ['--model', 'kv'], status: 1, keyed: true },
  // JIT decides this storm in well under a second; WGL takes several and 1.4 GB.
  { name: 'storm-100k', file: storm, args: ['--model', 'cas-register(0)', '--engine', 'jit'], status: 0, large: true },
];

const userDataDir = mkdtempSync(join(tmpdir(), 'ariadne-chromium-'));
const context = await playwright.chromium.launchPersistentContext(userDataDir, {
  executablePath: chromiumPath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1440, height: 1000 },
});
try {
  for (const c of cases) {
    console.log(`\n[${c.name}] ${c.file}`);
    const html = join(outDir, `report-${c.name}.html`);
    const checked = run(['check', c.file, ...c.args, '--json', '--html', html], c.status);
    const json = JSON.parse(checked.stdout);
    check(!('prefix_linearization' in json), '--html computes the prefix for the page, and --json does not print it');
    const bytes = statSync(html).size;
    console.log(`  check + report: ${checked.ms.toFixed(0)} ms (engine ${json.engine}, ${json.operations} ops, ` +
      `verdict ${json.verdict} in ${json.elapsed_ms} ms); HTML ${(bytes / 1e6).toFixed(2)} MB`);
    if (c.large) {
      check(json.operations >= 100000, 'the large history has at least 100,000 operations', `${json.operations}`);
      check(bytes < MAX_BYTES, `the report is under 20 MB`, `${bytes} bytes`);
    }

    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console error: ${message.text()}`); });
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      problems.push(`network request: ${url}`);
      return route.abort();
    });
    const started = Date.now();
    await page.goto(pathToFileURL(html).href, { waitUntil: 'load', timeout: 60000 });
    await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: 60000 });
    const wallMs = Date.now() - started;
    const report = await page.evaluate(() => ({
      readyMs: window.ariadneReport.readyMs, parsedMs: window.ariadneReport.parsedMs,
      highlighted: window.ariadneReport.highlighted, coreIds: window.ariadneReport.coreIds,
      orderIds: window.ariadneReport.orderIds, facts: window.ariadneReport.facts,
      frame: { ...window.ariadneReport.frame }, operations: window.ariadneReport.operations,
      verdict: document.getElementById('verdict').textContent,
      explanation: document.getElementById('explanation').textContent,
    }));
    console.log(`  ready ${report.readyMs.toFixed(0)} ms after navigation start (data parsed at ` +
      `${report.parsedMs.toFixed(0)} ms; ${wallMs} ms from goto to ready); frame ${JSON.stringify(report.frame)}`);
    check(report.operations === json.operations, 'the page shows every op', `${report.operations} vs ${json.operations}`);
    check(sameIds(report.highlighted, json.core || []), 'the highlighted ops are the core of --json',
      `page ${JSON.stringify(report.highlighted)}, --json ${JSON.stringify(json.core)}`);
    check(sameIds(report.coreIds, json.core || []), 'the page\'s core is the core of --json');
    await page.screenshot({ path: join(outDir, `report-${c.name}.png`), fullPage: true });

    if (json.verdict === 'not-linearizable') {
      check(report.highlighted.length > 0, 'a violation highlights its core');
      check(report.frame.arrows > 0, 'real-time facts are drawn as arrows', JSON.stringify(report.frame));
      check(report.verdict === 'Not linearizable', 'the header says not linearizable', report.verdict);
      check(report.explanation.trim() === json.explanation.trim(), 'the whole explanation is there');
      const coreRows = await page.$$eval('#core-table tbody tr', (rows) => rows.map((r) => Number(r.dataset.op)));
      check(sameIds(coreRows, json.core), 'the core table lists the core');
      await checkViolationTop(page, json);
    } else {
      check(JSON.stringify(report.orderIds) === JSON.stringify(json.linearization), 'the drawn order is the linearization');
      check(report.verdict === 'Linearizable', 'the header says linearizable', report.verdict);
    }
    check(report.frame.lanes > 0 && report.frame.labels === report.frame.lanes, 'every lane drawn is labelled',
      JSON.stringify(report.frame));
    if (c.keyed) await checkKeyList(page, json);
    if (c.large) {
      check(report.readyMs < MAX_READY_MS, 'the page is drawn within 5 s of navigation start', `${report.readyMs} ms`);
      check(report.frame.summaryLanes > 0, 'zoomed out, lanes are summarised instead of drawn op by op',
        JSON.stringify(report.frame));
    }

    // Hover: zoom to an op through the page's own hook, move the mouse onto its bar.
    const target = json.failing_op ?? (json.linearization ? json.linearization[Math.floor(json.linearization.length / 2)]
      : json.core[0]);
    const spot = await page.evaluate((id) => window.ariadneReport.focus(id), target);
    check(spot !== null, `op ${target} can be brought into view`);
    if (spot) {
      await page.mouse.move(spot.x, spot.y);
      const tooltip = page.locator('#tooltip');
      let shown = true;
      try {
        await tooltip.waitFor({ state: 'visible', timeout: 5000 });
      } catch {
        shown = false;
      }
      check(shown, `hovering op ${target} shows its card`);
      if (shown) {
        const text = await tooltip.textContent();
        check((await tooltip.getAttribute('data-op')) === String(target) && text.includes(`op ${target}`),
          'the card is about that op', text);
        if (json.verdict === 'linearizable') {
          check(text.includes('state before') && text.includes('state after') && /#[\d,]+ of [\d,]+/.test(text),
            'the card shows the op\'s place in the order and the states around it', text);
        } else {
          check(text.includes('failing op') && text.includes('core'), 'the card marks the failing core op', text);
          check(text.includes('part') && text.includes('refused'), 'the card names the failing op\'s part in words', text);
          check(/state before[\s\S]*state after/.test(text) || text.includes('not in the linearizable prefix'),
            'the card shows the states around the op, or says it is not in the linearizable prefix', text);
        }
      }
      await page.screenshot({ path: join(outDir, `report-${c.name}-hover.png`) });
    }
    if (json.verdict === 'not-linearizable') await checkPrefixStates(page);
    check(problems.length === 0, 'no page error, console error or network request', problems.join('; '));
    await page.close();
  }
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}

console.log(`\nScreenshots: ${outDir}/report-*.png`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

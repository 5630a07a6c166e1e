// A reader's browser on a running game's page, for tests/tests/web.rs: it opens the page
// (argv[2]) at a phone's size in Debian's chromium, says `ready`, then for each line
// `expect TEXT` on stdin waits (at most 3 s) for the move list to show TEXT with nobody
// touching the page, and says `shown MS` (or `missing TEXT`). At the end of its input it
// takes a screenshot (argv[3]) and closes.
const { chromium } = require('playwright-core');
const readline = require('readline');

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(process.argv[2]);
  await page.waitForSelector('main');
  console.log('ready');
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const text = line.replace(/^expect /, '');
    const t0 = Date.now();
    try {
      await page.waitForFunction(
        (t) => { const l = document.querySelector('ol.moves'); return l && l.innerText.includes(t); },
        text, { timeout: 3000 });
      console.log('shown ' + (Date.now() - t0));
    } catch (e) {
      console.log('missing ' + text);
    }
  }
  await page.screenshot({ path: process.argv[3], fullPage: true });
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });

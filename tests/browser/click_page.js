// A player's browser on the board they click (`/app/g/<game>`), for tests/tests/web.rs: it
// opens argv[2] at a phone's size in Debian's chromium as the Telegram Mini App would, with
// `Telegram.WebApp.initData` argv[3] (and the start parameter argv[5], as a
// `t.me/<bot>/<app>?startapp=` link gives it), says `ready PLY`, then carries out a line at
// a time:
//   click SQ      click square SQ
//   key KEY       press KEY (ArrowUp, Enter, Escape…)
//   wait-ply N    wait (at most 3 s) until the page shows the position after N plies
//   picked        say `picked SQ` or `picked none`
//   said          say `said TEXT` (the server's refusal, if any)
// and at the end of its input takes a screenshot (argv[4]) and closes.
const { chromium } = require('playwright-core');
const readline = require('readline');

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  // Telegram's own script is not reached from here: the page gets what it would give.
  await context.route('https://telegram.org/**', (r) =>
    r.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
  await context.addInitScript(([init, start]) => {
    window.Telegram = { WebApp: { initData: init, initDataUnsafe: { start_param: start }, ready() {} } };
  }, [process.argv[3], process.argv[5] || '']);
  const page = await context.newPage();
  await page.goto(process.argv[2]);
  await page.waitForSelector('#board[data-ready="1"]');
  console.log('ready ' + await page.getAttribute('#board', 'data-ply'));
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const [what, arg] = line.split(' ');
    if (what === 'click') {
      await page.click('[data-sq="' + arg + '"]');
    } else if (what === 'key') {
      await page.keyboard.press(arg);
    } else if (what === 'wait-ply') {
      try {
        await page.waitForSelector('#board[data-ply="' + arg + '"][data-ready="1"]', { timeout: 3000 });
        console.log('ply ' + arg);
      } catch (e) {
        console.log('timeout at ' + await page.getAttribute('#board', 'data-ply'));
      }
    } else if (what === 'picked') {
      const p = await page.$('#board .picked');
      console.log('picked ' + (p ? await p.getAttribute('data-sq') : 'none'));
    } else if (what === 'said') {
      await page.waitForTimeout(300);
      console.log('said ' + await page.textContent('#said'));
    }
  }
  await page.screenshot({ path: process.argv[4], fullPage: true });
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });

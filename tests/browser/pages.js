// Several people's browsers at once, for tests/tests/*.rs: each line of input is
// `NAME VERB ARGS…` and is answered with exactly one line. NAME is a person; each has a
// browser context of their own (their own cookies), made by `open`.
//   open URL [W H]   a new context (a phone's 390×844 unless told), URL opened; says the
//                    path it ended on (after redirects)
//   tg-open URL INIT [START [W H]]
//                    as `open`, inside the Telegram Mini App: `Telegram.WebApp.initData`
//                    is INIT, its start parameter START (as a `startapp` link gives it;
//                    `-` for none; Telegram's own script is not reached from here)
//   open-static URL  as `open`, with script off (the public pages need none)
//   discord-open URL CODE
//                    as `open`, inside a Discord Activity: URL in a frame of a page on
//                    https://discord.com that speaks the Discord client's side of the
//                    Embedded App SDK's postMessage protocol (the handshake answered by
//                    READY, AUTHORIZE by the code CODE, as the user's consent gives it);
//                    NAME's verbs then act in the frame; says the frame's path once its
//                    board is ready
//   scroll-width     how wide the page is in CSS pixels (wider than the screen: it scrolls)
//   get URL          GET URL with NAME's cookies (no redirect followed); says its status
//   click SQ         click square SQ of the board
//   key KEY          press KEY
//   wait-ply N       wait (3 s at most) for the board after N plies, ready; `ply N` or
//                    `timeout at X`
//   wait SELECTOR    wait (3 s at most) for SELECTOR in the page (shown or not); `ok`
//                    or `timeout`
//   text SELECTOR    its text, or `none`
//   wait-text SELECTOR TEXT
//                    wait (3 s at most) until SELECTOR's text has TEXT, nobody touching
//                    the page; `shown MS` (how long it took) or `missing`
//   attr SELECTOR A  its attribute A, or `none`
//   picked           the square of the picked piece, or `none`
//   targets          the squares marked as its destinations, `|` between
//   count SELECTOR   how many elements SELECTOR finds
//   width SELECTOR   the first one's width in CSS pixels
//   tops SELECTOR    where each one's top edge is on the page, in CSS pixels, `|` between
//   acts             the labels of the page's action buttons, `|` between
//   act LABEL        click the action button labelled LABEL (the rest of the line)
//   double-act LABEL as `act`, a double click (two taps at once)
//   post WHAT JSON   POST JSON to /api/g/<the board's game>/WHAT from the page, as its
//                    script would (its cookies); says `STATUS BODY`
//   shot PATH        a screenshot of the whole page
//   lose-events      from now on NAME's browser gets no server-sent events (a connection
//                    that dropped them), its page loaded again: it falls behind the game
// Telegram's script is answered empty: these pages are tried outside Telegram.
const { chromium } = require('playwright-core');
const readline = require('readline');

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // The Activity's frame: a page on https://discord.com frames the bot's pages on
  // 127.0.0.1, which Chromium's local-network checks refuse (in Discord the frame is on
  // discordsays.com, a public proxy, so they do not arise): a browser of its own, made on
  // first use, with those checks off.
  let framing = null;
  const framingBrowser = async () => framing || (framing = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessForNavigations,'
        + 'PrivateNetworkAccessSendPreflights,BlockInsecurePrivateNetworkRequests'],
  }));
  const pages = {};
  const lines = readline.createInterface({ input: process.stdin });
  const short = { timeout: 3000 };
  for await (const line of lines) {
    const words = line.split(' ');
    const [who, what] = words;
    const rest = words.slice(2);
    const page = pages[who];
    let answer = 'ok';
    try {
      if (what === 'open' || what === 'tg-open' || what === 'open-static') {
        const tg = what === 'tg-open';
        const [w, h] = tg ? [Number(rest[3] || 390), Number(rest[4] || 844)]
          : [Number(rest[1] || 390), Number(rest[2] || 844)];
        const context = await browser.newContext({
          viewport: { width: w, height: h }, javaScriptEnabled: what !== 'open-static',
        });
        await context.route('https://telegram.org/**', (r) =>
          r.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
        if (tg) {
          await context.addInitScript(([init, start]) => {
            window.Telegram = {
              WebApp: { initData: init, initDataUnsafe: { start_param: start }, ready() {} },
            };
          }, [rest[1], rest[2] && rest[2] !== '-' ? rest[2] : '']);
        }
        const p = await context.newPage();
        pages[who] = p;
        await p.goto(rest[0]);
        if (tg) {
          // The Mini App goes on by itself (a start parameter, a seat): wait for its board.
          await p.waitForSelector('#board[data-ready="1"]', short);
        } else if (what !== 'open-static' && await p.$('#board')) {
          await p.waitForSelector('#board[data-ready="1"]', short);
        }
        answer = new URL(p.url()).pathname;
      } else if (what === 'discord-open') {
        const context = await (await framingBrowser()).newContext({
          viewport: { width: 390, height: 844 },
        });
        const client = `<!doctype html><iframe id="a" style="width:380px;height:820px"
          src="${rest[0]}"></iframe><script>
          const code = ${JSON.stringify(rest[1])};
          window.addEventListener('message', (e) => {
            const [op, p] = e.data;
            const reply = (m) => e.source.postMessage(m, '*');
            if (op === 0) { reply([1, { cmd: 'DISPATCH', evt: 'READY', data: { v: 1 } }]); }
            if (op === 1 && p.cmd === 'AUTHORIZE') {
              reply([1, { cmd: 'AUTHORIZE', nonce: p.nonce, data: { code } }]);
            }
          });</script>`;
        await context.route('https://discord.com/**', (r) =>
          r.fulfill({ status: 200, contentType: 'text/html', body: client }));
        const p = await context.newPage();
        await p.goto('https://discord.com/channels/activity');
        const frame = await (await p.waitForSelector('#a', short)).contentFrame();
        pages[who] = frame;
        try {
          await frame.waitForSelector('#board[data-ready="1"]', { timeout: 5000 });
          answer = new URL(frame.url()).pathname;
        } catch (e) {
          const text = (await frame.textContent('body').catch(() => '')) || '';
          answer = 'timeout at ' + frame.url() + ' ' + text.trim().slice(0, 200);
        }
      } else if (what === 'get') {
        const r = await page.request.get(rest[0], { maxRedirects: 0 });
        answer = String(r.status());
      } else if (what === 'click') {
        await page.click('[data-sq="' + rest[0] + '"]');
      } else if (what === 'key') {
        await page.keyboard.press(rest[0]);
      } else if (what === 'wait-ply') {
        try {
          await page.waitForSelector('#board[data-ply="' + rest[0] + '"][data-ready="1"]', short);
          answer = 'ply ' + rest[0];
        } catch (e) {
          answer = 'timeout at ' + await page.getAttribute('#board', 'data-ply');
        }
      } else if (what === 'wait') {
        try {
          await page.waitForSelector(rest.join(' '), { timeout: 3000, state: 'attached' });
        } catch (e) { answer = 'timeout'; }
      } else if (what === 'text') {
        const e = await page.$(rest.join(' '));
        answer = e ? (await e.textContent()).trim() : 'none';
      } else if (what === 'wait-text') {
        const t0 = Date.now();
        try {
          await page.waitForFunction(([sel, t]) => {
            const e = document.querySelector(sel);
            return e && e.innerText.includes(t);
          }, [rest[0], rest.slice(1).join(' ')], short);
          answer = 'shown ' + (Date.now() - t0);
        } catch (e) { answer = 'missing'; }
      } else if (what === 'attr') {
        const v = await page.getAttribute(rest[0], rest[1]).catch(() => null);
        answer = v === null ? 'none' : v;
      } else if (what === 'picked') {
        const p = await page.$('#board .picked');
        answer = p ? await p.getAttribute('data-sq') : 'none';
      } else if (what === 'targets') {
        answer = (await page.$$eval('#board .to', (bs) => bs.map((b) => b.dataset.sq))).join('|');
      } else if (what === 'count') {
        answer = String((await page.$$(rest.join(' '))).length);
      } else if (what === 'width') {
        const box = await (await page.$(rest.join(' '))).boundingBox();
        answer = String(box.width);
      } else if (what === 'tops') {
        answer = (await page.$$eval(rest.join(' '), (es) => es.map((e) =>
          Math.round(e.getBoundingClientRect().top + window.scrollY)))).join('|');
      } else if (what === 'acts') {
        answer = (await page.$$eval('.act', (bs) => bs.map((b) => b.textContent))).join('|');
      } else if (what === 'act' || what === 'double-act') {
        const label = rest.join(' ');
        const b = await page.$$('.act');
        let found = null;
        for (const x of b) { if ((await x.textContent()) === label) { found = x; } }
        if (!found) {
          answer = 'no such button';
        } else if (what === 'act') {
          await found.click();
        } else {
          await found.dblclick();
        }
      } else if (what === 'post') {
        answer = await page.evaluate(async ([kind, body]) => {
          const game = document.getElementById('board').dataset.game;
          const r = await fetch('/api/g/' + game + '/' + kind, {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, body,
          });
          return r.status + ' ' + await r.text();
        }, [rest[0], rest.slice(1).join(' ')]);
      } else if (what === 'scroll-width') {
        answer = String(await page.evaluate(() => document.documentElement.scrollWidth));
      } else if (what === 'lose-events') {
        await page.context().route('**/events', (r) => r.abort());
        await page.reload();
        await page.waitForSelector('#board[data-ready="1"]', short);
      } else if (what === 'shot') {
        await page.screenshot({ path: rest[0], fullPage: true });
      } else {
        answer = 'error: no verb ' + what;
      }
    } catch (e) {
      answer = 'error: ' + String(e.message || e).split('\n')[0];
    }
    console.log(answer);
  }
  await browser.close();
  if (framing) { await framing.close(); }
})().catch((e) => { console.error(e); process.exit(1); });

(function () {
  var board = document.getElementById("board");
  var game = board.dataset.game, ply = Number(board.dataset.ply), lang = board.dataset.lang;
  var me = board.dataset.me, turn = board.dataset.turn;
  var said = document.getElementById("said");
  // A refusal answered just before this page replaced a stale one: still said.
  var kept = sessionStorage.getItem("ugolki_said:" + game);
  if (kept) { said.textContent = kept; sessionStorage.removeItem("ugolki_said:" + game); }
  var squares = Array.prototype.slice.call(board.querySelectorAll("button"));
  var side = Math.round(Math.sqrt(squares.length));
  var moves = [], picked = null, cursor = 0;
  var tg = window.Telegram && window.Telegram.WebApp;
  // A Discord Activity's sign-in hands the seat over in the fragment (never sent to a
  // server, so never in a log): kept for this tab, and the address cleaned.
  var handed = /^#seat=([0-9a-f]{32})$/.exec(location.hash);
  if (handed) {
    sessionStorage.setItem("ugolki_seat", handed[1]);
    history.replaceState(null, "", location.pathname + location.search);
  }
  if (tg && tg.ready) { tg.ready(); }
  // In the Mini App, once: seated by Telegram's signature, the page knows the reader's side.
  if (tg && tg.initData && !me && !sessionStorage.getItem("seated")) {
    sessionStorage.setItem("seated", "1");
    fetch("/app/seat", { method: "POST", headers: { "Authorization": "tma " + tg.initData } })
      .then(function (r) { if (r.ok) { location.reload(); } });
  }
  function at(sq) { return board.querySelector('[data-sq="' + sq + '"]'); }
  function clear() {
    squares.forEach(function (b) { b.classList.remove("picked", "to"); });
    picked = null;
  }
  // A seated player picks only their own pieces, on their turn; the server judges anyway.
  // A reader the server names no side for watches: nothing to pick, no buttons.
  var acts = document.getElementById("acts"), watching = false;
  function mine() { return !watching && (!me || me === turn); }
  function pick(sq) {
    clear();
    var to = mine() ? moves.filter(function (m) { return m.from === sq; }) : [];
    if (!to.length) { return; }
    picked = sq;
    at(sq).classList.add("picked");
    to.forEach(function (m) { at(m.to).classList.add("to"); });
  }
  // Inside a Discord Activity the seat travels in a header (a cookie in Discord's frame is
  // a third party's and may be dropped); it was kept for this tab at the sign-in.
  function seated(headers) {
    var seat = sessionStorage.getItem("ugolki_seat");
    if (seat) { headers["X-Ugolki-Seat"] = seat; }
    return headers;
  }
  // Signed by Telegram inside the Mini App; else the seat (its cookie or header) speaks.
  function send(what, body) {
    var headers = seated({ "Content-Type": "application/json" });
    if (tg && tg.initData) { headers.Authorization = "tma " + tg.initData; }
    return fetch("/api/g/" + game + "/" + what + "?lang=" + lang, {
      method: "POST", headers: headers, body: JSON.stringify(body)
    }).then(function (r) {
      // Done: the game changed; its event brings the newest board (or, without events, the
      // page's asking below).
      if (r.ok) { said.textContent = ""; return; }
      return r.json().then(function (j) { answer(j); catchUp(j.said); },
        function () { said.textContent = String(r.status); });
    });
  }
  // The table's words, and a button its answer carries (a losing move's Confirm).
  function answer(j) {
    said.textContent = j.said || "";
    (j.buttons || []).forEach(function (b) {
      var button = document.createElement("button");
      button.className = "act";
      button.dataset.act = b.act;
      button.textContent = b.label;
      button.addEventListener("click", function () { send("act", { act: b.act }); });
      said.appendChild(document.createTextNode(" "));
      said.appendChild(button);
    });
  }
  // Refused: if the game moved on meanwhile (its events lost), the newest board comes,
  // and the refusal is still said on it.
  function catchUp(keep) {
    fetch("/g/" + game + "/moves.json", { headers: seated({}) }).then(function (r) { return r.json(); }).then(function (j) {
      if (j.ply !== ply || (j.over && board.dataset.over !== "1") || j.offer !== board.dataset.offer) {
        if (keep) { sessionStorage.setItem("ugolki_said:" + game, keep); }
        reload();
      }
    });
  }
  function play(sq) {
    var m = moves.filter(function (m) { return m.from === picked && m.to === sq; })[0];
    if (!m) { pick(sq); return; }
    send("move", { move: m.move, ply: ply });
    clear();
  }
  function press(sq) { if (picked && sq !== picked) { play(sq); } else if (picked) { clear(); } else { pick(sq); } }
  // Once: a page already on its way to the newest board is not sent again (a move's answer
  // and its event may both ask).
  var leaving = false, events = null;
  function reload() {
    if (leaving) { return; }
    leaving = true;
    if (events) { events.close(); }
    location.replace(location.pathname + location.search);
  }
  // The keyboard's cursor: one square in the tab order (the arrows reach the others), the
  // one last clicked or moved to, kept across the page's reloads (one a move).
  var cursorKey = "ugolki_cursor:" + game;
  function moveCursor(i, focus) {
    squares[cursor].classList.remove("cursor");
    squares[cursor].tabIndex = -1;
    cursor = i;
    squares[cursor].classList.add("cursor");
    squares[cursor].tabIndex = 0;
    sessionStorage.setItem(cursorKey, squares[i].dataset.sq);
    if (focus) { squares[cursor].focus(); }
  }
  squares.forEach(function (b, i) {
    b.tabIndex = -1;
    b.addEventListener("click", function () { moveCursor(i, false); press(b.dataset.sq); });
  });
  // A button with `data-sure` (Resign) asks a second tap, from half a second to four
  // seconds after the first: a slip of the finger, a double tap or a held key does not end
  // the game. The question is said above the buttons, in two lines kept for it (`#said`), so
  // none of them moves under a finger, however narrow the phone.
  Array.prototype.forEach.call(document.querySelectorAll("#acts .act"), function (b) {
    var armed = 0, undo = null;
    function disarm() {
      clearTimeout(undo); undo = null; armed = 0;
      b.classList.remove("sure");
      if (said.textContent === b.dataset.sure) { said.textContent = ""; }
    }
    b.addEventListener("click", function () {
      if (b.dataset.sure) {
        var since = Date.now() - armed;
        if (!armed) {
          armed = Date.now();
          b.classList.add("sure");
          said.textContent = b.dataset.sure;
          undo = setTimeout(disarm, 4000);
          return;
        }
        if (since < 500) { return; }
        disarm();
      }
      send("act", { act: b.dataset.act });
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.classList && e.target.classList.contains("act")) {
      // A held key presses a button once (its repeats would be taps).
      if (e.repeat) { e.preventDefault(); }
      return;
    }
    var r = Math.floor(cursor / side), c = cursor % side;
    if (e.key === "ArrowUp") { r = Math.max(0, r - 1); }
    else if (e.key === "ArrowDown") { r = Math.min(side - 1, r + 1); }
    else if (e.key === "ArrowLeft") { c = Math.max(0, c - 1); }
    else if (e.key === "ArrowRight") { c = Math.min(side - 1, c + 1); }
    else if (e.key === "Enter") {
      // (The square's own click is not also fired; a held key presses once. Space clicks
      // the focused square, which is the cursor's.)
      e.preventDefault();
      if (!e.repeat) { press(squares[cursor].dataset.sq); }
      return;
    }
    else if (e.key === "Escape") { clear(); return; }
    else { return; }
    e.preventDefault();
    moveCursor(r * side + c, true);
  });
  // (Kept by its square, not its place: Black's board is drawn turned.)
  var cursorSq = sessionStorage.getItem(cursorKey), first = 0;
  squares.forEach(function (b, i) { if (b.dataset.sq === cursorSq) { first = i; } });
  moveCursor(first, false);
  // The running clock counts down from what the server said when the page was made.
  var running = document.querySelector(".clock.run .t"), loaded = Date.now();
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function shown(ms) {
    var s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    return h > 0 ? h + ":" + two(m) + ":" + two(s % 60) : m + ":" + two(s % 60);
  }
  if (running && Number(running.dataset.ms) >= 0) {
    setInterval(function () {
      running.textContent = shown(Number(running.dataset.ms) - (Date.now() - loaded));
    }, 200);
  }
  fetch("/g/" + game + "/moves.json", { headers: seated({}) }).then(function (r) { return r.json(); }).then(function (j) {
    // Seated by a header only (a Discord Activity): the page was drawn for a watcher, so
    // the side comes from the server now, and Black's board is drawn turned.
    if (j.me && !me) {
      me = j.me;
      board.dataset.me = me;
      if (me === "black" && !/[?&]as=black/.test(location.search)) {
        var q = location.search ? location.search + "&as=black" : "?as=black";
        location.replace(location.pathname + q);
        return;
      }
    }
    // In Telegram the signature seats the reader with every request, even where the seat's
    // cookie is not kept (Telegram Web's frame): the server judges there.
    if (me || (tg && tg.initData)) { acts.hidden = false; } else { watching = true; clear(); }
    moves = j.moves; board.dataset.ready = "1";
    // A move made meanwhile: this page is behind, so the newest one replaces it.
    if (j.ply !== ply && board.dataset.over !== "1") { reload(); }
  });
  // A game over does not change: nothing to follow.
  if (window.EventSource && board.dataset.over !== "1") {
    var s = events = new EventSource("/g/" + game + "/events");
    function go(e) { if (e.type === "over" || Number(e.data) !== ply) { s.close(); reload(); } }
    s.addEventListener("ply", go);
    s.addEventListener("over", go);
    // A draw offered, declined or withdrawn: its buttons change.
    s.addEventListener("offer", function (e) {
      if (e.data !== board.dataset.offer) { s.close(); reload(); }
    });
    // No stream (refused when the server holds too many, or cut by a proxy): the page
    // also asks every few seconds, from the first failure on.
    var polling = false;
    s.onerror = function () {
      if (!polling) {
        polling = true;
        // (An answer that is no JSON, a 429 say, is passed over until the next tick.)
        setInterval(function () { catchUp(); }, 3000);
      }
    };
  }
})();

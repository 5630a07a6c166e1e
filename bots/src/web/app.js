(function () {
  var board = document.getElementById("board");
  var game = board.dataset.game, ply = Number(board.dataset.ply), lang = board.dataset.lang;
  var said = document.getElementById("said");
  var squares = Array.prototype.slice.call(board.querySelectorAll("button"));
  var side = Math.round(Math.sqrt(squares.length));
  var moves = [], picked = null, cursor = 0;
  var tg = window.Telegram && window.Telegram.WebApp;
  if (tg && tg.ready) { tg.ready(); }
  function at(sq) { return board.querySelector('[data-sq="' + sq + '"]'); }
  function clear() {
    squares.forEach(function (b) { b.classList.remove("picked", "to"); });
    picked = null;
  }
  function pick(sq) {
    clear();
    var to = moves.filter(function (m) { return m.from === sq; });
    if (!to.length) { return; }
    picked = sq;
    at(sq).classList.add("picked");
    to.forEach(function (m) { at(m.to).classList.add("to"); });
  }
  function play(sq) {
    var m = moves.filter(function (m) { return m.from === picked && m.to === sq; })[0];
    if (!m) { pick(sq); return; }
    var init = tg ? tg.initData : "";
    fetch("/api/g/" + game + "/move?lang=" + lang, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "tma " + init },
      body: JSON.stringify({ move: m.move, ply: ply })
    }).then(function (r) {
      if (r.ok) { said.textContent = ""; return; }
      return r.json().then(function (j) { said.textContent = j.said; },
        function () { said.textContent = String(r.status); });
    });
    clear();
  }
  function press(sq) { if (picked && sq !== picked) { play(sq); } else if (picked) { clear(); } else { pick(sq); } }
  function reload() { location.replace(location.pathname + location.search); }
  squares.forEach(function (b, i) {
    b.addEventListener("click", function () { cursor = i; press(b.dataset.sq); });
  });
  document.addEventListener("keydown", function (e) {
    var r = Math.floor(cursor / side), c = cursor % side;
    if (e.key === "ArrowUp") { r = Math.max(0, r - 1); }
    else if (e.key === "ArrowDown") { r = Math.min(side - 1, r + 1); }
    else if (e.key === "ArrowLeft") { c = Math.max(0, c - 1); }
    else if (e.key === "ArrowRight") { c = Math.min(side - 1, c + 1); }
    else if (e.key === "Enter") { press(squares[cursor].dataset.sq); e.preventDefault(); return; }
    else if (e.key === "Escape") { clear(); return; }
    else { return; }
    e.preventDefault();
    squares[cursor].classList.remove("cursor");
    cursor = r * side + c;
    squares[cursor].classList.add("cursor");
  });
  squares[cursor].classList.add("cursor");
  fetch("/g/" + game + "/moves.json").then(function (r) { return r.json(); }).then(function (j) {
    moves = j.moves; board.dataset.ready = "1";
  });
  if (window.EventSource) {
    var s = new EventSource("/g/" + game + "/events");
    function go(e) { if (e.type === "over" || Number(e.data) !== ply) { s.close(); reload(); } }
    s.addEventListener("ply", go);
    s.addEventListener("over", go);
  }
})();

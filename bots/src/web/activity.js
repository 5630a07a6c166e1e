// Inside a Discord Activity: sign the reader in through the Discord client, then go to the
// game's board. The Embedded App SDK's handshake and its AUTHORIZE command, spoken over
// postMessage as the client expects ([opcode, payload]: 0 handshake, 1 frame); the code
// it gives is traded by our server (it holds the client secret), which answers a seat.
// Anything amiss (not in Discord, refused, no answer in time): the board, to watch.
(function () {
  var root = document.getElementById("activity");
  var game = root.dataset.game, client = root.dataset.client;
  var query = new URLSearchParams(location.search);
  var board = "/app/g/" + game + location.search;
  var watch = function () { location.replace(board); };
  var frame = query.get("frame_id");
  var parent = window.parent.opener || window.parent;
  if (!frame || parent === window) { return watch(); }
  var origin = document.referrer ? new URL(document.referrer).origin : "*";
  var discord = /^https:\/\/((ptb|canary)\.)?discord(app)?\.com$/;
  var nonce = "n" + Math.random().toString(36).slice(2);
  var done = false;
  setTimeout(function () { if (!done) { done = true; watch(); } }, 10000);
  window.addEventListener("message", function (e) {
    if (done || !discord.test(e.origin) || !Array.isArray(e.data) || e.data[0] !== 1) { return; }
    var p = e.data[1] || {};
    if (p.cmd === "DISPATCH" && p.evt === "READY") {
      parent.postMessage([1, {
        cmd: "AUTHORIZE", nonce: nonce,
        args: { client_id: client, response_type: "code", scope: ["identify"], prompt: "none", state: "" }
      }], origin);
    } else if (p.cmd === "AUTHORIZE" && p.nonce === nonce) {
      done = true;
      var code = p.evt === "ERROR" ? null : p.data && p.data.code;
      if (!code) { return watch(); }
      fetch("/app/discord/token", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code: code })
      }).then(function (r) { return r.ok ? r.json() : null; }).then(function (j) {
        location.replace(j && j.seat ? board + "#seat=" + j.seat : board);
      }, watch);
    }
  });
  parent.postMessage([0, { v: 1, encoding: "json", client_id: client, frame_id: frame }], origin);
})();

"use strict";
// fcauto review page: the replay script (after this one) steps through the game and
// announces each step as a "fcauto-step" event; this script shows the analysis of that step
// beside the board, moves the graph's cursor, colours the moves by class, and builds the
// links that open a position in fcauto serve's page.
(function () {
  const R = JSON.parse(document.getElementById("review").textContent);
  const panel = document.getElementById("analysis");
  const chart = document.getElementById("chart");
  const cursor = document.getElementById("cursor");
  const port = document.getElementById("port");
  const words = {
    best: "best: it keeps the shortest known win",
    good: "good: the shortest known win got a little longer",
    costly: "costly: the shortest known win got much longer",
    losing: "losing: the position before it was winnable, after it no win exists",
  };
  let coloured = false;
  let shown = 0;

  function serveLink(k) {
    const p = parseInt(port.value, 10);
    return "http://127.0.0.1:" + (p > 0 && p < 65536 ? p : R.port) + "/?position=" +
      encodeURIComponent(R.positions[k]);
  }

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }

  function toWin(n, verdict) {
    if (n !== null && n !== undefined) { return n + " moves to win"; }
    return verdict === "lost" ? "lost: no win exists" : "undecided";
  }

  // The moves list is made by the replay script: colour it once it exists.
  function colour() {
    document.querySelectorAll("#moves .mv").forEach(function (b, i) {
      const c = R.moves[i] && R.moves[i].c;
      if (c) { b.classList.add(c); b.title += " (" + c + ")"; }
    });
    coloured = true;
  }

  function stepFacts(k) {
    const out = [];
    if (k === 0) {
      const p = R.review.points[0];
      out.push(el("p", "The start: " + toWin(p.moves_to_win, p.verdict) + "."));
      return out;
    }
    const m = R.moves[k - 1];
    const head = el("p");
    head.appendChild(el("b", "Step " + k + ": " + m.n));
    head.appendChild(document.createTextNode(" "));
    head.appendChild(el("span", m.c || "no class", "c " + (m.c || "")));
    out.push(head);
    const lostBefore = R.review.points[k - 1].verdict === "lost";
    out.push(el("p", m.c ? words[m.c] + "." : lostBefore ? "The game was already lost before this move." :
      "Undecided: the search stopped at its limit before or after this move."));
    out.push(el("p", "Before: " + toWin(m.before, R.review.points[k - 1].verdict) +
      "; after: " + toWin(m.after, m.verdict) + (m.cost !== null ? " (cost " + m.cost + ")" : "") + "."));
    if (m.best && m.best !== m.n) { out.push(el("p", "Best here: " + m.best + ".")); }
    if (m.c === "losing" && R.alternative) {
      out.push(el("p", "The better line: " + R.alternative.join(" ")));
    }
    return out;
  }

  function update(k) {
    shown = k;
    if (!coloured) { colour(); }
    panel.textContent = "";
    stepFacts(k).forEach(function (e) { panel.appendChild(e); });
    const a = el("a", "Try from here in fcauto serve", "try");
    a.href = serveLink(k);
    a.id = "try-here";
    panel.appendChild(a);
    const x = Number(chart.dataset.x0) + k * Number(chart.dataset.dx);
    cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
  }

  function go(k) {
    const s = document.getElementById("slider");
    s.value = k;
    s.dispatchEvent(new Event("input"));
  }

  document.addEventListener("fcauto-step", function (e) { update(e.detail); });
  document.querySelectorAll("#chart .pt").forEach(function (p) {
    p.addEventListener("click", function () { go(Number(p.dataset.step)); });
  });
  document.querySelectorAll("#marked .goto").forEach(function (b) {
    // The position before the marked move, with the move to come.
    b.addEventListener("click", function () { go(Number(b.dataset.step) - 1); window.scrollTo(0, 0); });
  });
  function relink() {
    document.querySelectorAll("#marked a.try").forEach(function (a) {
      a.href = serveLink(Number(a.dataset.position));
    });
    const here = document.getElementById("try-here");
    if (here) { here.href = serveLink(shown); }
  }
  port.addEventListener("input", relink);
})();

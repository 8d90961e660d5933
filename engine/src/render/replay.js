"use strict";
// fcauto replay page: the positions are computed by fcauto (Rust) and embedded as JSON;
// this script only moves the card elements of the SVG and updates the text.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const total = D.moves.length;
  const ranks = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const cardsGroup = document.getElementById("cards");
  const cards = {};
  for (const el of cardsGroup.querySelectorAll(".card")) {
    cards[el.dataset.card] = el;
  }
  const names = [];
  for (let r = 1; r <= 13; r++) {
    for (const s of "CDHS") {
      names.push((r === 10 ? "T" : ranks[r]) + s);
    }
  }
  const foundations = document.querySelectorAll(".foundation");
  const slider = document.getElementById("slider");
  const counter = document.getElementById("counter");
  const moveText = document.getElementById("move");
  const list = document.getElementById("moves");
  const hl = document.getElementById("hl");
  const items = D.moves.map(function (m, i) {
    const b = document.createElement("button");
    b.className = "mv" + (m.a ? " auto" : "");
    b.textContent = m.n;
    b.title = (i + 1) + ": " + m.t;
    b.addEventListener("click", function () { show(i + 1); });
    list.appendChild(b);
    return b;
  });
  let step = 0;

  // How far inside a place its highlight outline is drawn: svg.rs's HL_INSET.
  const INSET = 2;

  function setRect(id, x, y, w, h) {
    const r = document.getElementById(id);
    r.setAttribute("x", x + INSET); r.setAttribute("y", y + INSET);
    r.setAttribute("width", w - 2 * INSET); r.setAttribute("height", h - 2 * INSET);
  }

  function show(k) {
    step = Math.max(0, Math.min(total, k));
    const s = D.steps[step];
    for (let i = 0; i < s.o.length; i += 3) {
      const el = cards[names[s.o[i]]];
      el.setAttribute("transform", "translate(" + s.o[i + 1] + " " + s.o[i + 2] + ")");
      cardsGroup.appendChild(el); // drawing order: later covers earlier
    }
    foundations.forEach(function (f, i) { f.dataset.top = ranks[s.f[i]]; });
    if (s.h) {
      const h = s.h;
      setRect("hl-from", h[0], h[1], h[2], h[3]);
      setRect("hl-to", h[4], h[5], h[6], h[7]);
      const a = document.getElementById("hl-arrow");
      a.setAttribute("x1", h[0] + h[2] / 2); a.setAttribute("y1", h[1] + h[3] / 2);
      a.setAttribute("x2", h[4] + h[6] / 2); a.setAttribute("y2", h[5] + h[7] / 2);
      hl.setAttribute("visibility", "visible");
    } else {
      hl.setAttribute("visibility", "hidden");
    }
    slider.value = step;
    counter.dataset.step = step;
    counter.textContent = "Move " + step + " of " + total;
    if (step === 0) {
      moveText.textContent = "Start position";
      moveText.className = "";
    } else {
      const m = D.moves[step - 1];
      moveText.textContent = m.n + ": " + m.t + (step === total && D.won !== false ? ". Won!" : "");
      moveText.className = m.a ? "auto" : "";
    }
    items.forEach(function (b, i) { b.classList.toggle("current", i === step - 1); });
    if (step > 0) { items[step - 1].scrollIntoView({ block: "nearest" }); }
    // A page built on this one (the review page) follows the steps.
    document.dispatchEvent(new CustomEvent("fcauto-step", { detail: step }));
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(step - 1); });
  document.getElementById("next").addEventListener("click", function () { show(step + 1); });
  document.getElementById("last").addEventListener("click", function () { show(total); });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: total }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) { return; }
    e.preventDefault();
    show(to);
  });
  // A link may name a step: 617.html#40.
  const linked = /^#(\d+)$/.exec(window.location.hash);
  show(linked ? parseInt(linked[1], 10) : 0);
  document.body.dataset.ready = "true";
})();

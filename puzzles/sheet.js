// The puzzle sheet's play: move cards between melds (Undo takes a move back), then Check compares
// the table with the solution in canonical form (group shapes, sequence cards per place, jokers
// per card), all here, and marks every meld that is no legal group or sequence.
(function () {
  "use strict";

  function combinations(items, size) {
    if (size === 0) return [[]];
    const out = [];
    items.forEach(function (item, i) {
      combinations(items.slice(i + 1), size - 1).forEach(function (rest) {
        out.push([item].concat(rest));
      });
    });
    return out;
  }

  function cardOf(svg) {
    if (svg.dataset.joker === "1") return null;
    return { rank: Number(svg.dataset.rank), suit: Number(svg.dataset.suit) };
  }

  // Every way a meld can be legal, each as its list of canonical keys.
  function interpretations(cards, rules) {
    const real = cards.filter(function (c) { return c !== null; });
    const wild = cards.length - real.length;
    const size = cards.length;
    const found = {};
    const suits = real.map(function (c) { return c.suit; });
    const ranks = Array.from(new Set(real.map(function (c) { return c.rank; })));
    if (size >= rules.groupMin && size <= rules.groupMax && ranks.length <= 1 &&
        new Set(suits).size === suits.length) {
      const rankList = ranks.length ? ranks : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
      const free = [0, 1, 2, 3].filter(function (s) { return suits.indexOf(s) < 0; });
      rankList.forEach(function (rank) {
        combinations(free, wild).forEach(function (chosen) {
          const all = suits.concat(chosen).sort();
          const keys = ["g:" + rank + ":" + all.join(",")].concat(
            chosen.map(function (s) { return "j:" + rank + ":" + s; }));
          found[keys.slice().sort().join("|")] = keys;
        });
      });
    }
    const suitSet = Array.from(new Set(suits));
    if (size >= rules.runMin && suitSet.length <= 1) {
      const suitList = suitSet.length ? suitSet : [0, 1, 2, 3];
      const low = rules.aceLow ? 1 : 2;
      const high = rules.aceHigh ? 14 : 13;
      suitList.forEach(function (suit) {
        for (let start = low; start + size - 1 <= high; start++) {
          const need = {};
          const places = [];
          for (let p = start; p < start + size; p++) {
            const rank = p === 14 ? 1 : p;
            need[rank] = (need[rank] || 0) + 1;
            places.push(p);
          }
          let fits = true;
          real.forEach(function (c) {
            if (!need[c.rank]) { fits = false; } else { need[c.rank] -= 1; }
          });
          if (!fits) continue;
          const keys = places.map(function (p) { return "r:" + suit + ":" + p; });
          places.forEach(function (p) {
            const rank = p === 14 ? 1 : p;
            if (need[rank] > 0) { need[rank] -= 1; keys.push("j:" + rank + ":" + suit); }
          });
          found[keys.slice().sort().join("|")] = keys;
        }
      });
    }
    return Object.keys(found).map(function (k) { return found[k]; });
  }

  function matches(options, target) {
    let tries = 0;
    function search(i, keys) {
      if (++tries > 50000) return false;
      if (i === options.length) return keys.slice().sort().join("|") === target;
      return options[i].some(function (option) { return search(i + 1, keys.concat(option)); });
    }
    return search(0, []);
  }

  function check(section) {
    const rules = JSON.parse(section.dataset.rules);
    const target = JSON.parse(section.dataset.solution).join("|");
    const result = section.querySelector(".result");
    const melds = Array.from(section.querySelectorAll(".table .meld")).filter(function (m) {
      return m.querySelector("svg.card");
    });
    const options = melds.map(function (meld) {
      return interpretations(Array.from(meld.querySelectorAll("svg.card")).map(cardOf), rules);
    });
    // The melds' numbers on the page are their places here (renumber keeps them so).
    const bad = [];
    options.forEach(function (o, i) {
      melds[i].classList.toggle("illegal", o.length === 0);
      if (o.length === 0) bad.push(i + 1);
    });
    const left = section.querySelectorAll(".hand svg.card").length;
    // A points goal leaves spare cards in the hand: the table alone says whether it is solved.
    const playAll = section.dataset.playAll !== "false";
    let verdict;
    let text;
    if (bad.length) {
      verdict = "illegal";
      text = bad.length === 1
        ? "Meld " + bad[0] + " is not a legal group or sequence."
        : "Melds " + bad.slice(0, -1).join(", ") + " and " + bad[bad.length - 1] +
          " are not legal groups or sequences.";
    } else if (left > 0 && playAll) {
      verdict = "hand";
      text = "The hand still holds " + left + (left === 1 ? " card." : " cards.");
    } else if (matches(options, target)) {
      verdict = "solved";
      text = "Solved! This is the solution.";
    } else {
      verdict = "wrong";
      text = "Every meld is legal, but this is not the solution.";
    }
    result.dataset.result = verdict;
    result.textContent = text;
  }

  function setUp(section) {
    const board = section.querySelector(".board");
    const undo = section.querySelector("button.undo");
    const start = board.innerHTML;
    const history = [];  // the board before each move, for Undo
    let selected = null;

    function clean() {
      // A move or an undo makes the last Check's verdict and marks stale.
      section.querySelector(".result").textContent = "";
      section.querySelector(".result").removeAttribute("data-result");
      board.querySelectorAll(".meld.illegal").forEach(function (m) { m.classList.remove("illegal"); });
    }

    function snapshot() {
      // The board as it was before the move, without the card picked up for it.
      if (selected) selected.classList.remove("selected");
      const html = board.innerHTML;
      if (selected) selected.classList.add("selected");
      return html;
    }

    function renumber() {
      // A meld made or emptied moves the numbers after it: each meld shows its place.
      section.querySelectorAll(".table .meld").forEach(function (meld, i) {
        let label = meld.querySelector(".meld-number");
        if (!label) {
          label = document.createElement("span");
          label.className = "meld-number";
          meld.insertBefore(label, meld.firstChild);
        }
        label.textContent = String(i + 1);
      });
    }

    function restore(html) {
      board.innerHTML = html;
      selected = null;
      clean();
      undo.disabled = history.length === 0;
    }

    function select(card) {
      if (selected) selected.classList.remove("selected");
      selected = card;
      if (card) card.classList.add("selected");
    }

    function moveTo(meld) {
      if (!selected) return;
      const from = selected.parentNode;
      if (from === meld) { select(null); return; }
      history.push(snapshot());
      undo.disabled = false;
      meld.appendChild(selected);
      if (from !== meld && from.classList.contains("meld") && !from.querySelector("svg.card")) {
        from.remove();
      }
      select(null);
      clean();
      renumber();
    }

    board.addEventListener("click", function (event) {
      const card = event.target.closest("svg.card");
      const meld = event.target.closest(".meld");
      const fresh = event.target.closest(".new-meld");
      const hand = event.target.closest(".hand");
      if (fresh) {
        if (!selected) return;
        const before = snapshot();
        const created = document.createElement("span");
        created.className = "meld";
        section.querySelector(".table").appendChild(created);
        moveTo(created);
        history[history.length - 1] = before;  // undo removes the new meld too
      } else if (card && (!selected || card === selected || card.parentNode === selected.parentNode)) {
        select(card === selected ? null : card);
      } else if (meld && selected && !meld.classList.contains("hand")) {
        moveTo(meld);
      } else if (hand && selected && selected.dataset.origin === "hand") {
        moveTo(section.querySelector(".hand .hand-row"));
      } else if (card) {
        select(card);
      }
    });
    section.querySelector("button.check").addEventListener("click", function () {
      check(section);
    });
    undo.addEventListener("click", function () {
      if (history.length) restore(history.pop());
    });
    section.querySelector("button.reset").addEventListener("click", function () {
      if (board.innerHTML !== start) history.push(board.innerHTML);
      restore(start);
    });
    section.classList.add("playable");
  }

  document.querySelectorAll("section.puzzle").forEach(setUp);
})();

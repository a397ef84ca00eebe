// meldsat's page, puzzle mode: get a puzzle of a level from the server (/api/puzzle/generate, the
// first puzzle of `meldsat puzzle generate` with the same options), or open one from a file or a
// link; solve it by moving cards (tap a card, then where it goes), with undo; every meld is
// numbered and judged as you go (/api/validate), and the answer is checked by /api/puzzle/check.
// Uses app.js's helpers ($, api, pretty, paragraph, heading, isJoker, acceptPieces, addMode).
"use strict";

const puzzle = {
  given: null, // the puzzle object: rules, players, table, hand, goal (solution, level, seed, grade)
  melds: [], // the player's table
  hand: [],
  chosen: null, // {from: "hand" | meld index as text, index}
  history: [], // earlier {melds, hand}, for undo
  deck: {}, // notation -> {label, svg} of the puzzle's rule set
  deckRules: "",
  judged: 0, // only the latest verdict is shown
  file: [], // the puzzles of an opened file
};

const PUZZLE_LINK = location.hash.slice(1);

function puzzleUrl() {
  const params = new URLSearchParams({ mode: "puzzle" });
  const given = puzzle.given;
  if (!given) return params;
  // The link holds the puzzle, never its solution.
  params.set("rules", given.rules);
  params.set("players", String(given.players));
  params.set("table", tableText(given.table));
  params.set("hand", given.hand.join(" "));
  params.set("goal", given.goal);
  if (given.level) params.set("level", given.level);
  if (given.seed !== undefined && given.seed !== null) params.set("seed", String(given.seed));
  return params;
}

function puzzleStatus(text, className) {
  $("puzzle-status").className = className || "";
  $("puzzle-status").textContent = text;
}

async function puzzleDeck(rules) {
  if (puzzle.deckRules === rules) return;
  const cards = (await api(`/api/cards?rules=${encodeURIComponent(rules)}`)).cards;
  puzzle.deck = {};
  for (const card of cards) puzzle.deck[card.text] = { label: card.label, svg: card.svg };
  puzzle.deckRules = rules;
}

function puzzleSvg(piece) {
  if (puzzle.deck[piece]) return puzzle.deck[piece].svg;
  const [mark, declared] = piece.split("=");
  if (declared !== undefined && puzzle.deck[mark]) return drawn[piece] || puzzle.deck[mark].svg;
  return unknownSvg(piece);
}

function puzzleLabel(piece) {
  const [mark, declared] = piece.split("=");
  const label = (text) => (puzzle.deck[text] ? puzzle.deck[text].label : text);
  return declared === undefined ? label(mark) : `joker = ${label(declared)}`;
}

// --- opening a puzzle ----------------------------------------------------------------------------

async function openPuzzle(given) {
  // A puzzle from the server, a file or a link: its pieces read against its rule set's deck.
  const rules = given.rules || "manipulation";
  await puzzleDeck(rules);
  const notation = rules === "rummikub" ? "tiles" : "cards";
  const read = (value) => (typeof value === "string" ? splitTable(value) : value);
  const table = read(given.table || []).map((meld) => acceptPieces(meld, puzzle.deck, "Table", notation));
  const hand = acceptPieces(typeof given.hand === "string" ? splitPieces(given.hand) : given.hand || [], puzzle.deck, "Hand", notation);
  const opened = { ...given, rules, table, hand, goal: given.goal || "all" };
  if (opened.players === undefined || opened.players === null) delete opened.players;
  else opened.players = Number(opened.players);
  if (typeof opened.solution === "string") opened.solution = splitTable(opened.solution);
  puzzle.given = opened;
  puzzle.melds = table.map((meld) => meld.slice());
  puzzle.hand = hand.slice();
  puzzle.history = [];
  puzzle.chosen = null;
  $("puzzle-board").hidden = false;
  $("puzzle-result").innerHTML = "";
  const goal = opened.goal === "all"
    ? "Goal: play every card of your hand onto the table, so that every meld is legal."
    : `Goal: play cards from your hand worth ${opened.goal.split(" ")[1]} points (some may stay in the hand), every meld legal.`;
  $("puzzle-goal-text").textContent = `${goal} Tap a card, then the meld it goes to (or + for a new meld). There is exactly one solution.`;
  writeUrl();
  renderPuzzle();
  judgePuzzle();
}

async function makePuzzle() {
  const seed = Number($("puzzle-seed").value);
  if (!Number.isInteger(seed)) {
    puzzleStatus(`bad puzzle number '${$("puzzle-seed").value}' (expected a whole number)`, "bad");
    return;
  }
  const level = $("puzzle-level").value;
  const body = { level, seed, goal: $("puzzle-goal").value };
  const vowel = /^[aeiou]/.test(level); // "an easy puzzle", "a hard puzzle"
  puzzleStatus(`Making ${vowel ? "an" : "a"} ${level} puzzle (number ${seed}); each is proven to have one solution…`);
  $("puzzle-make").disabled = $("puzzle-next").disabled = true;
  try {
    const answer = await api("/api/puzzle/generate", body);
    await openPuzzle(answer.puzzles[0]);
    puzzleStatus(`${vowel ? "An" : "A"} ${level} puzzle, number ${seed}. The link in the address bar holds it.`, "good");
    $("puzzle-next").hidden = false;
  } catch (error) {
    puzzleStatus(pretty(error.message), "bad");
  } finally {
    $("puzzle-make").disabled = $("puzzle-next").disabled = false;
  }
}

function readPuzzleText(text) {
  // The text form of `meldsat puzzle generate`: "key: value" lines, puzzles separated by "---".
  return text.split(/^---\s*$/m).map((block) => {
    const fields = {};
    for (const line of block.split("\n")) {
      const match = /^\s*([a-z_]+):\s*(.*?)\s*$/.exec(line);
      if (match && match[1] !== "grade") fields[match[1]] = match[2];
    }
    return fields;
  }).filter((fields) => fields.table !== undefined || fields.hand !== undefined);
}

async function openFile(file) {
  const text = await file.text();
  let puzzles;
  if (text.trim().startsWith("{")) {
    let data;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file.name}: not JSON (${error.message})`);
    }
    puzzles = Array.isArray(data.puzzles) ? data.puzzles : [data];
  } else {
    puzzles = readPuzzleText(text);
  }
  if (!puzzles.length) throw new Error(`${file.name}: no puzzle in it (a file of meldsat puzzle generate, text or JSON)`);
  puzzle.file = puzzles;
  const pick = $("puzzle-pick");
  pick.innerHTML = "";
  puzzles.forEach((one, index) => pick.add(new Option(`${index + 1}${one.level ? ` (${one.level})` : ""}`, String(index))));
  $("puzzle-pick-box").hidden = puzzles.length < 2;
  await openPuzzle(puzzles[0]);
  puzzleStatus(`Puzzle 1 of ${puzzles.length} from ${file.name}.`, "good");
}

// --- moving cards -------------------------------------------------------------------------------

function renderPuzzle() {
  const melds = $("puzzle-melds");
  melds.innerHTML = "";
  puzzle.melds.forEach((meld, index) => {
    const box = meldDropBox(index);
    const number = document.createElement("span");
    number.className = "meld-number";
    number.textContent = String(index + 1);
    box.append(number, puzzleCards(meld, String(index)));
    melds.append(box);
  });
  const hand = $("puzzle-hand");
  hand.innerHTML = "";
  hand.append(puzzleCards(puzzle.hand, "hand"));
  $("puzzle-undo").disabled = puzzle.history.length === 0;
  showPuzzleJoker();
}

function puzzleCards(pieces, where) {
  const row = document.createElement("div");
  row.className = "cards";
  pieces.forEach((piece, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "movable";
    button.dataset.card = piece;
    button.dataset.from = where;
    button.dataset.index = String(index);
    const chosen = puzzle.chosen && puzzle.chosen.from === where && puzzle.chosen.index === index;
    button.setAttribute("aria-pressed", chosen ? "true" : "false");
    button.setAttribute("aria-label", `${puzzleLabel(piece)}: choose to move`);
    button.innerHTML = puzzleSvg(piece);
    row.append(button);
  });
  return row;
}

function chosenPuzzlePiece() {
  return chosenOf(puzzle);
}

function showPuzzleJoker() {
  // A joker on the table may stand for several cards (* Q♥ K♥): the player says which.
  offerJokerCards(puzzle, $("puzzle-joker-box"), $("puzzle-joker"), puzzle.deck);
}

function snapshot() {
  puzzle.history.push({ melds: puzzle.melds.map((meld) => meld.slice()), hand: puzzle.hand.slice() });
}

function copiesIn(pieces, piece) {
  const plain = (text) => (isJoker(text) ? "joker" : text);
  return pieces.filter((other) => plain(other) === plain(piece)).length;
}

function movePuzzleCard(to) {
  const { from, index } = puzzle.chosen;
  if (String(to) === from) { puzzle.chosen = null; renderPuzzle(); return; }
  const source = from === "hand" ? puzzle.hand : puzzle.melds[Number(from)];
  const piece = source[index];
  if (to === "hand" && copiesIn(puzzle.hand, piece) >= copiesIn(puzzle.given.hand, piece)) {
    puzzleResult(`${puzzleLabel(piece)} was on the table: only the hand's own cards go back to the hand.`, "bad");
    puzzle.chosen = null;
    renderPuzzle();
    return;
  }
  snapshot();
  source.splice(index, 1);
  // A joker that changes meld stands for whatever its new meld needs: the checker derives it.
  const moved = isJoker(piece) && to !== "hand" ? piece.split("=")[0] : piece;
  const plain = isJoker(moved) && to === "hand" ? moved.split("=")[0] : moved;
  placePiece(puzzle, plain, to);
  puzzle.chosen = null;
  renderPuzzle();
  judgePuzzle();
}

function undoPuzzle() {
  const last = puzzle.history.pop();
  if (!last) return;
  puzzle.melds = last.melds;
  puzzle.hand = last.hand;
  puzzle.chosen = null;
  renderPuzzle();
  judgePuzzle();
}

function restartPuzzle() {
  if (!puzzle.given) return;
  snapshot();
  puzzle.melds = puzzle.given.table.map((meld) => meld.slice());
  puzzle.hand = puzzle.given.hand.slice();
  puzzle.chosen = null;
  renderPuzzle();
  judgePuzzle();
}

function declarePuzzleJoker() {
  const piece = chosenPuzzlePiece();
  if (!piece || !isJoker(piece)) return;
  snapshot();
  const mark = piece.split("=")[0];
  const card = $("puzzle-joker").value;
  puzzle.melds[Number(puzzle.chosen.from)][puzzle.chosen.index] = card ? `${mark}=${card}` : mark;
  renderPuzzle();
  judgePuzzle();
}

// --- judging -------------------------------------------------------------------------------------

function puzzleResult(text, className) {
  const result = $("puzzle-result");
  result.innerHTML = "";
  result.append(paragraph(text, className));
}

function puzzleBody() {
  const given = puzzle.given;
  const body = { rules: given.rules, table: given.table, hand: given.hand, goal: given.goal };
  if (given.players !== undefined) body.players = given.players;
  if (given.solution) body.solution = given.solution;
  return body;
}

async function judgePuzzle() {
  // Each meld judged by the rule checker as the player goes; the answer checked when it may be one.
  const sequence = ++puzzle.judged;
  const boxes = [...$("puzzle-melds").querySelectorAll(".meld-box")];
  const body = { rules: puzzle.given.rules, table: puzzle.melds, hand: [] };
  if (puzzle.given.players !== undefined) body.players = puzzle.given.players;
  let verdict;
  try {
    verdict = await api("/api/validate", body);
  } catch (error) {
    if (sequence !== puzzle.judged) return;
    puzzleResult(pretty(error.message), "bad");
    return;
  }
  if (sequence !== puzzle.judged) return;
  verdict.melds.forEach((meld, index) => {
    const box = boxes[index];
    if (!box) return;
    box.classList.toggle("illegal", !meld.legal);
    box.append(verdictNote(meld));
  });
  const illegal = verdict.melds.filter((meld) => !meld.legal).length;
  const handDone = puzzle.given.goal !== "all" || puzzle.hand.length === 0;
  if (illegal === 0 && handDone && puzzle.history.length) {
    checkPuzzle();
  } else {
    const left = puzzle.hand.length;
    puzzleResult(illegal
      ? `${illegal} meld${illegal === 1 ? " is" : "s are"} not legal yet (outlined in red).`
      : left ? `Every meld is legal; ${left} card${left === 1 ? "" : "s"} still in your hand.` : "Every meld is legal.",
    illegal ? "bad" : "");
  }
}

async function checkPuzzle() {
  const sequence = ++puzzle.judged;
  puzzleResult("Checking…");
  try {
    const answer = await api("/api/puzzle/check", { ...puzzleBody(), answer: puzzle.melds });
    if (sequence !== puzzle.judged) return;
    const result = $("puzzle-result");
    result.innerHTML = "";
    if (answer.solution) {
      result.append(paragraph(`✓ Solved! This is the puzzle's one solution (${puzzle.history.length} moves).`, "summary good"));
      return;
    }
    const count = answer.reasons.length;
    result.append(paragraph(`✗ Not the solution yet (${count} reason${count === 1 ? "" : "s"}):`, "summary bad"));
    const list = document.createElement("ul");
    list.id = "puzzle-reasons";
    for (const reason of answer.reasons) {
      const item = document.createElement("li");
      item.dataset.code = reason.code;
      item.textContent = pretty(reason.message);
      list.append(item);
    }
    result.append(list);
  } catch (error) {
    if (sequence !== puzzle.judged) return;
    puzzleResult(pretty(error.message), "bad");
  }
}

// --- wiring ---------------------------------------------------------------------------------------

function setUpPuzzleMoves() {
  const board = $("puzzle-board");
  board.addEventListener("click", (event) => {
    const button = event.target.closest("button.movable");
    if (button) {
      if (puzzle.chosen && puzzle.chosen.from !== button.dataset.from && event.target.closest(".drop")) {
        // A tap on a card of another meld while one is chosen: the chosen card goes to that meld.
        movePuzzleCard(button.dataset.from);
        return;
      }
      const tapped = { from: button.dataset.from, index: Number(button.dataset.index) };
      const again = puzzle.chosen && puzzle.chosen.from === tapped.from && puzzle.chosen.index === tapped.index;
      puzzle.chosen = again ? null : tapped; // a second tap on the chosen card lets it go
      renderPuzzle();
      return;
    }
    const box = event.target.closest(".drop");
    if (box && puzzle.chosen) movePuzzleCard(box.dataset.meld);
  });
  board.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (event.target.classList.contains("drop") && puzzle.chosen) {
      event.preventDefault();
      movePuzzleCard(event.target.dataset.meld);
    }
  });
}

let puzzleReady = false;

function puzzleStart() {
  puzzleReady = true;
  setUpPuzzleMoves();
  $("puzzle-make").addEventListener("click", makePuzzle);
  $("puzzle-next").addEventListener("click", () => {
    $("puzzle-seed").value = String(Number($("puzzle-seed").value) + 1);
    makePuzzle();
  });
  $("puzzle-undo").addEventListener("click", undoPuzzle);
  $("puzzle-restart").addEventListener("click", restartPuzzle);
  $("puzzle-check").addEventListener("click", () => (puzzle.given ? checkPuzzle() : null));
  $("puzzle-joker").addEventListener("change", declarePuzzleJoker);
  $("puzzle-file").addEventListener("change", () => {
    const file = $("puzzle-file").files[0];
    if (file) openFile(file).catch((error) => puzzleStatus(pretty(error.message), "bad"));
  });
  $("puzzle-pick").addEventListener("change", () => {
    const index = Number($("puzzle-pick").value);
    openPuzzle(puzzle.file[index])
      .then(() => puzzleStatus(`Puzzle ${index + 1} of ${puzzle.file.length}.`, "good"))
      .catch((error) => puzzleStatus(pretty(error.message), "bad"));
  });
  const params = new URLSearchParams(PUZZLE_LINK);
  if (params.get("mode") === "puzzle" && params.get("table") !== null && params.get("hand") !== null) {
    const given = {};
    for (const key of ["rules", "players", "table", "hand", "goal", "level"]) {
      if (params.get(key) !== null) given[key] = params.get(key);
    }
    if (params.get("seed") !== null) given.seed = Number(params.get("seed"));
    if (given.level) $("puzzle-level").value = given.level;
    openPuzzle(given)
      .then(() => puzzleStatus("The puzzle of the link.", "good"))
      .catch((error) => puzzleStatus(`The link's puzzle cannot be read: ${pretty(error.message)}`, "bad"));
  } else {
    puzzleStatus("Choose a level and tap Get a puzzle: the server makes one with exactly one solution.");
  }
}

addMode("puzzle", {
  tab: "mode-puzzle",
  panel: "puzzle-panel",
  url: puzzleUrl,
  enter() {
    if (!puzzleReady) puzzleStart();
  },
});

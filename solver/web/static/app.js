// meldsat's page: pick a position, ask the server's API, show the answers as its SVG cards.
// Every card drawing comes from the server (meldsat.cardart), so the page and the puzzle sheet
// draw the same cards; the page only places, highlights and moves them.
"use strict";

const state = {
  rules: "manipulation",
  players: 4,
  objective: "points",
  initial: false, // the player has not made the initial meld yet (Rummikub's 30 points)
  table: [], // melds, each a list of pieces in notation ("7S", "*=7S")
  hand: [],
  mode: "hint",
  target: "hand", // where a tapped card goes: "hand" or a meld index
  declaring: false, // the next tapped card is what a joker stands for
  editPosition: false, // check mode shows the position to edit only when asked
};
let ruleSets = []; // name, notation and player range of each rule set
let ruleFields = {}; // every field of the chosen rule set (default players, initial meld, ...)
let deck = {}; // notation -> {label, svg}
const drawn = {}; // notation -> svg, from every drawing the server sent (declared jokers too)
let check = { melds: [], hand: [], chosen: null, moved: false };
let hintSteps = [];
let stepIndex = 0;
let validateSeq = 0;

const $ = (id) => document.getElementById(id);

// The page's modes besides the shared table's two ("hint", "check"): gin.js, puzzle.js (and any
// later screen) register theirs with addMode, each with its tab, its panel and what it does when
// chosen; while one is chosen the shared table's position and settings are hidden.
const extraModes = {};

function addMode(name, mode) {
  // mode: { tab: id of its tab button, panel: id of its panel, enter(): called when chosen,
  //         url(): its URLSearchParams (the URL holds what it shows),
  //         rules (optional): the rule sets it answers for instead of the shared table's modes,
  //         useRules(name) (with rules): be told which one was asked for }
  extraModes[name] = mode;
  $(mode.tab).addEventListener("click", () => setMode(name));
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const message = data.error ? data.error.message : `error ${response.status}`;
    throw new Error(message);
  }
  return data;
}

// --- the URL holds the position ---------------------------------------------------------------

function readUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("rules")) state.rules = params.get("rules");
  if (params.get("players")) state.players = Number(params.get("players"));
  if (params.get("mode")) state.mode = params.get("mode"); // checked by setMode
  if (params.get("objective") === "cards") state.objective = "cards";
  state.initial = params.get("initial") === "1";
  if (params.get("table")) state.table = splitTable(params.get("table"));
  if (params.get("hand")) state.hand = splitPieces(params.get("hand"));
}

function writeUrl() {
  if (extraModes[state.mode]) {
    history.replaceState(null, "", "#" + extraModes[state.mode].url().toString());
    return;
  }
  const params = new URLSearchParams({
    rules: state.rules,
    players: String(state.players),
    table: tableText(state.table),
    hand: state.hand.join(" "),
    mode: state.mode,
  });
  if (state.objective !== "points") params.set("objective", state.objective);
  if (state.initial) params.set("initial", "1");
  history.replaceState(null, "", "#" + params.toString());
}

function splitPieces(text) {
  return text.split(/[\s,]+/).filter((token) => token.length > 0);
}

function splitTable(text) {
  return text.split(/[|;\n]/).map(splitPieces).filter((meld) => meld.length > 0);
}

function tableText(melds) {
  return melds.filter((meld) => meld.length > 0).map((meld) => meld.join(" ")).join(" | ");
}

function position() {
  const body = {
    rules: state.rules,
    players: state.players,
    table: state.table.filter((meld) => meld.length > 0),
    hand: state.hand,
  };
  if (state.initial) body.initial = true;
  return body;
}

// --- drawing -----------------------------------------------------------------------------------

function remember(svgs) {
  for (const svg of svgs) {
    const match = /data-card="([^"]*)"/.exec(svg);
    if (match) drawn[match[1]] = svg;
  }
}

function svgFor(piece) {
  if (drawn[piece]) return drawn[piece];
  if (deck[piece]) return deck[piece].svg;
  const [mark, declared] = piece.split("=");
  // A declared joker not drawn yet: the joker's own drawing (it is one); anything else the page
  // does not know is never drawn as a card (acceptPieces refuses it before it gets here).
  if (declared !== undefined && deck[mark] && deck[declared]) return deck[mark].svg;
  return unknownSvg(piece);
}

function unknownSvg(piece) {
  const span = document.createElement("span");
  span.className = "unknown-card";
  span.textContent = piece;
  return span.outerHTML;
}

// --- typed cards: only the pieces of the deck, each error naming its token ---------------------

function acceptPiece(token, pieces) {
  // The piece of ``pieces`` (notation -> drawing) that ``token`` names, whatever its case, or null.
  const find = (text) => Object.keys(pieces).find((name) => name.toUpperCase() === text.toUpperCase());
  const [mark, declared, extra] = token.split("=");
  if (extra !== undefined) return null;
  const piece = find(mark);
  if (declared === undefined) return piece || null;
  const card = find(declared);
  if (!piece || !isJoker(piece) || !card || isJoker(card)) return null;
  return `${piece}=${card}`;
}

function acceptPieces(tokens, pieces, where, notation) {
  // Every token read as a piece, or an Error naming the first that is not one.
  const accepted = [];
  for (const token of tokens) {
    const piece = acceptPiece(token, pieces);
    if (piece === null) throw new Error(`${where}: ${unknownMessage(token, notation)}`);
    accepted.push(piece);
  }
  return accepted;
}

function unknownMessage(token, notation) {
  if (notation === "tiles") {
    return `unknown tile '${token}' (expected a colour k, b, o or r then a number, like r7, or the joker j)`;
  }
  return `unknown card '${token}' (expected rank then suit, like 10H or Q♠, or the joker *)`;
}

function labelFor(piece) {
  const [mark, declared] = piece.split("=");
  if (declared !== undefined) return `joker = ${deck[declared] ? deck[declared].label : declared}`;
  return deck[mark] ? deck[mark].label : piece;
}

function pretty(text) {
  // "7S leaves 7S 7H 7D 7C ...", "meld 3 '6D 7D 8D 10D'", "(missing 6S)" -> with suit symbols,
  // as on the cards, so a sentence never mixes the two notations.
  return text.replace(/(^|[^A-Za-z0-9])(10|[2-9AJQK])([SHDC])(?![A-Za-z0-9])/g, (all, before, rank, suit) =>
    before + rank + { S: "♠", H: "♥", D: "♦", C: "♣" }[suit]);
}

function cardsRow(svgs, extraClass) {
  const row = document.createElement("div");
  row.className = "cards" + (extraClass ? " " + extraClass : "");
  row.innerHTML = svgs.join("");
  return row;
}

// --- rule set and deck --------------------------------------------------------------------------

function modeOwning(rules) {
  // The mode that answers for these rules (gin's, say), or null: the shared table's then.
  const owner = Object.entries(extraModes).find(([, mode]) => (mode.rules || []).includes(rules));
  return owner ? owner[0] : null;
}

async function loadRules() {
  // The shared table's rule sets: those no other mode answers for (gin has its own mode).
  ruleSets = (await api("/api/rules")).rule_sets.filter((ruleSet) => !modeOwning(ruleSet.name));
  const owner = modeOwning(state.rules);
  if (owner) {
    // A link with gin's rules in a shared-table mode: its own mode answers it.
    extraModes[owner].useRules(state.rules);
    if (state.mode === "hint" || state.mode === "check") state.mode = owner;
  }
  const select = $("rules");
  select.innerHTML = "";
  for (const ruleSet of ruleSets) select.add(new Option(ruleSet.name, ruleSet.name));
  if (!ruleSets.some((ruleSet) => ruleSet.name === state.rules)) state.rules = "manipulation";
  select.value = state.rules;
  await loadRuleFields();
  fillPlayers(false);
}

async function loadRuleFields() {
  ruleFields = (await api(`/api/rules/${encodeURIComponent(state.rules)}`)).fields;
}

function currentRuleSet() {
  return ruleSets.find((ruleSet) => ruleSet.name === state.rules);
}

function fillPlayers(reset) {
  const ruleSet = currentRuleSet();
  const select = $("players");
  select.innerHTML = "";
  for (let count = ruleSet.min_players; count <= ruleSet.max_players; count++) {
    select.add(new Option(String(count), String(count)));
  }
  if (reset || state.players < ruleSet.min_players || state.players > ruleSet.max_players) {
    state.players = ruleFields.players;
  }
  select.value = String(state.players);
  // Only a game with an initial meld (Rummikub) asks whether it is still to make.
  $("initial-box").hidden = !ruleFields.initial_meld_points;
  if (!ruleFields.initial_meld_points) state.initial = false;
  $("initial").checked = state.initial;
}

async function loadDeck() {
  const cards = (await api(`/api/cards?rules=${encodeURIComponent(state.rules)}`)).cards;
  deck = {};
  const picker = $("picker");
  picker.innerHTML = "";
  for (const card of cards) {
    deck[card.text] = { label: card.label, svg: card.svg };
    picker.append(pickerButton(card, pick));
  }
}

// One card of a picker (check mode's and gin mode's): tapping it calls ``onPick(text)``.
function pickerButton(card, onPick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "pick";
  button.dataset.card = card.text;
  button.setAttribute("aria-label", `add ${card.label}`);
  button.innerHTML = card.svg;
  button.addEventListener("click", () => onPick(card.text));
  return button;
}

// --- entering the position ------------------------------------------------------------------------

function isJoker(piece) {
  return piece === "*" || piece === "j" || piece.startsWith("*=") || piece.startsWith("j=");
}

function pick(piece) {
  if (state.declaring) {
    state.declaring = false;
    $("declare-note").hidden = true;
    if (isJoker(piece)) return;
    const mark = currentRuleSet().notation === "tiles" ? "j" : "*";
    addPiece(`${mark}=${piece}`);
    return;
  }
  if (isJoker(piece) && state.target !== "hand") {
    // A joker on the table says which card it stands for: the next tap names it.
    state.declaring = true;
    $("declare-note").hidden = false;
    return;
  }
  addPiece(piece);
}

function addPiece(piece) {
  if (state.target === "hand") state.hand.push(piece);
  else state.table[state.target].push(piece);
  changed();
}

function removePiece(where, index) {
  if (where === "hand") state.hand.splice(index, 1);
  else state.table[where].splice(index, 1);
  changed();
}

function setTarget(where) {
  state.target = where;
  $("target-name").textContent = where === "hand" ? "your hand" : `meld ${where + 1} on the table`;
  renderPosition(null);
}

function followPosition() {
  // Check mode starts from the position: until the player moves a card, it follows every edit.
  if (state.mode === "check" && !check.moved) startCheck();
}

function changed() {
  followPosition();
  writeUrl();
  $("table-text").value = tableText(state.table);
  $("hand-text").value = state.hand.join(" ");
  renderPosition(null);
  refreshPosition();
}

async function refreshPosition() {
  // Ask the server to judge and draw the position; only the latest answer counts.
  const sequence = ++validateSeq;
  const status = $("position-status");
  const body = position();
  if (body.table.length === 0 && body.hand.length === 0) {
    status.textContent = "Pick the cards on the table and in your hand.";
    return;
  }
  try {
    const answer = await api("/api/validate?draw=1", body);
    if (sequence !== validateSeq) return;
    remember(answer.drawing.table.flat());
    remember(answer.drawing.hand);
    const filled = state.table.map((meld, index) => [meld, index]).filter(([meld]) => meld.length);
    // Adopt the checker's canonical order, with forced jokers declared.
    answer.melds.forEach((meld, k) => { state.table[filled[k][1]] = meld.cards.slice(); });
    $("table-text").value = tableText(state.table);
    writeUrl();
    followPosition();
    renderPosition(answer);
    status.className = answer.legal ? "good" : "bad";
    status.textContent = answer.legal
      ? `The table is legal (${answer.rules}, ${answer.players} players).`
      : "Not a legal table yet: " + [
        ...answer.melds.filter((meld) => !meld.legal).map((meld) => meld.reason),
        ...answer.problems,
      ].map(pretty).join("; ");
  } catch (error) {
    if (sequence !== validateSeq) return;
    status.className = "bad";
    status.textContent = pretty(error.message);
  }
}

function renderPosition(answer) {
  const melds = $("table-melds");
  melds.innerHTML = "";
  let filledIndex = 0;
  state.table.forEach((meld, index) => {
    const box = document.createElement("div");
    box.className = "meld-box target" + (state.target === index ? " active" : "");
    box.dataset.meld = String(index);
    box.tabIndex = 0;
    box.setAttribute("role", "button");
    box.setAttribute("aria-label", `meld ${index + 1}: tap to add cards here`);
    const verdict = answer && meld.length ? answer.melds[filledIndex++] : null;
    box.append(placedCards(meld, index));
    if (verdict) box.append(verdictNote(verdict));
    whenChosen(box, () => setTarget(index));
    melds.append(box);
  });
  const hand = $("hand-cards");
  hand.classList.toggle("active", state.target === "hand");
  hand.setAttribute("aria-label", "your hand: tap to add cards here");
  hand.innerHTML = "";
  hand.append(placedCards(state.hand, "hand"));
}

function verdictNote(verdict) {
  // A meld's verdict from /api/validate: "✓ sequence", or "✗" and the reason in card symbols.
  const note = document.createElement("span");
  note.className = "verdict " + (verdict.legal ? "good" : "bad");
  note.textContent = verdict.legal ? `✓ ${verdict.kind}` : `✗ ${pretty(verdict.reason)}`;
  return note;
}

function whenChosen(box, choose) {
  // A box the player picks as where cards go: a tap on it (not on a placed card), Enter or Space.
  box.addEventListener("click", (event) => {
    if (!event.target.closest(".placed")) choose();
  });
  box.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target === box) {
      event.preventDefault();
      choose();
    }
  });
}

function cardButton(piece, className, label) {
  // A card the player acts on: a button (so Tab and Enter reach it) holding the server's drawing.
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.dataset.card = piece;
  button.setAttribute("aria-label", label);
  button.innerHTML = svgFor(piece);
  return button;
}

function placedCards(pieces, where) {
  const row = document.createElement("div");
  row.className = "cards";
  pieces.forEach((piece, index) => {
    const button = cardButton(piece, "placed", `take back ${labelFor(piece)}`);
    button.addEventListener("click", () => removePiece(where, index));
    row.append(button);
  });
  return row;
}

// --- the best play --------------------------------------------------------------------------------

async function askAndShow(resultId, waiting, path, body, show) {
  // Ask the API; show its answer, or its error message, in the result area.
  const result = $(resultId);
  result.innerHTML = "";
  result.append(paragraph(waiting));
  try {
    show(await api(path, body));
  } catch (error) {
    result.innerHTML = "";
    result.append(paragraph(pretty(error.message), "bad"));
  }
}

function getHint() {
  const body = { ...position(), objective: state.objective };
  return askAndShow("hint-result", "Thinking…", "/api/hint?draw=1", body, showHint);
}

function paragraph(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

function heading(text) {
  const h = document.createElement("h3");
  h.textContent = text;
  return h;
}

function showHint(answer) {
  const result = $("hint-result");
  result.innerHTML = "";
  const drawing = answer.drawing;
  remember(drawing.after.flat());
  if (answer.status === "no_move" || answer.status === "unknown") {
    result.append(paragraph(answer.status === "no_move"
      ? "No legal play: your hand cannot be added to this table."
      : "The time limit ran out before a play was found.", "bad"));
    return;
  }
  const proven = answer.status === "optimal" ? "The best play, proven" : "A good play (the time ran out before the proof)";
  const played = answer.play.map(labelFor).join(" ");
  result.append(paragraph(
    `${proven}: play ${played} (${answer.cards_played} cards, ${answer.points_played} points).`,
    answer.status === "optimal" ? "good summary" : "summary"));

  const views = document.createElement("div");
  views.className = "views";
  views.append(tableView("Before", "before", drawing.before, drawing.hand, "Your hand", [], []));
  views.append(tableView("After", "after", drawing.after, drawing.hand_left, "Hand left",
    answer.changed_melds, answer.new_melds));
  result.append(views);

  const left = `${answer.hand_points_left} points left in hand` + (answer.can_knock ? " (you can knock)" : "");
  result.append(paragraph(left));
  if (drawing.jokers.length) {
    result.append(heading("Jokers"));
    const list = document.createElement("ul");
    for (const joker of drawing.jokers) {
      const item = document.createElement("li");
      item.textContent = `meld ${joker.meld + 1}: the ${joker.label}`;
      list.append(item);
    }
    result.append(list);
  }
  hintSteps = drawing.steps;
  stepIndex = 0;
  if (hintSteps.length) result.append(stepsView());
  showStep();
}

function tableView(title, name, melds, hand, handTitle, changedMelds, newMelds) {
  const view = document.createElement("div");
  view.className = "view";
  view.dataset.view = name;
  view.append(heading(title));
  melds.forEach((svgs, index) => {
    const box = document.createElement("div");
    box.className = "meld-box";
    box.dataset.meld = String(index);
    box.append(cardsRow(svgs));
    if (newMelds.includes(index)) box.append(tag("new", "new"));
    else if (changedMelds.includes(index)) box.append(tag("changed", "changed"));
    view.append(box);
  });
  const handBox = document.createElement("div");
  handBox.className = "meld-box hand";
  handBox.dataset.meld = "-1";
  handBox.append(paragraph(handTitle, "label"));
  handBox.append(cardsRow(hand.length ? hand : []));
  view.append(handBox);
  return view;
}

function tag(text, className) {
  const span = document.createElement("span");
  span.className = "tag " + className;
  span.textContent = text;
  return span;
}

function stepsView() {
  const box = document.createElement("div");
  box.className = "steps";
  box.append(heading("Step by step"));
  const list = document.createElement("ol");
  list.id = "step-list";
  hintSteps.forEach((step, index) => {
    const item = document.createElement("li");
    item.textContent = pretty(step.text);
    item.addEventListener("click", () => { stepIndex = index; showStep(); });
    list.append(item);
  });
  box.append(list);
  const controls = document.createElement("p");
  controls.className = "step-controls";
  controls.innerHTML = '<button type="button" id="step-prev">◀ Previous</button> ' +
    '<span id="step-count" aria-live="polite"></span> <button type="button" id="step-next">Next ▶</button>';
  box.append(controls);
  controls.querySelector("#step-prev").addEventListener("click", () => moveStep(-1));
  controls.querySelector("#step-next").addEventListener("click", () => moveStep(1));
  return box;
}

function moveStep(delta) {
  stepIndex = Math.min(hintSteps.length - 1, Math.max(0, stepIndex + delta));
  showStep();
}

function showStep() {
  const result = $("hint-result");
  for (const card of result.querySelectorAll("svg.card.highlight")) card.classList.remove("highlight");
  if (!hintSteps.length) return;
  const step = hintSteps[stepIndex];
  highlight("before", step.before);
  highlight("after", step.after);
  $("step-count").textContent = `step ${stepIndex + 1} of ${hintSteps.length}`;
  $("step-prev").disabled = stepIndex === 0;
  $("step-next").disabled = stepIndex === hintSteps.length - 1;
  $("step-list").querySelectorAll("li").forEach((item, index) => {
    item.classList.toggle("current", index === stepIndex);
    if (index === stepIndex) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  });
}

function highlight(view, places) {
  const root = document.querySelector(`#hint-result [data-view="${view}"]`);
  for (const [meld, index] of places) {
    const box = root.querySelector(`.meld-box[data-meld="${meld}"]`);
    const card = box ? box.querySelectorAll("svg.card")[index] : null;
    if (card) card.classList.add("highlight");
  }
}

// --- check a move: move cards between melds ----------------------------------------------------------

function startCheck() {
  check = {
    melds: state.table.filter((meld) => meld.length).map((meld) => meld.slice()),
    hand: state.hand.slice(),
    chosen: null,
    moved: false,
  };
  $("check-result").innerHTML = "";
  renderCheck();
}

function renderCheck() {
  const melds = $("check-melds");
  melds.innerHTML = "";
  check.melds.forEach((meld, index) => {
    const box = meldDropBox(index);
    box.append(movableCards(meld, index));
    melds.append(box);
  });
  const hand = $("check-hand");
  hand.innerHTML = "";
  hand.append(movableCards(check.hand, "hand"));
  showJokerChoice();
}

function chosenPiece() {
  return chosenOf(check);
}

function chosenOf(board) {
  // The piece a board ({melds, hand, chosen: {from, index}}) has chosen, or null.
  if (!board.chosen) return null;
  const source = board.chosen.from === "hand" ? board.hand : board.melds[Number(board.chosen.from)];
  return source ? source[board.chosen.index] : null;
}

function showJokerChoice() {
  // A joker chosen on the table can be told which card it stands for (where its meld leaves a choice).
  offerJokerCards(check, $("joker-box"), $("joker-card"), deck);
}

function offerJokerCards(board, box, select, pieces) {
  // Show ``box`` with ``select`` listing every card of ``pieces`` while a table joker is chosen.
  const piece = chosenOf(board);
  box.hidden = !(piece && isJoker(piece) && board.chosen.from !== "hand");
  if (box.hidden) return;
  select.innerHTML = "";
  select.add(new Option("whatever its meld needs", ""));
  for (const [text, card] of Object.entries(pieces)) {
    if (!isJoker(text)) select.add(new Option(card.label, text));
  }
  select.value = piece.includes("=") ? piece.split("=")[1] : "";
}

function declareChosen() {
  const piece = chosenPiece();
  if (!piece || !isJoker(piece)) return;
  const mark = piece.startsWith("j") ? "j" : "*";
  const card = $("joker-card").value;
  check.melds[Number(check.chosen.from)][check.chosen.index] = card ? `${mark}=${card}` : mark;
  renderCheck();
}

function movableCards(pieces, where) {
  const row = document.createElement("div");
  row.className = "cards";
  pieces.forEach((piece, index) => {
    const button = cardButton(piece, "movable", `${labelFor(piece)}: choose to move`);
    button.dataset.from = String(where);
    button.dataset.index = String(index);
    const chosen = check.chosen && check.chosen.from === String(where) && check.chosen.index === index;
    button.setAttribute("aria-pressed", chosen ? "true" : "false");
    row.append(button);
  });
  return row;
}

function choose(button) {
  check.chosen = { from: button.dataset.from, index: Number(button.dataset.index) };
  renderCheck();
  const again = document.querySelector(
    `#check-panel button.movable[data-from="${check.chosen.from}"][data-index="${check.chosen.index}"]`);
  if (again) again.focus();
}

// A meld of a table whose cards move by tap-then-target (check mode, puzzles): the target box.
function meldDropBox(index) {
  const box = document.createElement("div");
  box.className = "meld-box drop";
  box.dataset.meld = String(index);
  box.tabIndex = 0;
  box.setAttribute("role", "button");
  box.setAttribute("aria-label", `meld ${index + 1}: move the chosen card here`);
  return box;
}

// Move card ``index`` of ``from`` ("hand" or a meld's number) to ``to`` ("hand", "new" or a
// meld's number) in ``zone`` (its ``hand`` and ``melds``; check mode's and the game's), dropping
// melds left empty. False when there is nothing to move.
function movePiece(zone, from, index, to) {
  const source = from === "hand" ? zone.hand : zone.melds[Number(from)];
  if (!source || index >= source.length || String(to) === from) return false;
  let [piece] = source.splice(index, 1);
  // A joker that changes meld stands for whatever its new meld needs: the checker derives it.
  if (isJoker(piece) && to !== "hand") piece = piece.startsWith("j") ? "j" : "*";
  placePiece(zone, piece, to);
  zone.chosen = null;
  zone.moved = true;
  return true;
}

// Put ``piece`` in ``to`` ("hand", "new" or a meld's number) of ``zone``; drop empty melds.
function placePiece(zone, piece, to) {
  if (to === "hand") zone.hand.push(piece);
  else if (to === "new") zone.melds.push([piece]);
  else zone.melds[Number(to)].push(piece);
  zone.melds = zone.melds.filter((meld) => meld.length > 0);
}

function moveCard(from, index, to) {
  if (movePiece(check, from, index, to)) renderCheck();
}

function dropTarget(element) {
  const box = element ? element.closest("#check-panel .drop") : null;
  return box ? box.dataset.meld : null;
}

// Dragging the cards of ``panel`` (buttons matching ``selector`` that ``canDrag``): a copy follows
// the pointer, and on release ``drop(button, the element under the pointer)``. A tap stays a click
// (chosen by the panel's click handler); the click that follows a drag is marked on the panel
// (``dataset.dragged``) so that the handler can tell it from a tap. Check mode and the game share it.
function enableDragging(panel, selector, ghostClass, canDrag, drop) {
  let drag = null;
  panel.addEventListener("pointerdown", (event) => {
    delete panel.dataset.dragged; // a click follows a drag only sometimes: forget the last one
    const button = event.target.closest(selector);
    if (!button || !canDrag(button)) return;
    drag = { button, x: event.clientX, y: event.clientY, ghost: null };
  });
  panel.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.ghost && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) {
      drag.ghost = drag.button.cloneNode(true);
      drag.ghost.className = ghostClass;
      document.body.append(drag.ghost);
      drag.button.classList.add("dragging");
    }
    if (drag.ghost) {
      event.preventDefault();
      drag.ghost.style.left = `${event.clientX - 20}px`;
      drag.ghost.style.top = `${event.clientY - 30}px`;
    }
  });
  document.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const { button, ghost } = drag;
    drag = null;
    if (!ghost) return; // a tap: the click handler chooses the card
    ghost.remove();
    button.classList.remove("dragging");
    drop(button, document.elementFromPoint(event.clientX, event.clientY));
    panel.dataset.dragged = "1"; // the click that follows a drag is not a tap
  });
  document.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) { drag.ghost.remove(); drag.button.classList.remove("dragging"); }
    drag = null;
  });
}

function setUpDragging() {
  const panel = $("check-panel");
  enableDragging(panel, "button.movable", "movable ghost", () => true, (button, under) => {
    const to = dropTarget(under);
    if (to !== null) moveCard(button.dataset.from, Number(button.dataset.index), to);
  });
  panel.addEventListener("click", (event) => {
    if (panel.dataset.dragged) { delete panel.dataset.dragged; return; }
    const button = event.target.closest("button.movable");
    if (button) { choose(button); return; }
    const to = dropTarget(event.target);
    if (to !== null && check.chosen) moveCard(check.chosen.from, check.chosen.index, to);
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const to = event.target.classList.contains("drop") ? event.target.dataset.meld : null;
    if (to !== null && check.chosen) {
      event.preventDefault();
      moveCard(check.chosen.from, check.chosen.index, to);
    }
  });
}

function checkMove() {
  const body = { ...position(), after: check.melds };
  return askAndShow("check-result", "Checking…", "/api/check?draw=1", body, showCheck);
}

function showCheck(answer) {
  const result = $("check-result");
  result.innerHTML = "";
  remember(answer.drawing.table.flat());
  const count = answer.reasons.length;
  result.append(paragraph(answer.legal ? "✓ A legal move." :
    `✗ Illegal (${count} reason${count === 1 ? "" : "s"}):`, answer.legal ? "good summary" : "bad summary"));
  const played = answer.played.length ? answer.played.map(labelFor).join(" ") : "nothing";
  result.append(paragraph(`Played from the hand: ${played}.`));
  if (count) {
    const list = document.createElement("ul");
    list.id = "reasons";
    for (const reason of answer.reasons) {
      const item = document.createElement("li");
      item.dataset.code = reason.code;
      item.textContent = `${reason.code}: ${pretty(reason.message)}`;
      list.append(item);
    }
    result.append(list);
  }
  const view = document.createElement("div");
  view.className = "view";
  view.append(heading("The table after your move"));
  result.scrollIntoView({ block: "nearest" });
  answer.drawing.table.forEach((svgs, index) => {
    const box = document.createElement("div");
    box.className = "meld-box" + (answer.drawing.legal[index] ? "" : " illegal");
    box.append(cardsRow(svgs));
    if (!answer.drawing.legal[index]) box.append(tag("illegal", "bad"));
    view.append(box);
  });
  result.append(view);
}

// --- wiring -------------------------------------------------------------------------------------------

function setMode(mode) {
  if (mode !== "hint" && mode !== "check" && !extraModes[mode]) mode = "hint";
  state.mode = mode;
  const panels = { hint: "hint-panel", check: "check-panel" };
  const tabs = { hint: "mode-hint", check: "mode-check" };
  for (const [name, extra] of Object.entries(extraModes)) {
    panels[name] = extra.panel;
    tabs[name] = extra.tab;
  }
  for (const name of Object.keys(panels)) {
    $(tabs[name]).setAttribute("aria-selected", String(name === mode));
    $(panels[name]).hidden = name !== mode;
  }
  // The shared table's settings and position belong to its two modes; in check mode the
  // position folds away (its answer then shows without scrolling) until asked for.
  const shared = mode === "hint" || mode === "check";
  for (const id of ["shared-settings"]) $(id).hidden = !shared;
  $("position").hidden = mode === "check" ? !state.editPosition : !shared;
  $("edit-position").setAttribute("aria-expanded", String(Boolean(state.editPosition)));
  if (mode === "check") startCheck();
  if (extraModes[mode]) extraModes[mode].enter();
  writeUrl();
}

async function changeRules() {
  const before = currentRuleSet().notation;
  state.rules = $("rules").value;
  await loadRuleFields();
  fillPlayers(true);
  if (currentRuleSet().notation !== before) {
    state.table = [];
    state.hand = [];
    state.target = "hand";
  }
  await loadDeck();
  changed();
}

function readTyped() {
  const notation = currentRuleSet().notation;
  let table;
  let hand;
  try {
    table = splitTable($("table-text").value).map((meld) => acceptPieces(meld, deck, "Table", notation));
    hand = acceptPieces(splitPieces($("hand-text").value), deck, "Hand", notation);
  } catch (error) {
    // Nothing is drawn from a typed text the page cannot read: the position stays as it was.
    validateSeq++;
    $("position-status").className = "bad";
    $("position-status").textContent = error.message;
    return;
  }
  state.table = table;
  state.hand = hand;
  if (state.target !== "hand" && state.target >= state.table.length) setTarget("hand");
  writeUrl();
  renderPosition(null);
  refreshPosition();
}

function dropUnknownPieces() {
  // A position from the URL keeps only the pieces of the deck; the first other is named.
  const notation = currentRuleSet().notation;
  try {
    state.table.forEach((meld) => acceptPieces(meld, deck, "Table", notation));
    acceptPieces(state.hand, deck, "Hand", notation);
    state.table = state.table.map((meld) => meld.map((token) => acceptPiece(token, deck)));
    state.hand = state.hand.map((token) => acceptPiece(token, deck));
    return "";
  } catch (error) {
    state.table = state.table.map((meld) => meld.map((token) => acceptPiece(token, deck)).filter(Boolean));
    state.hand = state.hand.map((token) => acceptPiece(token, deck)).filter(Boolean);
    return `The link held a piece this page does not know, left out: ${error.message}`;
  }
}

async function start() {
  readUrl();
  await loadRules();
  await loadDeck();
  const dropped = dropUnknownPieces();
  $("rules").addEventListener("change", changeRules);
  $("players").addEventListener("change", () => { state.players = Number($("players").value); changed(); });
  $("objective").value = state.objective;
  $("objective").addEventListener("change", () => { state.objective = $("objective").value; writeUrl(); });
  $("initial").addEventListener("change", () => { state.initial = $("initial").checked; changed(); });
  $("mode-hint").addEventListener("click", () => setMode("hint"));
  $("mode-check").addEventListener("click", () => setMode("check"));
  $("new-meld").addEventListener("click", () => {
    state.table.push([]);
    setTarget(state.table.length - 1);
  });
  $("hand-cards").addEventListener("click", (event) => {
    if (!event.target.closest(".placed")) setTarget("hand");
  });
  $("hand-cards").addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && event.target.id === "hand-cards") {
      event.preventDefault();
      setTarget("hand");
    }
  });
  $("declare-cancel").addEventListener("click", () => { state.declaring = false; $("declare-note").hidden = true; });
  $("table-text").addEventListener("change", readTyped);
  $("hand-text").addEventListener("change", readTyped);
  $("clear").addEventListener("click", () => { state.table = []; state.hand = []; setTarget("hand"); changed(); });
  $("get-hint").addEventListener("click", getHint);
  $("check-reset").addEventListener("click", startCheck);
  $("check-move").addEventListener("click", checkMove);
  $("joker-card").addEventListener("change", declareChosen);
  $("edit-position").addEventListener("click", () => {
    state.editPosition = !state.editPosition;
    setMode(state.mode);
  });
  setUpDragging();
  changed();
  setMode(state.mode);
  if (dropped) {
    validateSeq++;
    $("position-status").className = "bad";
    $("position-status").textContent = dropped;
  }
  document.body.dataset.ready = "1";
}

start().catch((error) => {
  $("position-status").className = "bad";
  $("position-status").textContent = "The page could not start: " + error.message;
});

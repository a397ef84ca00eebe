// meldsat's page, gin mode (gin, Oklahoma, Hollywood): pick a hand and the upcard and get the
// answer of `meldsat deadwood` (/api/deadwood), or the knocker's melds and the other hand and get
// the answer of `meldsat layoff` (/api/layoff). The page only places the cards and draws the
// answers; every number comes from the server. Uses app.js's helpers ($, api, pretty, cardsRow,
// paragraph, heading, acceptPieces, addMode).
"use strict";

const gin = {
  rules: "gin",
  view: "hand", // "hand": best discard and draw advice; "knock": settle a knock
  hand: [], // 10 or 11 cards
  upcard: [], // none or one
  melds: [[]], // the knocker's melds
  deadwood: [], // the knocker's deadwood cards
  defender: [], // the other player's 10 cards
  target: "hand", // the box a tapped card goes to: a zone name, or "meld:N"
  deck: {}, // notation -> {label, svg}
  asked: 0, // only the latest answer is shown
  lastAnswer: null,
};

const GIN_ZONES = {
  hand: { title: "Your hand (10 or 11 cards)", max: 11 },
  upcard: { title: "The upcard (face up on the discard pile; optional)", max: 1 },
  deadwood: { title: "The knocker's deadwood (the cards in no meld)", max: 10 },
  defender: { title: "The other hand (10 cards): its melds and layoffs are found for it", max: 10 },
};

function ginZone(target) {
  if (target.startsWith("meld:")) return gin.melds[Number(target.slice(5))];
  return gin[target];
}

function ginTargetName(target) {
  if (target.startsWith("meld:")) return `the knocker's meld ${Number(target.slice(5)) + 1}`;
  return { hand: "your hand", upcard: "the upcard", deadwood: "the knocker's deadwood", defender: "the other hand" }[target];
}

function ginTargets() {
  if (gin.view === "hand") return ["hand", "upcard"];
  // Oklahoma's knock limit is the first upcard's value: the knock needs it.
  const first = gin.rules === "oklahoma-gin" ? ["upcard"] : [];
  return [...gin.melds.map((meld, index) => `meld:${index}`), "deadwood", "defender", ...first];
}

function ginUsed() {
  // Gin is played with one deck: a card is in one place at most.
  return new Set(ginTargets().flatMap((target) => ginZone(target)));
}

function ginLabel(card) {
  return gin.deck[card] ? gin.deck[card].label : card;
}

function ginSvgs(cards) {
  return cards.map((card) => (gin.deck[card] ? gin.deck[card].svg : unknownSvg(card)));
}

// --- the URL holds the hand ------------------------------------------------------------------------

function ginUrl() {
  const params = new URLSearchParams({ mode: "gin", rules: gin.rules, view: gin.view });
  if (gin.view === "hand") {
    params.set("hand", gin.hand.join(" "));
    if (gin.upcard.length) params.set("upcard", gin.upcard.join(" "));
  } else {
    params.set("melds", tableText(gin.melds));
    params.set("deadwood", gin.deadwood.join(" "));
    params.set("defender", gin.defender.join(" "));
    if (gin.upcard.length && gin.rules === "oklahoma-gin") params.set("upcard", gin.upcard.join(" "));
  }
  return params;
}

// The link as it was opened (the page rewrites the URL as it starts).
const GIN_LINK = location.hash.slice(1);

function ginReadUrl() {
  const params = new URLSearchParams(GIN_LINK);
  if (params.get("mode") !== "gin") return "";
  if (GIN_RULES.includes(params.get("rules"))) gin.rules = params.get("rules");
  if (params.get("view") === "knock") gin.view = "knock";
  try {
    gin.hand = acceptPieces(splitPieces(params.get("hand") || ""), gin.deck, "Hand", "cards");
    gin.upcard = acceptPieces(splitPieces(params.get("upcard") || ""), gin.deck, "Upcard", "cards");
    gin.melds = splitTable(params.get("melds") || "").map((meld) => acceptPieces(meld, gin.deck, "Knocker's melds", "cards"));
    if (!gin.melds.length) gin.melds = [[]];
    gin.deadwood = acceptPieces(splitPieces(params.get("deadwood") || ""), gin.deck, "Knocker's deadwood", "cards");
    gin.defender = acceptPieces(splitPieces(params.get("defender") || ""), gin.deck, "Other hand", "cards");
  } catch (error) {
    return error.message;
  }
  gin.target = gin.view === "hand" ? "hand" : "defender";
  return "";
}

// --- placing cards --------------------------------------------------------------------------------

function ginPick(card) {
  const zone = ginZone(gin.target);
  if (ginUsed().has(card)) return;
  const limit = gin.target.startsWith("meld:") ? 10 : GIN_ZONES[gin.target].max;
  if (gin.target === "upcard") zone.length = 0; // a new upcard replaces the old
  else if (zone.length >= limit) {
    ginStatus(`${ginTargetName(gin.target)} holds at most ${limit} cards: take one back first.`);
    return;
  }
  zone.push(card);
  ginChanged();
}

function ginTake(target, index) {
  ginZone(target).splice(index, 1);
  ginChanged();
}

function ginSetTarget(target) {
  gin.target = target;
  ginRender();
}

function ginStatus(text) {
  const result = $("gin-result");
  result.innerHTML = "";
  result.append(paragraph(text, "bad"));
}

function ginChanged() {
  writeUrl();
  ginRender();
  ginFillTyping();
  // A complete hand is answered at once; the knock waits for its button (the melds come first).
  if (gin.view === "hand" && (gin.hand.length === 10 || gin.hand.length === 11)) ginAsk();
  else if (gin.view === "hand") ginPrompt();
}

function ginPrompt() {
  const result = $("gin-result");
  result.innerHTML = "";
  const count = gin.hand.length;
  result.append(paragraph(count < 10
    ? `Pick your hand: ${count} of 10 or 11 cards so far.`
    : "A gin hand has 10 cards (11 after the draw): take a card back."));
}

function ginRender() {
  const zones = $("gin-zones");
  zones.innerHTML = "";
  for (const target of ginTargets()) {
    const box = document.createElement("div");
    box.className = "meld-box target" + (gin.target === target ? " active" : "");
    box.dataset.zone = target;
    box.tabIndex = 0;
    box.setAttribute("role", "button");
    box.setAttribute("aria-label", `${ginTargetName(target)}: tap to add cards here`);
    const title = target.startsWith("meld:") ? `The knocker's meld ${Number(target.slice(5)) + 1}`
      : target === "upcard" && gin.view === "knock" ? "The first upcard (in Oklahoma it sets the knock limit)"
        : GIN_ZONES[target].title;
    box.append(paragraph(title, "label"));
    const row = document.createElement("div");
    row.className = "cards";
    ginZone(target).forEach((card, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "placed";
      button.dataset.card = card;
      button.setAttribute("aria-label", `take back ${ginLabel(card)}`);
      button.innerHTML = ginSvgs([card])[0];
      button.addEventListener("click", () => ginTake(target, index));
      row.append(button);
    });
    box.append(row);
    whenChosen(box, () => ginSetTarget(target));
    zones.append(box);
  }
  if (gin.view === "knock") {
    const add = document.createElement("button");
    add.type = "button";
    add.id = "gin-new-meld";
    add.textContent = "+ Another meld of the knocker";
    add.addEventListener("click", () => {
      gin.melds.push([]);
      ginSetTarget(`meld:${gin.melds.length - 1}`);
    });
    zones.append(add);
  }
  $("gin-target-name").textContent = ginTargetName(gin.target);
  const used = ginUsed();
  for (const button of $("gin-picker").querySelectorAll("button.pick")) {
    button.disabled = used.has(button.dataset.card);
  }
  $("gin-view-hand").setAttribute("aria-selected", String(gin.view === "hand"));
  $("gin-view-knock").setAttribute("aria-selected", String(gin.view === "knock"));
  $("gin-ask").textContent = gin.view === "hand" ? "Get the best discard" : "Settle the knock";
  $("gin-help").textContent = gin.view === "hand"
    ? "Tap the cards of your hand below. With 11 cards (after your draw) you get the discard to make; with 10 and the upcard, whether to take it or draw from the stock."
    : "The knocker lays down melds and deadwood; the other player lays off what fits. Tap the knocker's melds and deadwood, then the other hand.";
}

// --- typing ---------------------------------------------------------------------------------------

function ginFields() {
  if (gin.view === "hand") return [["hand", "Hand"], ["upcard", "Upcard"]];
  const fields = [["melds", "Knocker's melds"], ["deadwood", "Knocker's deadwood"], ["defender", "Other hand"]];
  return gin.rules === "oklahoma-gin" ? [...fields, ["upcard", "First upcard"]] : fields;
}

function ginFillTyping() {
  const box = $("gin-typing-fields");
  const key = `${gin.view} ${gin.rules}`; // the fields differ by view, and in Oklahoma's knock
  if (box.dataset.view !== key) {
    box.innerHTML = "";
    for (const [name, title] of ginFields()) {
      const label = document.createElement("label");
      label.textContent = title + " ";
      const input = document.createElement("input");
      input.id = `gin-text-${name}`;
      input.autocomplete = "off";
      input.spellcheck = false;
      input.addEventListener("change", ginReadTyped);
      label.append(input);
      box.append(label);
    }
    box.dataset.view = key;
  }
  for (const [name] of ginFields()) {
    $(`gin-text-${name}`).value = name === "melds" ? tableText(gin.melds) : gin[name].join(" ");
  }
}

function ginReadTyped() {
  const read = {};
  try {
    for (const [name, title] of ginFields()) {
      const text = $(`gin-text-${name}`).value;
      read[name] = name === "melds"
        ? splitTable(text).map((meld) => acceptPieces(meld, gin.deck, title, "cards"))
        : acceptPieces(splitPieces(text), gin.deck, title, "cards");
    }
    const seen = new Set();
    for (const card of Object.values(read).flat(2)) {
      if (seen.has(card)) throw new Error(`${ginLabel(card)} is typed twice: gin has one deck`);
      seen.add(card);
    }
    if (read.upcard && read.upcard.length > 1) throw new Error("Upcard: one card at most");
  } catch (error) {
    // A text the page cannot read changes nothing on the screen: the error names the token.
    gin.asked++;
    ginStatus(error.message);
    return;
  }
  Object.assign(gin, read);
  if (gin.view === "knock" && !gin.melds.length) gin.melds = [[]];
  if (!ginTargets().includes(gin.target)) gin.target = ginTargets()[0];
  ginChanged();
}

// --- the answers ----------------------------------------------------------------------------------

async function ginAsk(explicit) {
  const sequence = ++gin.asked;
  const result = $("gin-result");
  result.innerHTML = "";
  result.append(paragraph("Thinking…"));
  const knock = gin.view === "knock";
  const body = knock
    ? { rules: gin.rules, melds: gin.melds.filter((meld) => meld.length), knocker_deadwood: gin.deadwood, hand: gin.defender }
    : { rules: gin.rules, hand: gin.hand };
  if (knock && !body.knocker_deadwood.length) body.knocker_deadwood = null;
  if (gin.upcard.length && (!knock || gin.rules === "oklahoma-gin")) body.upcard = gin.upcard[0];
  try {
    const answer = await api(knock ? "/api/layoff" : "/api/deadwood", body);
    if (sequence !== gin.asked) return;
    gin.lastAnswer = answer;
    result.innerHTML = "";
    if (knock) showLayoff(answer);
    else showDeadwood(answer);
    // On a phone the answer is below the picker: bring it up once the hand is complete.
    if (knock || gin.hand.length === 11 || explicit === true) result.scrollIntoView({ block: "nearest" });
  } catch (error) {
    if (sequence !== gin.asked) return;
    ginStatus(pretty(error.message));
  }
}

function cardNames(cards) {
  return cards.map(ginLabel).join(" ");
}

function meldsView(title, melds, deadwoodCards, deadwood, extra) {
  const view = document.createElement("div");
  view.className = "view";
  view.append(heading(title));
  melds.forEach((meld, index) => {
    const box = document.createElement("div");
    box.className = "meld-box";
    box.dataset.meld = String(index);
    box.append(paragraph(`meld ${index + 1}`, "label"));
    box.append(cardsRow(ginSvgs(meld)));
    if (extra && extra[index]) box.append(extra[index]);
    view.append(box);
  });
  const dead = document.createElement("div");
  dead.className = "meld-box hand deadwood";
  dead.append(paragraph(`deadwood: ${deadwood} point${deadwood === 1 ? "" : "s"}`, "label"));
  dead.append(cardsRow(ginSvgs(deadwoodCards)));
  view.append(dead);
  return view;
}

function knockWords(deadwood, limit, isGin) {
  if (isGin) return "gin!";
  return deadwood <= limit ? `you can knock (${limit} or less)` : `too much to knock (${limit} or less)`;
}

function showDeadwood(answer) {
  const result = $("gin-result");
  const eleven = answer.hand.length === 11;
  const status = answer.big_gin ? "big gin!" : knockWords(answer.deadwood, answer.knock_limit, answer.gin);
  const summary = eleven
    ? `Discard ${ginLabel(answer.discard)}: ${answer.deadwood} deadwood left, ${status}`
    : `${answer.deadwood} deadwood points: ${status}`;
  if (answer.draw) {
    // Before the draw the question is which pile: that is the answer, the hand's state after it.
    result.append(drawView(answer.draw));
    result.append(paragraph(`Now: ${summary}.`));
  } else {
    result.append(paragraph(summary, "summary " + (answer.can_knock || answer.gin || answer.big_gin ? "good" : "")));
  }
  result.append(meldsView(eleven ? "Your melds after the discard" : "Your melds", answer.melds,
    answer.deadwood_cards, answer.deadwood));
  if (eleven) result.append(discardsView(answer));
  if (eleven && answer.can_knock && !answer.gin && !answer.big_gin) {
    const settle = document.createElement("button");
    settle.type = "button";
    settle.id = "gin-knock-with";
    settle.textContent = "Knock with these melds: settle against the other hand";
    settle.addEventListener("click", () => {
      gin.melds = answer.melds.map((meld) => meld.slice());
      gin.deadwood = answer.deadwood_cards.slice();
      gin.defender = [];
      gin.target = "defender";
      ginSetView("knock");
    });
    result.append(settle);
  }
}

function drawView(draw) {
  const box = document.createElement("div");
  box.className = "draw";
  const up = draw.upcard;
  const take = draw.advice === "upcard";
  const upcard = ginLabel(gin.upcard[0]);
  const upWords = `Take the upcard ${upcard}: then discard ${ginLabel(up.discard)}, ${up.deadwood} deadwood` +
    (up.gin ? " (gin)" : up.can_knock ? " (you can knock)" : "");
  const stock = draw.stock;
  const stockWords = `Draw from the stock: ${stock.expected_deadwood.toFixed(2)} deadwood expected after the best discard ` +
    `(exactly ${stock.expected_deadwood_exact} over the ${stock.unseen} unseen cards; ` +
    `knock ${percent(stock.knock_chance)}, gin ${percent(stock.gin_chance)})`;
  box.append(paragraph(take ? `Draw: take the upcard ${upcard}` : "Draw: from the stock", "summary good"));
  const list = document.createElement("ul");
  for (const [words, best] of [[upWords, take], [stockWords, !take]]) {
    const item = document.createElement("li");
    item.textContent = (best ? "✓ " : "") + words;
    if (best) item.className = "good";
    list.append(item);
  }
  box.append(list);
  return box;
}

function percent(chance) {
  return `${Math.round(chance * 1000) / 10}%`;
}

function discardsView(answer) {
  const box = document.createElement("div");
  box.className = "discards";
  box.append(heading("Every discard weighed (deadwood left)"));
  const list = document.createElement("ol");
  list.id = "gin-discards";
  for (const option of answer.discards) {
    const item = document.createElement("li");
    item.dataset.card = option.card;
    item.append(cardsRow(ginSvgs([option.card]), "small"));
    const words = option.deadwood === 0 ? "0: gin" : option.deadwood <= answer.knock_limit ? `${option.deadwood}: knock` : String(option.deadwood);
    item.append(paragraph(words, option.card === answer.discard ? "good" : ""));
    list.append(item);
  }
  box.append(list);
  return box;
}

function showLayoff(answer) {
  const result = $("gin-result");
  const score = answer.score;
  const who = { knocker: "the knocker", defender: "the other player" }[score.winner];
  const words = {
    knock: `Knock: ${who} scores ${score.points}`,
    undercut: `Undercut! ${who} scores ${score.points}`,
    gin: `Gin: ${who} scores ${score.points}`,
    big_gin: `Big gin: ${who} scores ${score.points}`,
    dead: "A dead hand: nobody scores",
  }[score.kind];
  result.append(paragraph(`${words}${score.doubled ? " (doubled)" : ""}.`, "summary good"));
  result.append(paragraph(`The knocker's deadwood: ${answer.knocker_deadwood}; the other hand's, after laying off: ${answer.deadwood}.`));
  const laid = {};
  for (const item of answer.laid_off) (laid[item.meld - 1] = laid[item.meld - 1] || []).push(item.card);
  const notes = answer.knocker_melds.map((meld, index) => (laid[index] ? tag(`laid off: ${cardNames(laid[index])}`, "changed") : null));
  result.append(meldsView("The knocker's melds, with the layoffs", answer.knocker_melds,
    answer.knocker_deadwood_cards, answer.knocker_deadwood, notes));
  result.append(meldsView("The other hand's melds", answer.melds, answer.deadwood_cards, answer.deadwood));
}

// --- wiring ---------------------------------------------------------------------------------------

function ginSetView(view) {
  gin.view = view;
  if (!ginTargets().includes(gin.target)) gin.target = ginTargets()[0];
  $("gin-result").innerHTML = "";
  ginChanged();
  if (view === "knock") $("gin-result").append(paragraph("Enter the knocker's melds and deadwood and the other hand, then tap Settle the knock."));
}

async function ginStart() {
  const cards = (await api("/api/cards?rules=gin")).cards;
  const picker = $("gin-picker");
  for (const card of cards) {
    gin.deck[card.text] = { label: card.label, svg: card.svg };
    picker.append(pickerButton(card, ginPick));
  }
  const problem = ginReadUrl();
  $("gin-rules").value = gin.rules;
  $("gin-rules").addEventListener("change", () => {
    gin.rules = $("gin-rules").value;
    if (!ginTargets().includes(gin.target)) gin.target = ginTargets()[0];
    ginChanged();
  });
  $("gin-view-hand").addEventListener("click", () => ginSetView("hand"));
  $("gin-view-knock").addEventListener("click", () => ginSetView("knock"));
  $("gin-ask").addEventListener("click", () => ginAsk(true));
  $("gin-clear").addEventListener("click", () => {
    if (gin.view === "hand") { gin.hand = []; gin.upcard = []; gin.target = "hand"; }
    else { gin.melds = [[]]; gin.deadwood = []; gin.defender = []; gin.target = "meld:0"; }
    ginChanged();
  });
  return problem;
}

let ginReady = null;

const GIN_RULES = ["gin", "oklahoma-gin", "hollywood-gin"];

addMode("gin", {
  tab: "mode-gin",
  panel: "gin-panel",
  url: ginUrl,
  rules: GIN_RULES,
  useRules(name) {
    gin.rules = name;
    $("gin-rules").value = name;
  },
  enter() {
    if (!ginReady) {
      ginReady = ginStart().then((problem) => {
        ginChanged();
        if (problem) ginStatus(`The link held a card this page does not know: ${problem}`);
      });
    } else {
      ginChanged();
    }
  },
});

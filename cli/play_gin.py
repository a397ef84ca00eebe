"""``meldsat play`` for the gin family: a person against one gin bot in the terminal.

Each turn the person takes the upcard or draws from the stock, then discards (``9C``), discards
and knocks (``9C knock``), or ends the hand with big gin (``gin``, all 11 cards melded). ``hint``
gives the exact advice the bots follow (the draw first, then the discard), and a turn that breaks
a rule is refused with the reason. The bot's hand and the stock stay hidden until the hand ends.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from meldsat.cards import Card, parse_piece
from meldsat.cli.play_scores import print_scores, signed
from meldsat.cli.render import render_meld, render_table
from meldsat.cli.terminal import HUMAN, Narrator, QuitGameError
from meldsat.errors import MeldsatError
from meldsat.games.agents import GinDiscard, GinView
from meldsat.games.gin import gin_turn_problem
from meldsat.games.log import Event
from meldsat.games.records import read_pieces, read_table
from meldsat.gin.bits import rank_order
from meldsat.gin.deadwood import analyse_hand
from meldsat.gin.draw import draw_advice
from meldsat.notation import Table
from meldsat.rules import RuleSet
from meldsat.wording import counted

GIN_HELP = """\
Each turn: take the upcard (u) or draw from the stock (s, or an empty line), then
  9C          discard 9C
  9C k        discard 9C and knock (9C knock; your deadwood must be within the knock limit)
  gin         all 11 cards melded: big gin, no discard
At either step:
  t           take the hint: do what the exact advice says (draw, or discard and knock)
  h           show the hint (the draw first, then the best discard and whether to knock)
  q           quit"""


class TerminalGinPlayer:
    """The person at the terminal, asked through ``ask`` (a prompt in, a line out)."""

    name = HUMAN

    def __init__(self, ask: Callable[[str], str], out: Console) -> None:
        self.ask = ask
        self.out = out

    def _prompt(self, prompt: str) -> str:
        answer = self.ask(prompt).strip()
        if answer.lower() in ("quit", "q"):
            raise QuitGameError
        return answer

    def _show(self, view: GinView, cards: list[Card], title: str) -> None:
        """The cards held, ranked, with their best melds and deadwood."""
        ordered = sorted(cards, key=rank_order)
        line = Text(title)
        line.append_text(render_meld(ordered, view.rules.notation))
        if len(ordered) == 10:
            best = analyse_hand(ordered, view.rules, first_upcard=view.first_upcard)
            line.append(f"  (deadwood {best.arrangement.deadwood})")
        self.out.print(line)

    def take_upcard(self, view: GinView) -> bool:
        """Ask: the upcard or the stock."""
        self._show(view, list(view.hand), "your hand: ")
        self.out.print(
            Text("upcard: ")
            .append_text(render_meld([view.upcard], view.rules.notation))
            .append(f"   stock: {counted(view.stock_left, 'card')}")
            .append(f"   knock limit: {view.knock_limit}")
        )
        while True:
            answer = self._prompt("upcard or stock? (u/s; t take the hint, h hint, ? help) ")
            word = answer.lower()
            if word in ("u", "upcard"):
                return True
            if word in ("", "s", "stock", "draw", "d"):
                return False
            if word in ("help", "?"):
                self.out.print(GIN_HELP)
            elif word in ("hint", "h", "t", "take"):
                advice = self._draw_hint(view)
                if word in ("t", "take"):
                    return advice
            else:
                self.out.print(f"not understood: '{answer}' (u for the upcard, s for the stock)")

    def _draw_hint(self, view: GinView) -> bool:
        """Print the draw advice; True when it takes the upcard."""
        advice = draw_advice(
            list(view.hand),
            view.upcard,
            view.rules,
            seen=view.seen,
            first_upcard=view.first_upcard,
        )
        taken = advice.upcard.arrangement.deadwood
        expected = float(advice.stock_expected)
        choice = "take the upcard" if advice.take_upcard else "draw from the stock"
        self.out.print(
            f"hint: {choice} (upcard: deadwood {taken} after the best discard; stock: "
            f"{expected:.1f} expected over the unseen cards)"
        )
        return advice.take_upcard

    def finish_turn(self, view: GinView, drawn: Card, took_upcard: bool) -> GinDiscard:
        """Ask for the discard (and knock), or big gin, until the answer is legal."""
        held = sorted([*view.hand, drawn], key=rank_order)
        verb = "took" if took_upcard else "drew"
        self.out.print(Text(f"you {verb} ").append_text(render_meld([drawn], view.rules.notation)))
        self._show(view, held, "you hold: ")
        while True:
            answer = self._prompt("discard? (9C, 9C k to knock, gin; t take the hint, h, ? help) ")
            words = answer.lower().split()
            if words in (["help"], ["?"]):
                self.out.print(GIN_HELP)
                continue
            if words in (["hint"], ["h"], ["t"], ["take"]):
                advice = self._discard_hint(view, held, drawn if took_upcard else None)
                if words[0] not in ("t", "take"):
                    continue
                discard, knock = advice.discard, advice.knock
            else:
                try:
                    discard, knock = self._read_discard(answer, view.rules)
                except MeldsatError as error:
                    self.out.print(f"not understood: {error}")
                    continue
            problem, _ = gin_turn_problem(
                held,
                drawn,
                took_upcard,
                discard,
                knock,
                rules=view.rules,
                first_upcard=view.first_upcard,
            )
            if problem is None:
                return GinDiscard(discard, knock)
            self.out.print(f"not allowed: {problem}")

    @staticmethod
    def _read_discard(answer: str, rules: RuleSet) -> tuple[Card | None, bool]:
        words = answer.split()
        if [word.lower() for word in words] == ["gin"]:
            return None, True
        knock = len(words) == 2 and words[1].lower() in ("knock", "k")
        if len(words) != 1 and not knock:
            raise MeldsatError(f"'{answer}': give one card, optionally followed by 'knock'")
        piece = parse_piece(words[0], rules.notation)
        if not isinstance(piece, Card):
            raise MeldsatError("gin is played without jokers")
        return piece, knock

    def _discard_hint(self, view: GinView, held: list[Card], keep: Card | None) -> GinDiscard:
        """Print the best discard (and knock); return it as the turn's end."""
        best = analyse_hand(held, view.rules, first_upcard=view.first_upcard, keep=keep)
        if best.big_gin or best.discard is None:
            self.out.print("hint: gin (all 11 cards meld)")
            return GinDiscard(None, True)
        melds = best.arrangement.melds
        line = Text("hint: discard ").append_text(render_meld([best.discard], view.rules.notation))
        line.append(" and knock" if best.can_knock else "")
        line.append(f" (deadwood {best.arrangement.deadwood} left; melds: ")
        line.append_text(render_table(melds, view.rules.notation) if melds else Text("none"))
        self.out.print(line.append(")"))
        return GinDiscard(best.discard, best.can_knock)


class GinNarrator(Narrator):
    """The gin games told to the person: never the bot's hand, nor a card it draws from the
    stock, before the hand ends."""

    # The hands' points so far (the totals of the last hand, before the game's bonuses).
    points: list[int] | None = None

    def game_end(self, event: Event) -> None:
        """The final totals, with what the sheet's bonuses (game, lines, a shutout) added to the
        hands' points: the log has only the totals, so the last hand's are taken off."""
        if self.points is not None:
            added = [
                total - points for total, points in zip(event["totals"], self.points, strict=True)
            ]
            event = {**event, "bonuses": added}  # shown only: the log has the event as it was
        super().game_end(event)

    def deal(self, event: Event) -> None:
        """A hand begins, with its knock limit."""
        self.out.print(
            Text(
                f"\nhand {event['round']}: seat {event['dealer']} deals, knock limit "
                f"{event['knock_limit']}",
                style="bold",
            )
        )

    def turn(self, event: Event) -> None:
        """One line: the draw (the stock card only for the person), the discard, a knock."""
        mine = self.seats[event["seat"]] == HUMAN
        line = Text(f"{self.who(event['seat'])}: ")
        if event["source"] == "upcard":
            line.append("took the upcard ").append_text(self._card(event["drawn"]))
        elif mine:
            line.append("drew ").append_text(self._card(event["drawn"])).append(" from the stock")
        else:
            line.append("drew from the stock")
        if event["discard"] is not None:
            line.append(", discarded ").append_text(self._card(event["discard"]))
        if event["knock"]:
            line.append(", big gin" if event["discard"] is None else ", knocked")
        self.out.print(line)

    def _card(self, text: str) -> Text:
        return render_meld(read_pieces([text], self.rules, "card"), self.rules.notation)

    def round_end(self, event: Event) -> None:
        """How the hand ended, both hands' melds, layoffs, the scores and the totals."""
        self.points = event["totals"]
        ends = event["ends"]
        if ends == "dead":
            self.out.print(Text("the stock ran out: a dead hand, no score", style="bold"))
        else:
            knocker = event["knocker"]
            self.out.print(Text(f"hand over: {ends.replace('_', ' ')}", style="bold"))
            melds = read_table(event["knocker_melds"], self.rules, "knocker_melds")
            self._melds(knocker, melds, event["knocker_deadwood"])
            melds = read_table(event["defender_melds"], self.rules, "defender_melds")
            self._melds(1 - knocker, melds, event["defender_deadwood"])
            if event["laid_off"]:
                laid = read_pieces(event["laid_off"], self.rules, "laid_off")
                self.out.print(
                    Text(f"  {self.who(1 - knocker)} laid off ").append_text(
                        render_meld(laid, self.rules.notation)
                    )
                )
        # Hollywood keeps three game columns at once: each is shown, then the sum.
        columns = event.get("columns") or []
        shown = columns if len(columns) > 1 else []
        games = [f"game {number}" for number in range(1, len(shown) + 1)]
        rows = [
            [
                self.who(seat),
                signed(score),
                *(column[seat] for column in shown),
                event["totals"][seat],
            ]
            for seat, score in enumerate(event["scores"])
        ]
        print_scores(self.out, ["player", "hand", *games, "total"], rows)

    def _melds(self, seat: int, melds: Table, deadwood: int) -> None:
        verb = "meld" if self.seats[seat] == HUMAN else "melds"
        line = Text(f"  {self.who(seat)} {verb} ")
        line.append_text(render_table(melds, self.rules.notation) if melds else Text("nothing"))
        self.out.print(line.append(f", deadwood {deadwood}"))

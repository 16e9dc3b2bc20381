"""The scorekeeper's panels in words: scoresheets, rulings, the phase, the result.

Pure functions of the game state and the turn book, returning Textual markup
(escaped with :func:`textual.markup.escape`); no widgets.
"""

from __future__ import annotations

from textual.markup import escape

from engine.events import TurnScored
from engine.rules.state import GameState, Phase, Ruling, Turn, game_over_words
from engine.tournament.scores import result_text
from terminal_ui.scorekeeper.turn_book import TurnBook, TurnRef
from terminal_ui.table.commands import next_step

__all__ = [
    "entry_text",
    "phase_line",
    "result_lines",
    "ruling_text",
    "scored_text",
    "sheet_lines",
    "short_rule",
    "target_text",
]


def short_rule(rule: str, width: int = 28) -> str:
    """A rule citation short enough for a narrow panel: ``TOR-8``, ``NASPA IV.J``; a
    longer one is cut between words, never inside one.

    >>> short_rule("TOR-8: no more plays"), short_rule("NZASP 6.12.2.2 challenge procedure", 20)
    ('TOR-8', 'NZASP 6.12.2.2...')
    """
    head = rule.split(":", 1)[0].strip()
    if head.count("(") != head.count(")"):
        head = head.split("(", 1)[0].strip()
    if len(head) <= width:
        return head
    cut = head[: width - 2].rsplit(" ", 1)[0].rstrip(" ,;(")
    return cut + "..."


def sheet_lines(state: GameState, book: TurnBook, player: int, target: TurnRef | None) -> str:
    """One player's scoresheet: turn, first letter, score, total; unscored turns last."""
    rows: list[str] = []
    n = 0
    for h in state.history:
        if h.player != player:
            continue
        label = _sheet_label(h, n + 1)
        if label is None:
            continue
        if h.kind == "scored":
            n += 1
        elif h.kind == "rescored" and h.text.startswith("undo "):
            n -= 1  # an entry taken back: its turn is scored again by a later line
        rows.append(escape(f"{label:<6}{h.score:+5d}{h.total:6d}"))
    for ref in book.pending(state):
        if ref.player != player:
            continue
        mark = ">" if target == ref else " "
        if ref.kind == "play":
            rows.append(f"[b]{mark}{ref.index:>2} ?  unscored[/b]")
        else:
            # '-' on this screen is only ever a minus sign (overtime, penalties, a
            # void's score): a turn that scores nothing says what it was
            rows.append(f"{mark}{ref.index:>2}    {ref.kind}")
    if target is not None and target.player == player and target.kind == "in play":
        rows.append(f"[b]>{target.index:>2} ?  in play[/b]")
    return "\n".join(rows) or "(no turns yet)"


def _sheet_label(h: Turn, n: int) -> str | None:
    if h.kind == "rescored" and h.text.startswith("undo "):
        return "  undo"
    if h.kind == "scored":
        return f"{n:>3} {h.text}"  # no letter entered: none shown ('-' is a minus)
    return {
        "withdrawn": "  void",
        "lost_turn": "  lost",
        "penalty": "  time",
        "end_racks": "  rack",
        "adjusted": "  adj",
        "rescored": "  fix",
    }.get(h.kind)


def ruling_text(rulings: tuple[Ruling, ...]) -> str:
    """Every ruling, newest first, each with its rule (the panel scrolls back to the
    first)."""
    rows = [f"[b]{escape(short_rule(r.rule))}[/b] {escape(r.text)}" for r in reversed(rulings)]
    return "\n".join(rows) or "(no rulings yet)"


def entry_text(player: str, turn: int, letter: str, score: int) -> str:
    """A score entry in words: ``Ann turn 3: Q 24``; ``Ann turn 3: 24`` without a
    letter; ``Ann turn 3: 0 (nothing scored)``."""
    return f"{player} turn {turn}: {_what(letter, score)}"


def _what(letter: str, score: int) -> str:
    if not score and not letter:
        return "0 (nothing scored)"
    return f"{letter.upper()} {score}" if letter else str(score)


def scored_text(event: TurnScored, state: GameState) -> str:
    """An accepted score entry as the log took it: a withdrawn turn shows the 0 it
    scored, not the score typed (the challenge took the play off the board)."""
    p = event.player
    name = state.players[p]
    turn = event.turn or state.scored[p]
    entries = state.sheet[p]
    if 0 < turn <= len(entries) and entries[turn - 1].withdrawn:
        typed = _what(event.first_letter, event.score)
        return f"{name} turn {turn}: 0, the play was withdrawn ({typed} does not count)"
    return entry_text(name, turn, event.first_letter, event.score)


def result_lines(state: GameState) -> list[str]:
    """The result summary (markup)."""
    res = state.result
    if res is None:
        return ["(no result yet)"]
    names = state.players
    words = result_text(names, res.scores, res.winner, res.reason, res.spread)
    lines = [
        f"[b]{escape(words)}[/b]",
        f"time penalties -{res.penalties[0]} / -{res.penalties[1]}; "
        f"racks {res.rack_adjustments[0]:+d} / {res.rack_adjustments[1]:+d}",
    ]
    v = state.variant
    if v is not None and not v.spread_recorded:  # the wording above gives the spread
        lines.append(
            f"spread {res.spread} (not recorded: {escape(short_rule(v.source('spread_recorded')))})"
        )
    return lines


def phase_line(st: GameState) -> str:
    """The phase in words, with the keys it calls for or the result (plain text)."""
    phase = st.describe_phase()
    last = st.last
    if st.phase is Phase.CHALLENGE:
        phase += " (F6 valid / F7 invalid)"
    elif st.phase is Phase.HOLD:
        phase += " (F4 release / F5 challenge)"
    elif st.phase is Phase.END_RACKS:
        phase += " (racks AEI BCD; - for none)"
    elif st.phase in (Phase.SCORE_DISPUTE, Phase.OVERDRAW, Phase.BLANK_DEMANDED) or (
        st.phase is Phase.PLAYING and st.clock.neutral
    ):
        phase += f" | {next_step(st)}"
    elif st.phase is Phase.OVER and st.result is not None:
        res = st.result
        # the one wording; the spread said (the result box says whether it counts);
        # then who has yet to sign, or ctrl+N once both have, as the table says it
        phase = game_over_words(st.players, res.scores, res.winner, res.reason, res.spread)
        phase += f" | {next_step(st)}"
    elif st.phase is Phase.PLAYING and st.variant is not None and st.locked[st.turn]:
        # TOR-8: said in full where the scorekeeper looks, not only as a status word,
        # in a line that fits 120 columns (the engine's words for the pass are the
        # table's; the scorekeeper's pass is F8)
        name = st.players[st.turn]
        phase = f"{name} to play: F8 pass"
        phase += (
            f" | {name} LOCKED OUT ({short_rule(st.variant.source('cutoff'))}): no more "
            "plays; a play on the board comes off, the turn scores 0"
        )
    elif last is not None and last.window_open and st.phase is Phase.PLAYING:
        phase += (
            f" | {st.players[1 - last.player]} may hold or challenge "
            f"{st.players[last.player]}'s turn {last.index}"
        )
    return phase


def target_text(st: GameState, book: TurnBook, chosen: int | None) -> str:
    """The turn the next entry scores, and the turns after it (markup).

    ``chosen`` is the player picked with Tab; None scores the oldest turn.
    """
    target = book.target(st, chosen)
    pending = book.pending(st)
    if target is None:
        if chosen is not None:
            return (
                f"{escape(st.players[chosen])} has no turn to score "
                "[dim](Esc: back to the oldest)[/dim]"
            )
        if st.phase in (Phase.END_RACKS, Phase.OVER):
            missed = [r for r in pending if r.kind == "play"]
            if not missed:
                return "game over"
            were = "1 turn was" if len(missed) == 1 else f"{len(missed)} turns were"
            return f"game over: {were} not scored"
        return "every turn is scored"
    name = escape(st.players[target.player])
    text = f"scoring [b]{target.player + 1} {name} turn {target.index}[/b]"
    if target.kind != "play":
        text += f" ({target.kind})"
    if st.voided[target.player] == target.index:
        text += " [red]withdrawn: scores 0[/red]"
    if chosen is not None:
        text += " [dim]· chosen with Tab, Esc: oldest[/dim]"
    else:
        behind = [r for r in pending if r != target]
        if behind:
            queue = ", ".join(f"{escape(st.players[r.player])} {r.index}" for r in behind[:3])
            text += f" · then {queue}"
        text += " [dim]· Tab: other player[/dim]"
    return text

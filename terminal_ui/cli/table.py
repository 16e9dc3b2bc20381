"""``rackclock table``: the table terminal, the main job."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from terminal_ui.cli.args import add_assignment, add_clock, game_fields, log_refusal, players

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``table`` command."""
    cmd = sub.add_parser(
        "table",
        help="the table terminal for two players (runs on an emulated clock by default)",
        description=(
            "Opens the table terminal. Each player's clock key: [ (or F1) left, ] (or F2) right. "
            "Plays and commands are typed on the command line. The game is logged to a new "
            "file in the data directory unless --log names one, which resumes its game."
        ),
    )
    cmd.add_argument("--variant", default="nzasp", help="rule variant (default nzasp)")
    cmd.add_argument("--log", type=Path, help="game log to write or resume")
    cmd.add_argument(
        "--players", type=players, default="Player 1,Player 2", help="two names, comma-separated"
    )
    cmd.add_argument("--first", type=int, default=0, choices=(0, 1))
    cmd.add_argument("--mode", choices=("board", "scoresheet"))
    add_clock(cmd)
    cmd.add_argument("--words", type=Path, help="word list for self-adjudication")
    cmd.add_argument("--high-contrast", action="store_true", help="the high-contrast theme")
    cmd.add_argument(
        "--keys",
        metavar="LEFT,RIGHT",
        help="the players' clock keys, e.g. 'f5,f6' (default: [ or F1, ] or F2)",
    )
    add_assignment(cmd)
    cmd.add_argument(
        "--new-game",
        action="store_true",
        help="start a new game after the log's finished one (a finished game is shown otherwise)",
    )
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Open the table terminal."""
    from clock.user_files import load_variant, load_word_list
    from engine.errors import EngineError
    from firmware_bridge.host.transports import TRANSPORTS
    from terminal_ui.shared.keys import clock_keys
    from terminal_ui.shared.start import closing_words
    from terminal_ui.table.app import TableApp
    from terminal_ui.table.config import TableConfig, default_log_path

    try:
        load_variant(args.variant)  # a bad variant is refused before the screen opens
        # and a clock no transport takes, before a log is made for it (one a try)
        TRANSPORTS.parse(args.clock)
        words = load_word_list(args.words) if args.words else None
        keys = clock_keys(args.keys)
        game = game_fields(args)
    except (EngineError, ValueError) as exc:
        sys.stderr.write(f"rackclock table: {exc}\n")
        return 2
    cfg = TableConfig(
        log=args.log or default_log_path(),
        **game,
        mode=args.mode,
        clock=args.clock,
        new_game=args.new_game,
        assignment=args.assignment,
        words=words,
        high_contrast=args.high_contrast,
        clock_keys=keys,
    )
    # A log that cannot be opened is refused here, with the reason, before the screen.
    refused = log_refusal(cfg.log, "rackclock table")
    if refused is not None:
        # the log's state refuses (held by a running table, or not a log): 1, as serve
        # answers; 2 is for a bad argument
        sys.stderr.write(f"rackclock table: {refused}\n")
        return 1
    app = TableApp(cfg)
    result = app.run()
    sys.stdout.write(closing_words(app, result, cfg.log))
    return result or 0

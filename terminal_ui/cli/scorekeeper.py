"""``rackclock scorekeeper``: the non-playing scorekeeper's screen (Toronto speed play)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from terminal_ui.cli.args import add_assignment, add_clock, game_fields, log_refusal, players

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``scorekeeper`` command."""
    cmd = sub.add_parser(
        "scorekeeper",
        help="the scorekeeper's screen for speed play (first letter and score per turn)",
        description=(
            "Opens the non-playing scorekeeper's screen (TOR-1) in scoresheet mode. Type a "
            "turn as first letter and score (q24, Enter); '-' or '0' is a scoreless turn; "
            "'2:b12' or Tab scores the other player. The players' clock keys are [ (F1) and "
            "] (F2) unless a clock device is given. The game is logged to a new file in the "
            "data directory unless --log names one, which resumes its game."
        ),
    )
    cmd.add_argument(
        "--variant", default="toronto-speed", help="rule variant (default toronto-speed)"
    )
    cmd.add_argument("--log", type=Path, help="game log to write or resume")
    cmd.add_argument(
        "--players", type=players, default="Player 1,Player 2", help="two names, comma-separated"
    )
    cmd.add_argument("--first", type=int, default=0, choices=(0, 1), help="who starts (0 or 1)")
    add_clock(cmd)
    cmd.add_argument("--high-contrast", action="store_true", help="the high-contrast theme")
    add_assignment(cmd)
    cmd.add_argument(
        "--new-game",
        action="store_true",
        help="start a new game after the log's finished one (a finished game is shown otherwise)",
    )
    cmd.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Open the scorekeeper's screen."""
    from clock.user_files import load_variant
    from engine.errors import EngineError
    from terminal_ui.scorekeeper.app import ScorekeeperApp
    from terminal_ui.scorekeeper.config import ScorekeeperConfig, default_log_path
    from terminal_ui.shared.start import closing_words

    try:
        load_variant(args.variant)  # a bad variant is refused before the screen opens
        game = game_fields(args)
    except (EngineError, ValueError) as exc:
        sys.stderr.write(f"rackclock scorekeeper: {exc}\n")
        return 2
    cfg = ScorekeeperConfig(
        log=args.log or default_log_path(),
        **game,
        clock=args.clock,
        new_game=args.new_game,
        high_contrast=args.high_contrast,
    )
    # A log that cannot be opened is refused here, with the reason, before the screen.
    refused = log_refusal(cfg.log, "rackclock scorekeeper")
    if refused is not None:
        # the log's state refuses (held by a running table, or not a log): 1, as serve
        # answers; 2 is for a bad argument
        sys.stderr.write(f"rackclock scorekeeper: {refused}\n")
        return 1
    app = ScorekeeperApp(cfg)
    result = app.run()
    sys.stdout.write(closing_words(app, result, cfg.log))
    return result or 0

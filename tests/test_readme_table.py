"""Every command in the README's table is started, as a user starts it, by some test.

:data:`PROCESS_TESTS` names, for each command of README.md's "Commands" table, the
tests that run it as a process with its arguments (the installed ``rackclock``
script, or the Textual apps under tmux), not as a function call. A command added to
the README without such a test fails here; so does an entry naming a test that is
gone or that never mentions the command.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PROCESS_TESTS: tuple[tuple[str, str, str], ...] = (
    (
        "table",
        "system/test_table_log_readers.py",
        "test_readers_beside_the_table_terminal_lose_no_shown_event",
    ),
    (
        "scorekeeper",
        "system/test_speed_game_tmux.py",
        "test_a_speed_game_with_a_lockout_and_an_undo",
    ),
    (
        "director",
        "system/test_readme_commands.py",
        "test_director_on_log_files_with_the_events_log",
    ),
    ("director", "system/test_readme_commands.py", "test_director_on_the_broker"),
    ("venue", "system/test_venue.py", "test_venue_runs_the_broker_and_archives_a_table"),
    ("serve", "system/test_mqtt.py", "test_serve_with_an_mqtt_clock"),
    (
        "emulate-clock --serial",
        "system/test_serial.py",
        "test_serve_and_emulate_clock_commands_over_socat",
    ),
    (
        "emulate-clock --mqtt",
        "system/test_readme_commands.py",
        "test_emulate_clock_on_mqtt_is_a_tables_clock",
    ),
    (
        "pi-clock --serial",
        "system/test_pi_clock.py",
        "test_the_pi_clock_command_on_serial_and_on_mqtt",
    ),
    (
        "pi-clock --mqtt",
        "system/test_pi_clock.py",
        "test_the_pi_clock_command_on_serial_and_on_mqtt",
    ),
    (
        "gateway",
        "system/test_gateway.py",
        "test_the_gateway_command_puts_a_usb_clock_on_the_broker",
    ),
    ("gcg check", "terminal_ui/test_gcg_cli.py", "test_good_files_exit_0_and_print_ok"),
    ("export gcg", "terminal_ui/test_export_cli.py", "test_gcg_of_a_log_with_two_games"),
    (
        "export naspa",
        "terminal_ui/test_export_cli.py",
        "test_results_from_several_logs_with_a_round_and_a_roster",
    ),
    (
        "export tsh",
        "terminal_ui/test_export_cli.py",
        "test_results_from_several_logs_with_a_round_and_a_roster",
    ),
    ("event new", "system/test_event.py", "test_an_event_from_pairings_to_tsh"),
    ("event pair", "system/test_event.py", "test_an_event_from_pairings_to_tsh"),
    ("event publish", "system/test_event.py", "test_an_event_from_pairings_to_tsh"),
    ("event results", "system/test_event.py", "test_an_event_from_pairings_to_tsh"),
    (
        "event result",
        "terminal_ui/test_event.py",
        "test_pair_result_correct_and_standings_from_the_command_line",
    ),
    ("event standings", "system/test_event.py", "test_an_event_from_pairings_to_tsh"),
    (
        "event slips",
        "system/test_event_slips_tmux.py",
        "test_slips_typed_at_the_prompt_then_missing",
    ),
    (
        "event missing",
        "system/test_event_slips_tmux.py",
        "test_slips_typed_at_the_prompt_then_missing",
    ),
    (
        "event sheets",
        "terminal_ui/test_sheets_cli.py",
        "test_the_sheets_folder_is_the_golden_one_and_is_rewritten_whole",
    ),
    (
        "event prizes",
        "terminal_ui/test_event_prizes.py",
        "test_event_prizes_prints_the_places_and_the_special_prizes",
    ),
    (
        "event show",
        "terminal_ui/test_event_history.py",
        "test_show_history_lists_who_entered_corrected_and_took_back_each_result",
    ),
    ("event verify", "system/test_event.py", "test_an_event_from_pairings_to_tsh"),
    ("event withdraw", "system/test_readme_commands.py", "test_event_withdraw_then_pair"),
    ("event export", "system/test_event.py", "test_an_event_from_pairings_to_tsh"),
    (
        "event import",
        "terminal_ui/test_event.py",
        "test_tsh_files_round_trip_with_pairings_ahead_of_scores",
    ),
    (
        "variants",
        "terminal_ui/test_cli_rules.py",
        "test_variants_lists_every_parameter_with_its_source",
    ),
    ("replay", "terminal_ui/test_cli_rules.py", "test_log_import_verify_replay_export_round_trip"),
    (
        "log verify",
        "terminal_ui/test_cli_rules.py",
        "test_log_import_verify_replay_export_round_trip",
    ),
    (
        "log export",
        "terminal_ui/test_cli_rules.py",
        "test_log_import_verify_replay_export_round_trip",
    ),
    (
        "log import",
        "terminal_ui/test_cli_rules.py",
        "test_log_import_verify_replay_export_round_trip",
    ),
)
"""Each README command (its words, and the option that picks a form where the README
gives alternatives), and a test (its file under tests/, its function) that starts it
as a process; a command may have more than one."""

PROCESS_STARTS = ("RACKCLOCK", "rackclock(", "tmux_terminal(")
"""What a module that starts ``rackclock`` as a process uses to do it."""


def readme_commands(readme: str) -> set[str]:
    """The commands of the README's "Commands" table: ``event new|pair`` is two, and so
    is ``emulate-clock (--serial PATH | --mqtt URL)`` (the option picks the form)."""
    found: set[str] = set()
    for line in readme.splitlines():
        if not line.startswith("| `rackclock "):
            continue
        words = line.split("`")[1].replace("\\|", "|").split()[1:]
        command, rest = words[0], words[1:]
        if rest and re.fullmatch(r"[a-z]+(\|[a-z]+)*", rest[0]):
            found |= {f"{command} {sub}" for sub in rest[0].split("|")}
        elif rest and rest[0].startswith("("):
            forms = " ".join(rest).split(")", 1)[0].lstrip("(").split("|")
            found |= {f"{command} {form.split()[0]}" for form in forms}
        else:
            found.add(command)
    return found


def test_alternatives_are_commands_of_their_own() -> None:
    assert readme_commands("| `rackclock log verify\\|export [--json]` | x |") == {
        "log verify",
        "log export",
    }
    assert readme_commands("| `rackclock emulate-clock (--serial P \\| --mqtt U --table T)` |") == {
        "emulate-clock --serial",
        "emulate-clock --mqtt",
    }
    assert readme_commands("| `rackclock replay FILE [--at TIME]` | x |") == {"replay"}


def test_the_readme_table_is_read() -> None:
    commands = readme_commands((REPO / "README.md").read_text(encoding="utf-8"))
    assert {"table", "event withdraw", "export tsh", "emulate-clock --mqtt"} <= commands


def test_every_readme_command_has_a_test_that_starts_it() -> None:
    commands = readme_commands((REPO / "README.md").read_text(encoding="utf-8"))
    listed = {command for command, _, _ in PROCESS_TESTS}
    assert sorted(commands - listed) == [], "README commands without a test"
    assert sorted(listed - commands) == [], "listed, but not in the README"


def test_each_listed_test_exists_and_starts_the_command() -> None:
    for command, path, name in PROCESS_TESTS:
        test = f"tests/{path}::{name}"
        source = (REPO / "tests" / path).read_text(encoding="utf-8")
        functions = {
            node.name: ast.get_source_segment(source, node) or ""
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        assert name in functions, f"{test} (for {command!r}) is gone"
        assert any(start in source for start in PROCESS_STARTS), f"{path} starts no process"
        # the command's last word (the subcommand or the form) is in the test itself,
        # or in the module's one way of starting it (``run`` adding ``gcg check``)
        words = command.split()
        starter = [line for line in source.splitlines() if "RACKCLOCK" in line]
        assert words[-1] in functions[name] or any(f'"{words[-1]}"' in line for line in starter), (
            f"{test} does not mention {words[-1]!r}"
        )
        assert all(w in source for w in words), f"{path} does not mention {command!r}"

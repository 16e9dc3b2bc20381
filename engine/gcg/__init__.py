"""GCG game records (Poslfit GCG v1.2): model, reader, writer and checker."""

from engine.gcg.check import CheckResult, Problem, check_bytes, check_record
from engine.gcg.reader import ParseResult, parse_gcg, read_gcg
from engine.gcg.record import Event, EventKind, GameRecord, Player, Pragma
from engine.gcg.writer import write_gcg

__all__ = [
    "CheckResult",
    "Event",
    "EventKind",
    "GameRecord",
    "ParseResult",
    "Player",
    "Pragma",
    "Problem",
    "check_bytes",
    "check_record",
    "parse_gcg",
    "read_gcg",
    "write_gcg",
]

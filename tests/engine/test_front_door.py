"""``engine`` is the front door: what callers use is importable from it."""

from __future__ import annotations

import types

import engine
import engine.gcg
import engine.rules.machine
import engine.rules.variant


def test_every_name_it_exports_is_there() -> None:
    missing = [name for name in engine.__all__ if not hasattr(engine, name)]
    assert missing == []
    assert engine.__all__ == sorted(engine.__all__, key=lambda n: (n[0].islower(), n))


def test_it_is_the_same_objects_as_the_modules() -> None:
    assert isinstance(engine.events, types.ModuleType)
    assert engine.events.GameStarted.__module__ == "engine.events"
    assert engine.apply is engine.rules.machine.apply
    assert engine.load_variant is engine.rules.variant.load_variant
    assert engine.check_record is engine.gcg.check_record

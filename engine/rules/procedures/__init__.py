"""The table procedures, one module each: turns, challenges, draws, overdraws, score
disputes, the clock outside turns, corrections, the end of the game and the deadlines.
:mod:`engine.rules.machine` dispatches each event to the handler registered here."""

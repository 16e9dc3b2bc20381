"""Benchmark: how long a round takes to pair, against the number of players.

``python -m bench.pairing [--sizes 50,100,200,500] [--rounds 12] [--seed S]``

For each size, a one-division event is played for ``--rounds`` rounds (Swiss,
random scores) and the next round is paired as Swiss, Australian Draw (no
repeat within the day: all rounds are one day), KOTH and Portland Swiss, with
the real repeat history. The floor of the same work in the same run is the
part no pairing can skip: the standings, then the ideal KOTH pairs taken as
they stand (no repeat control, no search). A 30-player round robin schedule
is timed too. Floors: a 200-player Swiss or KOTH round under 1 s; a 30-player
round robin under 10 ms. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from functools import partial

from bench.stats import best_time, floor_line
from engine.tournament.pairing import schedule
from engine.tournament.pairing.pair_round import draw
from engine.tournament.pairing.ranked import koth_ideal
from engine.tournament.records import Created, Paired, Result
from engine.tournament.state import DivisionState, EventState, replay

__all__ = ["main"]

SYSTEMS = ("swiss", "australian-draw", "koth", "portland")
FLOOR_200_S = 1.0
FLOOR_RR30_S = 0.010


def _event(players: int, rounds: int, system: str) -> EventState:
    lines = ['name = "bench"', "[[division]]", 'name = "A"', f"rounds = {rounds + 1}"]
    lines.append(
        f'plan = [{{ rounds = "1-{rounds}", system = "swiss" }}, '
        f'{{ rounds = "{rounds + 1}", system = "{system}" }}]'
    )
    lines.append("players = [")
    lines += [f'  {{ name = "P{i}", rating = {2200 - i} }},' for i in range(1, players + 1)]
    lines.append("]")
    return replay([Created("\n".join(lines))])


def _played(players: int, rounds: int, system: str, seed: int) -> DivisionState:
    rng = random.Random(seed)
    ev = _event(players, rounds, system)
    div = ev.division("A")
    for rnd in range(1, rounds + 1):
        ev.apply(draw(div, rnd))
        for a, b in div.pairings[rnd].pairs:
            if b:
                ev.apply(Result("A", rnd, a, b, (rng.randrange(250, 550), rng.randrange(250, 550))))
            else:
                ev.apply(Result("A", rnd, a, 0, (50, 0), "bye"))
    return div


def _floor(div: DivisionState, rnd: int) -> Paired:
    """The standings, then the ideal KOTH pairs as they stand."""
    ranked = [row.seed for row in div.standings(rnd - 1, div.active(rnd))]
    ideal = koth_ideal(ranked)
    pairs = tuple((a, ideal[a]) for a in ranked[::2] if a in ideal)
    return Paired("A", rnd, pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pairing", description=__doc__)
    parser.add_argument("--sizes", default="50,100,200,500")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    out: dict[str, dict[str, float]] = {}
    nxt = args.rounds + 1
    print(f"round {nxt} paired after {args.rounds} Swiss rounds (best of {args.repeat})")
    print(f"{'players':>7} {'floor ms':>9} " + " ".join(f"{s + ' ms':>17}" for s in SYSTEMS))
    for n in sizes:
        row: dict[str, float] = {}
        floor = 0.0
        for system in SYSTEMS:
            div = _played(n, args.rounds, system, args.seed)
            row[system] = best_time(partial(draw, div, nxt), args.repeat)
            floor = best_time(partial(_floor, div, nxt), args.repeat)
        row["floor"] = floor
        out[str(n)] = row
        cells = " ".join(f"{row[s] * 1000:9.1f} ({row[s] / floor:5.1f}x)" for s in SYSTEMS)
        print(f"{n:>7} {floor * 1000:9.2f} {cells}")
    rr = best_time(lambda: schedule.round_robin(30, 29), args.repeat)
    print(f"round robin schedule, 30 players, 29 rounds: {rr * 1000:.2f} ms")
    worst200 = max((out["200"][s] for s in ("swiss", "koth")), default=0.0) if "200" in out else 0.0
    met = worst200 < FLOOR_200_S and rr < FLOOR_RR30_S
    print(
        f"floors: 200-player Swiss/KOTH round < {FLOOR_200_S:g} s, 30-player round robin "
        f"< {FLOOR_RR30_S * 1000:g} ms: {'met' if met else 'NOT met'}"
    )
    ratio = min(FLOOR_200_S / worst200, FLOOR_RR30_S / rr) if worst200 else FLOOR_RR30_S / rr
    print(
        floor_line(
            "bench.pairing",
            f"200 players {worst200 * 1000:.1f} ms, round robin {rr * 1000:.2f} ms",
            f"{FLOOR_200_S:g} s and {FLOOR_RR30_S * 1000:g} ms",
            ratio,
        )
    )
    print(json.dumps({"rounds": args.rounds, "seconds": out, "round_robin_30_s": rr}))
    # A floor not met is reported, not failed: on a shared machine a slow run is no bug.
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

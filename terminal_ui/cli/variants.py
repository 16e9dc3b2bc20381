"""``rackclock variants [--json] [NAME|FILE...]``: every rule parameter, its value and source."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from clock.user_files import load_variant
from engine.errors import DataFileError
from engine.rules.variant import Variant, list_variants

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``variants`` command."""
    cmd = sub.add_parser(
        "variants",
        help="list rule variants with every parameter, its value and its source",
        description=(
            "Lists each variant (the bundled ones, or the names/files given) with every "
            "parameter, its value, the rule it comes from, and whether it is assumed."
        ),
    )
    cmd.add_argument("names", nargs="*", metavar="NAME|FILE", help="variants to show")
    cmd.add_argument("--json", action="store_true", help="one JSON object per variant, per line")
    cmd.set_defaults(handler=run)


def as_json(v: Variant) -> dict[str, Any]:
    """A variant as plain JSON."""
    return {
        "name": v.name,
        "title": v.title,
        "params": {
            k: {
                "value": p.value,
                "source": p.source,
                "assumed": p.assumed,
                "defined_in": p.defined_in,
            }
            for k, p in sorted(v.params.items())
        },
    }


def _text(v: Variant) -> str:
    lines = [f"{v.name}: {v.title}"]
    width = max(len(k) for k in v.params)
    for key, p in sorted(v.params.items()):
        mark = " (assumed)" if p.assumed else ""
        lines.append(f"  {key:<{width}}  {p.value!s:<16} {p.source}{mark}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the variants; exit 1 if one cannot be loaded."""
    status = 0
    for name in args.names or list_variants():
        try:
            v = load_variant(name)
        except DataFileError as exc:
            sys.stderr.write(f"rackclock variants: {exc}\n")
            status = 1
            continue
        sys.stdout.write((json.dumps(as_json(v)) if args.json else _text(v) + "\n") + "\n")
    return status

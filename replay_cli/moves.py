"""Reading moves, options and values typed at the terminal.

A move may be typed as JSON (`{"type": "place", "x": 1, "y": 0, "rotation": 2}`), as the shorthand
the CLI prints (`place x=1 y=0 rotation=2`), or as the number of a listed legal move.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from .output import CliError

MAX_DEPTH = 32
"""How deeply typed JSON may nest: what the HTTP API accepts in a move or an option."""


def load_json(text: str, what: str) -> Any:
    """JSON typed or read by the user; a clear usage error when it is not JSON or nests too deeply
    (Python's reader gives up with a RecursionError long before memory does)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise CliError(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as error:
        raise CliError(f"{what} is not valid JSON: {error}") from None
    if depth(value) > MAX_DEPTH:
        raise CliError(f"{what} is nested too deeply (at most {MAX_DEPTH} levels)")
    return value


def depth(value: Any) -> int:
    """How deeply lists and objects nest in a JSON value (a scalar is 0), without recursion."""
    deepest = 0
    pending = [(value, 0)]
    while pending:
        item, level = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level + 1)
        if deepest > MAX_DEPTH:
            return deepest
        pending.extend((child, level + 1) for child in children)
    return deepest


def parse_value(text: str) -> Any:
    """JSON when it parses (numbers, true/false/null, lists, objects), otherwise the text itself."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise CliError(f"{text[:20]}... is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError:
        return text
    if depth(value) > MAX_DEPTH:
        raise CliError(f"{text[:20]}... is nested too deeply (at most {MAX_DEPTH} levels)")
    return value


def parse_pairs(items: tuple[str, ...] | list[str], what: str = "option") -> dict[str, Any]:
    """`key=value` items into a dict (values parsed with parse_value)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError(f"{what} {item!r} must look like key=value")
        out[key.strip()] = parse_value(value.strip())
    return out


def parse_move(text: str, legal: list[dict[str, Any]] | None = None) -> Any:
    """A move from what the user typed: a listed number, JSON, or `type key=value ...`."""
    text = text.strip()
    if not text:
        raise CliError("type a move")
    if text.isdigit() and legal is not None:
        index = int(text)
        if not 1 <= index <= len(legal):
            raise CliError(f"there is no move {index}; pick 1..{len(legal)}")
        return legal[index - 1]
    if text[0] in "{[\"":
        return load_json(text, "that move")
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise CliError(f"cannot read that move: {error}") from None
    move: dict[str, Any] = {"type": words[0]}
    move.update(parse_pairs(words[1:], "move field"))
    return move


def parse_int_list(text: str, what: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise CliError(f"{what} must be comma-separated whole numbers, like 1,2,2") from None


def move_types(schema: dict[str, Any]) -> list[str]:
    """The move types a game's move JSON schema allows (its `type` discriminator), in its order."""
    mapping = (schema.get("discriminator") or {}).get("mapping")
    if isinstance(mapping, dict) and mapping:
        return [str(name) for name in mapping]
    found: list[str] = []
    for branch in [schema, *(schema.get("$defs") or {}).values()]:
        spec = ((branch.get("properties") or {}).get("type") or {}) if isinstance(branch, dict) else {}
        for name in ([spec["const"]] if "const" in spec else spec.get("enum") or []):
            if str(name) not in found:
                found.append(str(name))
    return found

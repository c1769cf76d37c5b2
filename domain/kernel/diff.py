"""The difference between two views of a match: what changed, as JSON paths and values.

Works on the viewer-specific JSON views, so a diff can never show more than either view did.
"""

from __future__ import annotations

from typing import Any


def diff(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """A list of {"path", "op" (added/removed/changed), "before", "after"}, in key order."""
    if isinstance(before, dict) and isinstance(after, dict):
        changes: list[dict[str, Any]] = []
        for key in sorted(set(before) | set(after)):
            where = f"{path}/{key}"
            if key not in before:
                changes.append({"path": where, "op": "added", "after": after[key]})
            elif key not in after:
                changes.append({"path": where, "op": "removed", "before": before[key]})
            else:
                changes.extend(diff(before[key], after[key], where))
        return changes
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        changes = []
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            changes.extend(diff(old, new, f"{path}/{index}"))
        return changes
    if before == after:
        return []
    return [{"path": path or "/", "op": "changed", "before": before, "after": after}]

"""The standalone verifier needs nothing of Ringside: the standard library and `cryptography` only."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from .support import VERIFIER

ALLOWED_THIRD_PARTY = {"cryptography"}


def _imported_modules() -> set[str]:
    tree = ast.parse(VERIFIER.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import"
            assert node.module is not None
            names.add(node.module)
        else:
            called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"
            dynamic = called or (isinstance(node, ast.Attribute) and node.attr == "import_module")
            assert not dynamic, "a dynamic import"
    return names


def test_it_imports_only_the_standard_library_and_cryptography() -> None:
    tops = {name.split(".")[0] for name in _imported_modules()}
    assert "cryptography" in tops
    outside = {top for top in tops if top not in sys.stdlib_module_names and top != "__future__"}
    assert outside <= ALLOWED_THIRD_PARTY, outside


def test_it_runs_from_a_copy_outside_the_project(tmp_path: Path) -> None:
    """Copied alone into an empty folder and run in isolated mode, it loads no project module."""
    copy = tmp_path / "ringside_verify.py"
    copy.write_bytes(VERIFIER.read_bytes())
    probe = ("import sys, ringside_verify; "
             "print('\\n'.join(sorted({name.split('.')[0] for name in sys.modules})))")
    done = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r}); {probe}"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert "ringside_verify" in loaded
    third_party = {name for name in loaded if name not in sys.stdlib_module_names and not name.startswith("_")}
    # cryptography's own compiled helpers (its Rust bindings, cffi) come with it
    assert third_party - {"ringside_verify"} <= {"cryptography", "cffi"}, third_party
    assert not loaded & {"domain", "api", "replay_cli", "tools", "orjson", "pydantic", "eventsourcing"}

"""Games come from the `ringside.games` entry points; the kernel imports none of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from domain import plugins
from domain.kernel import registry
from domain.kernel.errors import UnknownGameError
from tests.support.games import PYTHONPATH


def test_the_kernel_imports_no_game() -> None:
    code = ("import sys, domain.kernel.registry, domain.kernel.verification, domain.kernel.fold\n"
            "print(sorted(m for m in sys.modules if m.startswith('domain.games.') or m == 'domain.application'))\n"
            "print(domain.kernel.registry.all_games())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": PYTHONPATH})
    assert done.stdout.splitlines() == ["[]", "{}"]


def test_installed_games_are_the_entry_points_including_the_test_plugin() -> None:
    code = ("from domain.plugins import install_games\nfrom domain.kernel.registry import all_games\n"
            "install_games()\nprint(sorted(all_games()))")
    bare = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": PYTHONPATH.split(":")[0]})
    games = "'carcassonne', 'circus-train', 'drum-roll', 'russian-railroads'"
    assert bare.stdout.strip() == f"[{games}]"  # make run never serves the test game
    with_plugin = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                 env={"PYTHONPATH": PYTHONPATH})
    assert with_plugin.stdout.strip() == f"[{games}, 'test-dicevote', 'test-sealedbonus']"


def _plugin(tmp_path: Path, name: str, value: str) -> Path:
    info = tmp_path / f"broken_{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: broken-{name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[ringside.games]\n{name} = {value}\n")
    return tmp_path


@pytest.mark.parametrize(("name", "value", "why"), [
    ("no-such-module", "no_such_module_at_all:RULESET", "No module named"),
    ("not-a-ruleset", "json:dumps", "is not a Ruleset"),
    ("misnamed", "domain.games.circus_train:RULESET", "names a ruleset called 'circus-train'"),
])
def test_a_broken_plugin_is_reported_and_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture, name: str, value: str,
                                                  why: str) -> None:
    monkeypatch.syspath_prepend(str(_plugin(tmp_path, name, value)))
    with caplog.at_level("WARNING", logger="ringside.plugins"):
        plugins.install_games()
    assert any(name in record.getMessage() and why in record.getMessage() for record in caplog.records)
    with pytest.raises(UnknownGameError, match=f"unknown game '{name}'"):
        registry.get_game(name)
    assert {"carcassonne", "circus-train", "test-dicevote"} <= set(registry.all_games())


def test_registering_another_engine_under_a_taken_name_is_refused() -> None:
    class Impostor(type(registry.get_game("test-dicevote"))):  # type: ignore[misc]
        pass

    with pytest.raises(ValueError, match="already registered"):
        registry.register(Impostor())

"""Benchmarks register the test-only game so kernel costs are measured apart from any real engine."""

from tests.support.games import install_test_games

install_test_games()

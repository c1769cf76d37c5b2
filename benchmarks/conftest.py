"""Benchmarks register the test-only game so kernel costs are measured apart from any real engine."""

import tests.support.dicevote  # noqa: F401

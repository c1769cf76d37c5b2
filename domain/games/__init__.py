"""The product games. Importing this package registers each one with the kernel registry."""

from . import carcassonne, circus_train  # noqa: F401

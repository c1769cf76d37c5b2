"""The product games. Importing this package registers each one with the kernel registry."""
from . import carcassonne  # noqa: F401
from . import circus_train  # noqa: F401

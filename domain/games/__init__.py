"""The product games, one package each (see README.md here for the shape every package has).

Importing this package registers nothing: each game is an entry point of the `ringside.games`
group in `pyproject.toml`, added to the kernel's registry by `domain.plugins.install_games`.
"""

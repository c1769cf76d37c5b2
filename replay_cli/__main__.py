"""`python -m replay_cli` runs the CLI."""

from replay_cli.main import cli

if __name__ == "__main__":
    cli(prog_name="ringside")

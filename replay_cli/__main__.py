"""`python -m replay_cli` runs the CLI."""

from replay_cli.entry import main

if __name__ == "__main__":
    main(prog_name="ringside")

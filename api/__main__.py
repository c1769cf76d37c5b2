"""`python -m api --port 8000 --data-dir DIR --store postgresql://...`"""

from __future__ import annotations

import argparse
import sys

from domain.store.settings import StoreSetupError

from .server import ListenError, run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m api", description="Serve the Ringside HTTP API")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data-dir", default=None, help="keys and the embedded SQLite store")
    parser.add_argument("--store", default=None, help="a postgresql:// URL (default: SQLite in the data dir)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    try:
        run(host=args.host, port=args.port, data_dir=args.data_dir, store=args.store, workers=args.workers,
            log_level=args.log_level)
    except (StoreSetupError, ListenError) as error:  # one line, and argparse's status for bad input
        print(f"python -m api: error: {error}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()

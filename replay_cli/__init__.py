"""`ringside`: the replay CLI for adjudicators and annotators (click + rich).

It works on the local store (the default data directory, another SQLite data directory or a
PostgreSQL URL via --store), on an exported bundle file, or on a remote server (--url, --token).
"""

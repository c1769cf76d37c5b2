"""Persistence: where the record is kept and how it is written.

The eventsourcing recorders and the answers to keyed requests (`recorders`), the lean save
(`saving`), group commit (`group_commit`), one writer across processes on SQLite (`write_lock`),
the store's settings (`settings`), the side tables beside the event store (`side_tables`), the
match-list read model (`index`), the files' modes (`files`), answer retention (`retention`) and
the store failures that are nobody's input (`storage`). Nothing here knows a game.
"""

"""The PostgreSQL backend (decision 0073): the event log and its projections in one
PostgreSQL database, behind the same storage contract as SQLite.

Opened by :func:`embornal.storage.factory.open_store` for a ``postgresql://`` URL; the
driver (psycopg 3, ``psycopg-pool``) is the ``postgres`` extra and is imported only here.
"""

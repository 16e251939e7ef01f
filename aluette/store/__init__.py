"""Shared tables in a database: four students on four devices play one match (see :mod:`aluette.store.service`),
stored in SQLite by default or PostgreSQL when ``ALUETTE_DATABASE_URL`` is set (see :mod:`aluette.store.db`)."""

from .db import (APPLICATION_ID, DATA_DIR_ENV, DATABASE_URL_ENV, SCHEMA_VERSION, PostgresStore, SQLiteStore, Store,
                 default_data_dir, open_store)
from .service import (SeatInfo, SeatState, SeatTicket, TableInfo, TableService, TableSummary, TeacherDesk,
                      clean_player_name, clean_table_name, new_seat_code)

__all__ = ["APPLICATION_ID", "DATA_DIR_ENV", "DATABASE_URL_ENV", "SCHEMA_VERSION", "PostgresStore", "SQLiteStore",
           "Store", "default_data_dir", "open_store", "SeatInfo", "SeatState", "SeatTicket", "TableInfo",
           "TableService", "TableSummary", "TeacherDesk", "clean_player_name", "clean_table_name", "new_seat_code"]

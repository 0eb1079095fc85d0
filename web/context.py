"""How request handlers reach the table: the `TablePort` the app was created with, nothing global."""

from __future__ import annotations

from flask import current_app

from web.port import TablePort

EXTENSION_KEY = "pipkeeper.table"


def table() -> TablePort:
    """The table session of the current app."""
    return current_app.extensions[EXTENSION_KEY]

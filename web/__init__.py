"""The web face of pipkeeper: scorecard, setup and admin pages on Flask. Build it with `create_app`."""

from web.app import create_app

__all__ = ["create_app"]

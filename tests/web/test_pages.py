"""The HTML pages: they render, carry the CSRF token, use only local assets, and list the stored games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.game import MAX_NAME_LENGTH, MAX_PLAYERS
from scoring.rules import get_rules
from web.pages import RULE_OPTIONS, history_view

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


@pytest.mark.parametrize("path", ["/", "/setup", "/admin/login"])
def test_pages_render_with_a_csrf_token_and_only_local_assets(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert re.search(r'<meta name="csrf-token" content="[^"]{32,}">', html)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and all(not a.startswith(("http:", "https:", "//")) for a in assets)
    for asset in assets:
        if asset.startswith("/static/"):
            assert client.get(asset).status_code == 200, asset


def test_every_static_file_is_local_plain_js_or_css():
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8").replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "http://" not in text and "https://" not in text, path


def test_the_scorecard_page_has_the_controls_the_buttons_have(client):
    html = client.get("/").get_data(as_text=True)
    for control in ('id="roll"', 'id="enter-dice"', 'id="prev"', 'id="next"', 'id="select"', 'id="undo"'):
        assert control in html


def test_setup_offers_every_rule_set_and_lists_stored_games(client):
    html = client.get("/setup").get_data(as_text=True)
    for title in ("Yahtzee", "Yatzy", "Maxi Yatzy", "Forced Yatzy"):
        assert title in html
    assert 'data-action="resume_game" data-game="g1"' in html
    assert "Ann 231" in html  # the finished game's result
    assert 'id="stats"' in html and "100%" in html


def test_setup_limits_players_and_names_as_the_game_does(client):
    html = client.get("/setup").get_data(as_text=True)
    assert f"window.PIPKEEPER_MAX_PLAYERS = {MAX_PLAYERS};" in html
    assert f"window.PIPKEEPER_MAX_NAME_LENGTH = {MAX_NAME_LENGTH};" in html


def test_the_setup_options_are_the_engines_own():
    for rules, options in RULE_OPTIONS.items():
        defaults = dict(get_rules(rules).options)
        for key, option in options.items():
            choices = list(option["choices"])
            assert choices[0] == defaults[key]
            for choice in choices:
                assert dict(get_rules(rules, {key: choice}).options)[key] == choice


def test_history_view_orders_results_by_total():
    view = history_view(
        {
            "games": [
                {
                    "id": "x",
                    "rules": "yatzy",
                    "players": ["Bo", "Ann"],
                    "finished": True,
                    "updated": 0,
                    "totals": {"Bo": 150, "Ann": 212},
                }
            ]
        }
    )
    assert view["games"][0]["result"] == "Ann 212 · Bo 150"
    assert view["players"] == []


def test_a_missing_page_is_a_friendly_html_404(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "<h1>Not Found</h1>" in response.get_data(as_text=True)


def test_the_admin_page_embeds_the_stream_and_a_logout_form(admin_client):
    html = admin_client.get("/admin").get_data(as_text=True)
    assert 'src="/admin/stream.mjpg"' in html
    assert 'action="/admin/logout"' in html

"""Advisor tables on disk: saved atomically, refused when damaged or stale, built in a background process."""

from __future__ import annotations

import json

import pytest

from device.advisor_cache import (
    AdvisorCache,
    BadTableFile,
    decode_table,
    encode_table,
    load_table,
    table_path,
)
from device.cli import main
from scoring.advisor.model import build_model
from scoring.rules import get_rules


def test_a_saved_table_loads_back_identical(forced_table):
    state_dir, table = forced_table
    loaded = load_table(state_dir, "forced")
    assert loaded is not None
    assert loaded.expected_score == table.expected_score


def test_a_flipped_byte_is_caught_by_the_checksum(forced_table):
    _, table = forced_table
    data = bytearray(encode_table(table))
    data[-10] ^= 0xFF
    with pytest.raises(BadTableFile, match="checksum"):
        decode_table(bytes(data), table.model)


def test_a_table_for_other_rules_is_refused(forced_table):
    _, table = forced_table
    with pytest.raises(BadTableFile, match="different rules"):
        decode_table(encode_table(table), build_model(get_rules("yatzy")))


def test_default_options_share_the_file_of_the_same_variant(tmp_path):
    assert table_path(tmp_path, "yahtzee") == table_path(tmp_path, "yahtzee", {"joker": "forced"})
    assert table_path(tmp_path, "yahtzee") != table_path(tmp_path, "yahtzee", {"joker": "free"})


def test_a_truncated_file_is_not_loaded(forced_table, tmp_path):
    state_dir, _ = forced_table
    path = table_path(tmp_path, "forced")
    path.parent.mkdir(parents=True)
    path.write_bytes(table_path(state_dir, "forced").read_bytes()[:1000])
    assert load_table(tmp_path, "forced") is None


def test_the_background_build_reports_progress_and_then_serves_the_table(tmp_path):
    cache = AdvisorCache(tmp_path)
    assert cache.table("forced") is None
    assert cache.status("forced").state in ("building", "ready")
    table = cache.wait("forced", timeout=120)
    assert table is not None
    assert cache.status("forced").to_dict() == {"state": "ready", "progress": 1.0, "message": ""}
    assert table_path(tmp_path, "forced").exists()
    assert AdvisorCache(tmp_path).table("forced").expected_score == table.expected_score


def test_maxi_is_reported_unsupported_without_building(tmp_path):
    status = AdvisorCache(tmp_path).status("maxi")
    assert status.state == "unsupported"
    assert "saved rolls" in status.message
    assert not (tmp_path / "advisor").exists()


def test_advise_prints_the_expected_score_and_the_best_keep(forced_table, capsys):
    state_dir, _ = forced_table
    assert main(["advise", "--rules", "forced", "--expected", "--state-dir", str(state_dir)]) == 0
    assert json.loads(capsys.readouterr().out)["expected_score"] == pytest.approx(122.5585, abs=1e-4)
    assert (
        main(
            ["advise", "--rules", "forced", "--state-dir", str(state_dir), "--json", "6", "1", "1", "3", "2"]
        )
        == 0
    )
    answer = json.loads(capsys.readouterr().out)
    assert answer["best"]["keep"] == [1, 1]
    assert answer["best"]["positions"] == [1, 2]
    assert len(answer["alternatives"]) == 4


def test_advise_with_no_roll_left_lists_the_legal_boxes(forced_table, capsys):
    state_dir, _ = forced_table
    argv = ["advise", "--rules", "forced", "--state-dir", str(state_dir), "--rolls-left", "0"]
    assert main(argv + ["--card", '{"ones": 2}', "2", "2", "2", "5", "6"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert [b["box"] for b in answer["boxes"]] == ["twos"]
    assert answer["best"]["points"] == 6


@pytest.mark.parametrize(
    "argv, reason",
    [
        (["6", "1", "1", "3", "9"], "1 to 6"),
        (["6", "1", "1"], "5 dice"),
        (["--card", '{"nope": 1}', "1", "2", "3", "4", "5"], "no box"),
        (["--card", "[1]", "1", "2", "3", "4", "5"], "JSON object"),
        (["--rolls-left", "3", "1", "2", "3", "4", "5"], "--rolls-left must be 0, 1 or 2"),
        (["--card", '{"ones": 7}', "1", "2", "3", "4", "5"], "no hand scores 7 in 'ones'"),
        (["6", "1", "x", "3", "2"], "1 to 6, not 'x'"),
        (
            ["6", "1", "\uff15", "3", "2"],
            "1 to 6, not '\uff15'",
        ),  # a full-width 5: read as pipkeeper score does
        (["--rules", "bogus", "6", "1", "1", "3", "2"], "--rules must be one of"),
        (["--joker", "free", "6", "1", "1", "3", "2"], "no option 'joker'"),
        ([], "dice values"),
    ],
)
def test_advise_rejects_bad_input_with_one_line(forced_table, capsys, argv, reason):
    state_dir, _ = forced_table
    assert main(["advise", "--rules", "forced", "--state-dir", str(state_dir)] + argv) == 2
    err = capsys.readouterr().err
    assert reason in err
    assert err.count("\n") == 1


def test_advise_on_maxi_says_there_are_no_hints(tmp_path, capsys):
    assert (
        main(["advise", "--rules", "maxi", "--state-dir", str(tmp_path), "1", "2", "3", "4", "5", "6"]) == 0
    )
    answer = json.loads(capsys.readouterr().out)
    assert answer["advisor"] == "none"
    assert "saved rolls" in answer["reason"]


def test_bench_advisor_prints_seconds_and_memory(capsys):
    assert main(["bench-advisor", "--rules", "forced"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["expected_score"] == pytest.approx(122.5585, abs=1e-4)
    assert result["seconds"] > 0 and result["peak_rss_mb"] > 0 and result["peak_traced_mb"] > 0

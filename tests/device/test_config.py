"""The config file: defaults for everything, and every mistake refused with the key named."""

from __future__ import annotations

import pytest

from device.cli import main
from device.config import DEFAULT_CONFIG_TOML, Config, ConfigError, EncoderPins, load_config, parse_config


def test_no_file_means_the_defaults_and_the_documented_default_says_the_same():
    assert load_config(None) == Config()
    assert parse_config(DEFAULT_CONFIG_TOML) == Config()
    assert parse_config("") == Config()


def test_a_partial_file_overrides_only_what_it_names(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[web]\nhost = "localhost"\n'
        '[camera]\nsource = "opencv"\ndevice = 2\nturn = 180\n'
        "[pins]\nbuzzer = false\n"
    )
    config = load_config(path)
    assert (config.web.host, config.web.port) == ("localhost", 8080)
    assert (config.camera.source, config.camera.device) == ("opencv", 2)
    assert config.camera.turn == 180
    assert config.pins.buzzer is None and "buzzer" not in config.pins.named()
    assert config.pins.hold[0] == 5


def test_an_encoder_takes_the_place_of_prev_next_select():
    config = parse_config("[pins.encoder]\na = 12\nb = 16\nswitch = 20\n")
    assert config.pins.encoder == EncoderPins(a=12, b=16, switch=20)
    named = config.pins.named()
    assert "prev" not in named and named["encoder.a"] == 12


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[camera]\nsorce = 'sim'\n", "camera.sorce"),
        ("[cameras]\n", "cameras"),
        ("[web]\nport = 'eighty'\n", "web.port"),
        ("[web]\nport = 70000\n", "web.port"),
        ("[camera]\nfps = true\n", "camera.fps"),
        ("[camera]\nsource = 'webcam'\n", "camera.source"),
        ("[camera]\nturn = 45\n", "camera.turn"),
        ("[camera]\nturn = 180.0\n", "camera.turn"),
        ("[game]\nrules = 'poker'\n", "game.rules"),
        ("[controls]\nundo_hold_seconds = -1\n", "controls.undo_hold_seconds"),
        ("[pins]\nhold1 = 40\n", "pins.hold1"),
        ("[pins]\nhold7 = 3\n", "pins.hold7"),
        ("[pins]\nbuzzer = 5\n", "pins.hold1"),  # GPIO 5 is hold1's by default
        ("[pins.encoder]\na = 2\n", "pins.encoder.b"),
        ("web = 3\n", "web"),
        ("[web\n", "not valid TOML"),
    ],
)
def test_mistakes_are_refused_naming_the_key(text, named):
    with pytest.raises(ConfigError) as error:
        parse_config(text, source="my.toml")
    assert named in str(error.value) and "my.toml" in str(error.value)


def test_a_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.toml")


def test_config_command_prints_the_default_and_checks_files(tmp_path, capsys):
    assert main(["config", "--default"]) == 0
    assert capsys.readouterr().out == DEFAULT_CONFIG_TOML
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(DEFAULT_CONFIG_TOML)
    bad.write_text("[pins]\nprev = 'left'\n")
    assert main(["config", "--check", str(good)]) == 0
    assert main(["config", "--check", str(bad)]) == 1
    assert "pins.prev" in capsys.readouterr().err

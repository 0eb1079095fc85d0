"""Opt-in (`make test-datasets`): the reader on the shared photo sets must reach the project's targets."""

from pathlib import Path

import pytest

from vision.dataset import load_truth, run, summarise
from vision.reader import DiceReader

SETS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "dice-photos"
TARGETS = {  # set: (die recall, die precision, hands read exactly)
    "matteop65": (0.99, 0.99, 0.97),
    "nell-byler": (0.95, 0.97, 0.80),
}


@pytest.mark.datasets
@pytest.mark.parametrize("name", sorted(TARGETS))
def test_reader_reaches_its_target_on(name):
    truth = SETS / name / "truth.jsonl"
    if not truth.is_file():
        pytest.skip(f"{truth} is not here")
    metrics = summarise(list(run(load_truth(truth), DiceReader().read)))
    recall, precision, hands = TARGETS[name]
    assert metrics["die_recall"] >= recall, metrics
    assert metrics["die_precision"] >= precision, metrics
    assert metrics["hand_accuracy"] >= hands, metrics

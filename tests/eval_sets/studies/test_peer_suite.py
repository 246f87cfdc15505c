"""The peer-suite study: tables read from a test folder's source (never imported), each case run
through the answer check, agreement printed by kind with every disagreement listed."""

import textwrap

import pytest

from eval_sets.studies import peer_suite
from eval_sets.studies.peer_suite import read_cases, reference_of

TABLE = textwrap.dedent("""
    import pytest

    @pytest.mark.parametrize(
        "gold,pred,expected",
        [
            ("$5$", "So the answer is five.", 1),
            ("$0.4$", ".4", 1),
            ("2", "AZYUK2A", 0),
            ("$7$", "The answer is $\\\\boxed{8}$", 1),
            ("$3$", "$3$", 1, "one too many"),
            (f"{1}", "1", 1),
        ],
    )
    def test_numbers(gold, pred, expected):
        assert False  # never run: the study reads the table only

    @pytest.mark.parametrize("gold, pred, expected, precision", [("$1/3$", "$0.33$", 1, 2)])
    def test_precision(gold, pred, expected, precision):
        pass

    @pytest.mark.parametrize("pred,expected", [("A", ["a"])])
    def test_other_shape(pred, expected):
        pass
""")


def test_tables_are_read_from_the_source(tmp_path):
    (tmp_path / "test_peer.py").write_text(TABLE, encoding="utf-8")
    (tmp_path / "support.py").write_text("raise SystemExit('never imported')\n", encoding="utf-8")
    cases, skipped = read_cases(tmp_path)
    assert [(c.gold, c.pred, c.expected) for c in cases][:4] == [
        ("$5$", "So the answer is five.", True),
        ("$0.4$", ".4", True),
        ("2", "AZYUK2A", False),
        ("$7$", "The answer is $\\boxed{8}$", True),
    ]
    assert skipped == 2  # a row of the wrong length, a row that is not a literal
    assert {c.kind for c in cases} == {"test_peer.py::test_numbers", "test_peer.py::test_precision"}
    precision = next(c for c in cases if c.settings)
    assert precision.settings == {"precision": 2} and not precision.default


def test_a_worked_gold_gives_the_answer_it_marks():
    assert reference_of("Thus $x = \\boxed{4}$.") == "4"
    assert reference_of("$[0,1)$") == "$[0,1)$"


def test_the_report_gives_kinds_settings_and_disagreements(tmp_path, capsys):
    (tmp_path / "test_peer.py").write_text(TABLE, encoding="utf-8")
    assert peer_suite.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "peer cases 5 (skipped 2): agreement 3/5     60.0%" in out
    assert "default settings 3/4     75.0%" in out and "other settings 0/1      0.0%" in out
    assert "  test_peer.py::test_numbers " in out
    # the box states 8 where the table expects 7 equal: listed, as is the precision row
    assert "disagreements (2):" in out
    assert "test_peer.py::test_numbers:10 expected True, got False" in out
    assert "{'precision': 2} expected True, got False" in out


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (None, "no such folder"),
        ({}, "no (gold, pred, expected) tables"),
        ({"test_bad.py": "def (:\n"}, "cannot read a test file"),
    ],
)
def test_bad_input_is_a_clear_error(tmp_path, capsys, files, message):
    folder = tmp_path / "tests"
    if files is not None:
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
    assert peer_suite.main([str(folder)]) == 2
    assert message in capsys.readouterr().err

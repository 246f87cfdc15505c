"""The answer-agreement measurement: which rows count, the fit/check split, the printed table."""

import json

import pytest

from eval_sets.studies import answer_agreement
from eval_sets.studies.answer_agreement import counted, half_of, read_pairs


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"gold": "1", "pred": "1.0", "equal": True}, True),
        ({"gold": "1", "pred": "1.0", "equal": True, "disabled_in_source": False}, True),
        ({"gold": "1", "pred": "1.0", "equal": True, "disabled_in_source": True}, False),
        ({"gold": 5, "pred": 5.0, "equal": True}, False),
        ({"gold": "0", "pred": None, "equal": False}, False),
    ],
)
def test_only_string_pairs_not_disabled_in_their_source_count(row, expected):
    assert counted(row) is expected


def test_the_split_is_by_gold_and_stable():
    golds = [f"{n}/{n + 1}" for n in range(200)]
    assert {half_of(g) for g in golds} == {"fit", "check"}
    assert [half_of(g) for g in golds] == [half_of(g) for g in golds]
    share = sum(half_of(g) == "fit" for g in golds) / len(golds)
    assert 0.35 < share < 0.65


def _write(path, rows):
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def test_read_pairs_skips_and_groups_by_suite(tmp_path):
    path = tmp_path / "pairs.jsonl"
    _write(
        path,
        [
            {"gold": "1", "pred": "1.0", "equal": True, "source": "suite/a:tests/x.py"},
            {"gold": "2", "pred": "3", "equal": False, "source": "suite/b:tests/y.py"},
            {"gold": "2", "pred": "2", "equal": True, "disabled_in_source": True},
            {"gold": 4, "pred": 4.0, "equal": True},
        ],
    )
    pairs, skipped = read_pairs(path)
    assert [(p.gold, p.source, p.line) for p in pairs] == [("1", "suite/a", 1), ("2", "suite/b", 2)]
    assert skipped == 2


def test_the_table_gives_halves_sources_and_readings(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    _write(
        path,
        [
            {"gold": "是", "pred": "否", "equal": False, "source": "s1"},
            {"gold": "50", "pred": "0.5", "equal": False, "source": "s1"},
            {"gold": "39.06\\%", "pred": "0.3906", "equal": True, "source": "s2"},
            {"gold": "C", "pred": "the answer is C", "equal": True, "source": "s2"},
            {"gold": "7", "pred": "7", "equal": False, "source": "s2"},
        ],
    )
    assert answer_agreement.main([str(path), "--show-disagreements"]) == 0
    out = capsys.readouterr().out
    assert "\nagreement 4/5 = 80.0% (fit " in out
    assert "label False got True (same_text): '7' vs '7'" in out
    for name in ("s1", "s2", "yes_no", "plain_number", "choice_letter", "same_text"):
        assert f"  {name} " in out


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (None, [], "no such file"),
        ('{"gold": "1"}\n', [], "pairs.jsonl:1: missing field(s) pred, equal"),
        (
            '{"gold": "1", "pred": "1", "equal": true}\nnot json\n',
            [],
            "pairs.jsonl:2: not valid JSON",
        ),
        (
            '{"gold": "1", "pred": "1", "equal": true}\n',
            ["--without", "nonsense"],
            "no reading named nonsense",
        ),
    ],
)
def test_bad_input_is_a_clear_error(tmp_path, capsys, content, args, message):
    path = tmp_path / "pairs.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert answer_agreement.main([str(path), *args]) == 2
    assert message in capsys.readouterr().err


def test_solutions_mode_measures_the_whole_answer_check(tmp_path, capsys):
    stepmath = tmp_path / "stepmath.jsonl"
    _write(
        stepmath,
        [
            {
                "question": "q1",
                "model_output": "So 6.\n最终答案：【12】",
                "answers": ["12"],
                "gold_step_score": ["1", "1"],
                "type": "Calculation",
            },
            {
                "question": "q2",
                "model_output": "Hence it holds.",
                "answers": None,
                "gold_step_score": ["1"],
                "type": "Proof",
            },
        ],
    )
    processbench = tmp_path / "processbench.jsonl"
    _write(
        processbench,
        [
            {
                "problem": "p1",
                "steps": ["They walk the remaining 6 miles.", "Final Answer: 12"],
                "reference_answer": "6",
                "final_answer_correct": False,
            },
            {"problem": "p2", "steps": ["x = 3"], "final_answer_correct": True},
        ],
    )
    assert answer_agreement.main(["--solutions", str(stepmath), str(processbench)]) == 0
    out = capsys.readouterr().out
    assert "stepmath.jsonl: answer verdict agrees with the human one on    1/1 " in out
    assert "processbench.jsonl: answer verdict agrees with the human one on    1/1 " in out
    assert "  stated        1/1 " in out


def test_several_pair_files_need_solutions_mode(tmp_path, capsys):
    assert answer_agreement.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    assert "several only with --solutions" in capsys.readouterr().err


def test_solutions_mode_reads_mr_math_and_counts_what_rounding_changed(tmp_path, capsys):
    path = tmp_path / "mr_math.jsonl"
    _write(
        path,
        [
            {
                "question": "Convert 4250 tonnes to pounds.",
                "ground_truth_answer": "9369635",
                "model_output": "1 t = 2204.62262 lb, so the answer is \\boxed{9369646}.",
                "model_output_answer_correctness": "correct",
            },
            {
                "question": "How many seats?",
                "ground_truth_answer": "10000",
                "model_output": "So \\boxed{10001}.",
                "model_output_answer_correctness": "wrong",
            },
        ],
    )
    assert answer_agreement.main(["--solutions", str(path)]) == 0
    out = capsys.readouterr().out
    assert "mr_math.jsonl: answer verdict agrees with the human one on    2/2 " in out
    changed = out.split("rounding reading changed")[1].splitlines()[0]
    assert changed.count("1/1 ") == 1 and changed.count("0/0 ") == 1
    assert "  rounding " in out and "  exact_value " in out  # the route table


def test_write_routes_pools_the_fit_halves(tmp_path, capsys):
    from eval_sets.halves import half_of as problem_half
    from scoring.answer.load import load_routes

    pairs = tmp_path / "pairs.jsonl"
    fit_golds = [g for g in (f"{n}" for n in range(40)) if half_of(g) == "fit"][:3]
    check_gold = next(g for g in (f"{n}" for n in range(40)) if half_of(g) == "check")
    _write(
        pairs,
        [{"gold": g, "pred": g + ".0", "equal": True} for g in fit_golds]
        + [{"gold": check_gold, "pred": "x", "equal": True}],
    )
    solutions = tmp_path / "mr_math.jsonl"
    problem = next(f"Q{n}" for n in range(40) if problem_half(f"Q{n}") == "fit")
    _write(
        solutions,
        [
            {
                "question": problem,
                "ground_truth_answer": "5",
                "model_output": "So \\boxed{6}.",
                "model_output_answer_correctness": "correct",
            }
        ],
    )
    out_path = tmp_path / "routes.json"
    assert (
        answer_agreement.main(
            [str(pairs), "--write-routes", str(out_path), "--with-solutions", str(solutions)]
        )
        == 0
    )
    assert "routes written to" in capsys.readouterr().out
    routes = load_routes(out_path)
    assert {r: (s.cases, s.agree) for r, s in routes.stats.items()} == {"exact_value": (4, 3)}
    assert routes.precision("exact_value") == 0.5  # fewer than MIN_CASES: the default


def test_with_solutions_needs_write_routes(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    _write(path, [{"gold": "1", "pred": "1", "equal": True}])
    assert answer_agreement.main([str(path), "--with-solutions", str(path)]) == 2
    assert "--with-solutions needs --write-routes" in capsys.readouterr().err


def test_saved_verdicts_list_what_a_later_run_changed(tmp_path, capsys):
    path = tmp_path / "mr_math.jsonl"
    rows = [
        {
            "id": "a",
            "question": "How many?",
            "ground_truth_answer": "5",
            "model_output": "So the answer is five.",
            "model_output_answer_correctness": "correct",
        },
        {
            "id": "b",
            "question": "How many more?",
            "ground_truth_answer": "4",
            "model_output": "So \\boxed{4}.",
            "model_output_answer_correctness": "correct",
        },
    ]
    _write(path, rows)
    saved = tmp_path / "before.jsonl"
    assert answer_agreement.main(["--solutions", str(path), "--save", str(saved)]) == 0
    lines = [json.loads(line) for line in saved.read_text(encoding="utf-8").splitlines()]
    assert [(r["key"], r["correct"], r["human"]) for r in lines] == [
        ("mr_math.jsonl:a", True, True),
        ("mr_math.jsonl:b", True, True),
    ]
    lines[0].update(correct=False)  # as a reader without number words decided it
    saved.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    capsys.readouterr()
    assert answer_agreement.main(["--solutions", str(path), "--changes-from", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "verdicts changed since before.jsonl: 1" in out
    assert "mr_math.jsonl:a (" in out and "False 'five' -> True 'five'" in out
    assert "agrees: after" in out and "mr_math.jsonl:b" not in out


def test_save_needs_solutions_mode(tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    _write(path, [{"gold": "1", "pred": "1", "equal": True}])
    assert answer_agreement.main([str(path), "--save", str(tmp_path / "out.jsonl")]) == 2
    assert "--save and --changes-from need --solutions" in capsys.readouterr().err

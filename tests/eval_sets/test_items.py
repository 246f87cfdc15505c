"""Gold labels and items survive their JSON round trip (results.jsonl, Ray actors)."""

from __future__ import annotations

from eval_sets.items import Gold, GoldItem, RowError
from scoring.schema import GradeRequest


def test_gold_json_has_the_set_fields_only_with_tuples_as_lists() -> None:
    gold = Gold(subset="Calculation", score=7, step_labels=("correct", "incorrect"))
    assert gold.to_json() == {
        "subset": "Calculation",
        "score": 7,
        "step_labels": ["correct", "incorrect"],
    }
    assert Gold.from_json(gold.to_json()) == gold
    assert Gold().to_json() == {} and Gold.from_json({}) == Gold()


def test_false_and_zero_are_kept_not_dropped_as_unset() -> None:
    gold = Gold(score=0, process_correct=False, step_redundant=(False, True))
    assert gold.to_json() == {"score": 0, "process_correct": False, "step_redundant": [False, True]}
    assert Gold.from_json(gold.to_json()) == gold


def test_an_item_round_trips_through_plain_json() -> None:
    request = GradeRequest(problem="Compute 2 + 3.", solution_steps=["2 + 3 = 5."])
    item = GoldItem(id="a-1", request=request, gold=Gold(first_error=None, process_correct=True))
    data = item.to_json()
    assert data["id"] == "a-1" and data["gold"] == {"process_correct": True}
    assert GoldItem.from_json(data) == item


def test_a_row_error_carries_its_resume_key_and_reason() -> None:
    row = RowError(key="data.jsonl:3", reason="data.jsonl:3: missing field(s) gold_score")
    assert row.key == "data.jsonl:3" and "gold_score" in row.reason

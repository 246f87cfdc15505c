"""`build_tree`: the Tree-of-Error of the verdicts' labels and dependencies."""

from __future__ import annotations

from agent.nodes.build_tree import build_tree
from scoring.verdict import StepVerdict


def test_an_error_and_what_built_on_it_are_one_chain():
    verdicts = [
        StepVerdict("incorrect", "slip"),
        StepVerdict("meaningless", "uses it", depends_on=(1,)),
        StepVerdict("incorrect", "carries it", depends_on=(2,)),
    ]
    tree = build_tree({"verdicts": verdicts})["tree"]
    assert [list(chain) for chain in tree.tree.chains] == [[1, 2, 3]]


def test_a_clean_solution_has_no_error_chain():
    verdicts = [StepVerdict("correct", "ok"), StepVerdict("correct", "ok", depends_on=(1,))]
    assert build_tree({"verdicts": verdicts})["tree"].tree.chains == ()


def test_no_steps_no_tree():
    assert build_tree({"verdicts": []})["tree"].tree.chains == ()

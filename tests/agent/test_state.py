"""The graph's state: the reducers parallel branches write through."""

from __future__ import annotations

import operator
import typing

from agent.state import ChunkVerdicts, GradeState, InputState, merge_dicts


def test_node_timings_from_parallel_branches_are_merged():
    assert merge_dicts({"a": 1.0}, {"b": 2.0}) == {"a": 1.0, "b": 2.0}
    assert merge_dicts({"a": 1.0}, {"a": 3.0}) == {"a": 3.0}


def test_the_fields_branches_both_write_have_reducers():
    hints = typing.get_type_hints(GradeState, include_extras=True)
    reducers = {
        name: hint.__metadata__[0] for name, hint in hints.items() if hasattr(hint, "__metadata__")
    }
    assert reducers == {
        "chunks": operator.add,
        "warnings": operator.add,
        "node_ms": merge_dicts,
        "degraded": operator.or_,
        "check_failures": operator.add,
    }


def test_the_input_is_the_request_and_an_optional_memory():
    assert set(typing.get_type_hints(InputState)) == {"request", "memory"}


def test_a_chunk_names_its_first_step():
    chunk = ChunkVerdicts(first=4, verdicts=[None], by_llm=True)
    assert chunk.first == 4 and chunk._fields == ("first", "verdicts", "by_llm")

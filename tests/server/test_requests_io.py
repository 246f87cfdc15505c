import json

import pytest

from server.requests_io import InputError, parse_requests

ONE = {"problem": "1+1?", "solution": "1+1=2"}


def test_one_object_an_array_and_json_lines():
    assert len(parse_requests(json.dumps(ONE))) == 1
    assert len(parse_requests(json.dumps([ONE, ONE]))) == 2
    assert len(parse_requests("\n".join([json.dumps(ONE)] * 3) + "\n\n")) == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "input is empty"),
        ("[1]", "item 1: expected a JSON object"),
        (json.dumps({"problem": "p"}), "one of 'solution' or 'solution_steps' is required"),
        (json.dumps(ONE) + "\n{oops", "line 2: not valid JSON"),
        (json.dumps(ONE) + "\n" + json.dumps({"solution": "x"}), "line 2: field 'problem'"),
    ],
)
def test_bad_input_names_line_and_field(text, message):
    with pytest.raises(InputError) as info:
        parse_requests(text)
    assert message in str(info.value)

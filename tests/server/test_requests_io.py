import json

import pytest

from server.requests_io import InputError, read_items

ONE = {"problem": "1+1?", "solution": "1+1=2"}


def _read(text: str | bytes):
    return list(read_items(text if isinstance(text, bytes) else text.encode("utf-8")))


def test_one_object_an_array_and_json_lines():
    assert [(i.where, i.number) for i in _read(json.dumps(ONE))] == [("item", 1)]
    assert [(i.where, i.number) for i in _read(json.dumps([ONE, ONE]))] == [
        ("item", 1),
        ("item", 2),
    ]
    lines = _read("\n".join([json.dumps(ONE)] * 3) + "\n\n")
    assert [(i.where, i.number) for i in lines] == [("line", 1), ("line", 2), ("line", 3)]
    assert all(i.request is not None and i.error is None for i in lines)


def test_blank_lines_keep_the_numbering_and_crlf_is_read():
    items = _read(json.dumps(ONE) + "\r\n\r\n" + json.dumps(ONE) + "\r\n")
    assert [i.number for i in items] == [1, 3] and all(i.request for i in items)


@pytest.mark.parametrize(
    ("line", "code", "field", "message"),
    [
        ("{oops", "invalid_json", None, "not valid JSON"),
        ("[1]", "invalid_request", None, "expected a JSON object"),
        (
            json.dumps({"problem": "p"}),
            "invalid_request",
            None,
            "one of 'solution' or 'solution_steps' is required",
        ),
        (json.dumps({"solution": "x"}), "invalid_request", "problem", "field 'problem'"),
        (json.dumps({**ONE, "mode": "fast"}), "invalid_request", "mode", "field 'mode'"),
        ("[" * 100_000, "invalid_json", None, "JSON"),
    ],
)
def test_a_bad_line_is_an_error_in_its_place(line, code, field, message):
    items = _read(json.dumps(ONE) + "\n" + line + "\n" + json.dumps(ONE))
    assert [i.number for i in items] == [1, 2, 3]
    assert items[0].request and items[2].request
    bad = items[1]
    assert bad.request is None and bad.error is not None
    assert (bad.error.code, bad.error.field) == (code, field)
    assert message in bad.error.message
    assert bad.error_json(bad.error) == {
        "line": 2,
        "error": {"code": code, "field": field, "message": bad.error.message},
    }


def test_a_line_that_is_not_utf8_spoils_only_itself():
    data = (
        json.dumps(ONE).encode() + b"\n" + b'{"problem": "\xff"}' + b"\n" + json.dumps(ONE).encode()
    )
    items = _read(data)
    assert items[0].request and items[2].request
    assert items[1].error.code == "invalid_encoding"


def test_a_bad_array_item_spoils_only_itself():
    items = _read(json.dumps([ONE, {"problem": "p", "solution": 3}, ONE]))
    assert [i.error is None for i in items] == [True, False, True]
    assert items[1].error_json(items[1].error)["item"] == 2


def test_a_byte_order_mark_is_skipped():
    assert _read(b"\xef\xbb\xbf" + json.dumps(ONE).encode())[0].request is not None


@pytest.mark.parametrize("text", ["", "  \n\n "])
def test_empty_input_is_refused_as_a_whole(text):
    with pytest.raises(InputError, match="input is empty"):
        _read(text)

"""Every dev item's offline report, recorded and compared: the check that a refactoring changes no
grade.

    python scripts/report_digest.py record DATA_DIR OUT.jsonl
    python scripts/report_digest.py compare DATA_DIR OLD.jsonl

`record` grades every row of the dev files in DATA_DIR offline and writes one line per item: its id
and its report without the fields that measure time (`meta.elapsed_ms`, `meta.node_ms`).
`compare` grades them again and names each item whose report differs, with the first differing
field; it exits 1 on any difference. The answer check gets a long timeout, so a busy machine does
not turn a verdict into "not decided".
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agent.context import Context
from agent.grader import Grader
from eval_sets.registry import load_dataset
from eval_sets.runner.compare import first_difference, without_timings

DEV_FILES = (
    ("stepmath_steps", "stepmathbench_dev.jsonl"),
    ("stepmath", "stepmathbench_dev.jsonl"),
    ("processbench_with_reference", "processbench_dev.jsonl"),
    ("perturbation", "perturbation_dev.jsonl"),
    ("mr_math_invalid", "mr_math_invalid_dev.jsonl"),
    ("mr_math_redundant", "mr_math_redundant_dev.jsonl"),
)


def reports(data: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each dev item's key and its offline report without timings, in file order."""
    grader = Grader(Context(answer_timeout=60.0))
    for kind, name in DEV_FILES:
        items = load_dataset(kind, data / name)
        for item in tqdm(items, desc=kind, file=sys.stderr):
            record = {"report": grader.grade(item.request).model_dump(mode="json")}
            yield f"{kind}:{item.id}", without_timings(record)["report"]


def main(argv: list[str] | None = None) -> int:
    """Record or compare; 1 when any report differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "compare"))
    parser.add_argument("data", type=Path, help="folder with the dev files")
    parser.add_argument("file", type=Path, help="the recording to write or compare against")
    args = parser.parse_args(argv)
    if args.action == "record":
        with args.file.open("w", encoding="utf-8") as out:
            for key, report in reports(args.data):
                out.write(
                    json.dumps({"id": key, "report": report}, sort_keys=True, ensure_ascii=False)
                    + "\n"
                )
        return 0
    recorded = {}
    with args.file.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            recorded[row["id"]] = row["report"]
    differing = 0
    for key, report in reports(args.data):
        if recorded.get(key) != report:
            differing += 1
            print(f"{key}: {first_difference(recorded.get(key), report)}")
    print(f"{differing} of {len(recorded)} reports differ")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())

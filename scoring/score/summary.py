"""The grade in plain words, for a teacher who reads one sentence before the details.

It says what the labels say and nothing they do not: where the errors are, which later steps build
on them, how many steps no check could read, whether the final answer matched, and how the two
scoring policies differ when they do (docs/architecture.md 4.13). English or Chinese, as the
report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.schema import ProblemType, ScoringPolicy, StepLabel


@dataclass(frozen=True)
class SummaryInput:
    """What the summary reads of a finished grade (labels in step order)."""

    labels: Sequence[StepLabel]
    problem_type: ProblemType
    language: str
    answer_correct: bool | None
    has_reference: bool
    policy: ScoringPolicy
    scores: dict[ScoringPolicy, int]
    process_evaluated: bool = True
    # Steps labelled incorrect only because they carry an earlier error forward (a final answer
    # reached through a wrong step): follow-on work, not errors of their own.
    carried: Sequence[bool] = ()


def _spans(steps: Sequence[int]) -> list[str]:
    """1-based step numbers as runs: [2, 3, 4, 7] -> ["2-4", "7"]."""
    runs: list[list[int]] = []
    for s in sorted(steps):
        if runs and s == runs[-1][-1] + 1:
            runs[-1].append(s)
        else:
            runs.append([s])
    return [f"{r[0]}" if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]


def steps_en(steps: Sequence[int]) -> str:
    """1-based steps in words: "step 3", "steps 2-4 and 7"."""
    spans = _spans(steps)
    word = "step" if len(steps) == 1 else "steps"
    return f"{word} {', '.join(spans[:-1]) + ' and ' + spans[-1] if len(spans) > 1 else spans[0]}"


def steps_zh(steps: Sequence[int]) -> str:
    """1-based steps in Chinese: "第3步", "第2-4、7步"."""
    return "第" + "、".join(_spans(steps)) + "步"


# What the summary says of the final answer, by language: right, wrong, no reference, unread.
_ANSWER: dict[str, tuple[str, str, str, str]] = {
    "en": (
        "The final answer matches the reference.",
        "The final answer does not match the reference.",
        "No reference answer was given, so the final answer was not checked.",
        "The final answer could not be read and compared with the reference.",
    ),
    "zh": (
        "最终答案与参考答案一致。",
        "最终答案与参考答案不一致。",
        "未提供参考答案，最终答案未经核对。",
        "无法读出最终答案与参考答案比较。",
    ),
}


def _answer(s: SummaryInput, language: str) -> str:
    if s.problem_type == "proof":
        return ""
    right, wrong, no_reference, unread = _ANSWER[language]
    if s.answer_correct is not None:
        return right if s.answer_correct else wrong
    return unread if s.has_reference else no_reference


def _at(labels: Sequence[StepLabel], *wanted: StepLabel) -> list[int]:
    return [i for i, label in enumerate(labels, 1) if label in wanted]


def _kinds(s: SummaryInput) -> tuple[list[int], list[int], list[int]]:
    """(errors of their own, steps built on an error, unchecked steps), 1-based."""
    carried = [i for i, c in enumerate(s.carried, 1) if c]
    wrong = [i for i in _at(s.labels, "incorrect") if i not in carried]
    built = sorted([*_at(s.labels, "meaningless"), *carried])
    return wrong, built, _at(s.labels, "unchecked")


def _english(s: SummaryInput) -> str:
    wrong, built, unchecked = _kinds(s)
    parts: list[str] = []
    if not wrong:
        parts.append("No check found an error." if unchecked else "Every step checks out.")
    else:
        head = "One error" if len(wrong) == 1 else f"{len(wrong)} errors"
        parts.append(f"{head}, in {steps_en(wrong)}.")
    if built:
        it = "it" if len(wrong) == 1 else "them"
        parts.append(
            f"Later work ({steps_en(built)}) builds on {it} and otherwise follows correctly."
        )
    if unchecked:
        parts.append(
            f"{len(unchecked)} of {len(s.labels)} steps could not be checked "
            f"({steps_en(unchecked)}); each counts at its expected value."
        )
    parts.append(_answer(s, "en"))
    if len(set(s.scores.values())) > 1:
        other: ScoringPolicy = "follow_through" if s.policy == "stepmath" else "stepmath"
        name = {
            "stepmath": "without credit for work built on an error",
            "follow_through": "with follow-through credit",
        }
        parts.append(
            f"Score {s.scores[s.policy]} {name[s.policy]}; {s.scores[other]} {name[other]}."
        )
    return " ".join(p for p in parts if p)


def _chinese(s: SummaryInput) -> str:
    wrong, built, unchecked = _kinds(s)
    parts: list[str] = []
    if not wrong:
        parts.append("未发现错误。" if unchecked else "每一步都经核对无误。")
    else:
        parts.append(f"{steps_zh(wrong)}有错误。")
    if built:
        parts.append(f"{steps_zh(built)}建立在错误结果之上，其余推理正确。")
    if unchecked:
        parts.append(
            f"{len(s.labels)}步中有{len(unchecked)}步无法核对（{steps_zh(unchecked)}），"
            "按其期望得分计分。"
        )
    parts.append(_answer(s, "zh"))
    if len(set(s.scores.values())) > 1:
        name = {"stepmath": "错误之后的推理不得分", "follow_through": "错误之后的正确推理得分"}
        parts.append("；".join(f"{name[p]}：{v}分" for p, v in s.scores.items()) + "。")
    return "".join(p for p in parts if p)


def plain_summary(s: SummaryInput) -> str:
    """One short paragraph in the report's language."""
    if not s.labels:
        return "未提交解答。" if s.language == "zh" else "No solution was handed in."
    if not s.process_evaluated:
        answer = _answer(s, "zh" if s.language == "zh" else "en")
        head = (
            "题目简单，只评最终答案。"
            if s.language == "zh"
            else "A simple problem: only the final answer was graded."
        )
        return head + ("" if s.language == "zh" else " ") + answer
    return _chinese(s) if s.language == "zh" else _english(s)

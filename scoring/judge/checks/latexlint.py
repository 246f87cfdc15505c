"""LaTeX well-formedness checks for StepMathAgent's format module (docs/architecture.md 4.5).

Only what code can decide for certain: unbalanced braces or math delimiters, `\\left`/`\\right`
pairs, `\\frac` without its two arguments, environments that are not closed.
"""

from __future__ import annotations

import re

from scoring.parse.lexicon import latex

_ESCAPED = re.compile(r"\\[{}$]")
_FRAC = re.compile(latex.FRAC + r"(?![a-zA-Z])\s*")
_ENV = re.compile(r"\\(begin|end)\{([^}]*)\}")
_LEFT_RIGHT = re.compile(r"\\(" + "|".join(latex.DELIMITER_PAIR) + r")(?![a-zA-Z])")


def _brace_problem(text: str) -> str | None:
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return "a closing brace '}' has no opening brace"
    return "an opening brace '{' is never closed" if depth else None


def _closing_braces(text: str) -> dict[int, int]:
    """Where each `{` closes (unclosed ones absent), in one pass: scanning on from every `\\frac`
    took quadratic time on nested fractions (600 of them: seconds per step)."""
    closes: dict[int, int] = {}
    opened: list[int] = []
    for i, ch in enumerate(text):
        if ch == "{":
            opened.append(i)
        elif ch == "}" and opened:
            closes[opened.pop()] = i
    return closes


def _frac_problem(text: str) -> str | None:
    closes: dict[int, int] | None = None
    for match in _FRAC.finditer(text):
        closes = _closing_braces(text) if closes is None else closes
        args = 0
        i = match.end()
        while args < 2 and i < len(text):
            ch = text[i]
            if ch == "{":  # an unclosed group takes the rest of the text as its argument
                i = closes.get(i, len(text)) + 1
            elif ch.isalnum() or ch == "\\":
                i += 1
            elif ch.isspace():
                i += 1
                continue
            else:
                break
            args += 1
        if args < 2:
            return "\\frac is missing an argument"
    return None


def _env_problem(text: str) -> str | None:
    stack: list[str] = []
    for kind, name in _ENV.findall(text):
        if kind == "begin":
            stack.append(name)
        elif not stack or stack.pop() != name:
            return f"\\end{{{name}}} does not close the open environment"
    return f"\\begin{{{stack[-1]}}} is never closed" if stack else None


def _delimiter_problem(text: str) -> str | None:
    if text.count("$") % 2:
        return "an odd number of '$' delimiters"
    if text.count("\\(") != text.count("\\)"):
        return "unbalanced \\( ... \\)"
    if text.count("\\[") != text.count("\\]"):
        return "unbalanced \\[ ... \\]"
    lr = [m.group(1) for m in _LEFT_RIGHT.finditer(text)]
    if lr.count("left") != lr.count("right"):
        return "\\left without a matching \\right"
    return None


def latex_problems(text: str) -> list[str]:
    """Every certain LaTeX defect in `text`, as short messages (empty when well formed)."""
    clean = _ESCAPED.sub("", text)
    checks = (_delimiter_problem, _brace_problem, _env_problem, _frac_problem)
    return [msg for check in checks if (msg := check(clean)) is not None]

"""Dependency aliases for routes (the FastAPI full-stack template's `deps.py`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from agent.grader import Grader


def get_grader(request: Request) -> Grader:
    return request.app.state.grader


GraderDep = Annotated[Grader, Depends(get_grader)]

"""Service-only schemas: error bodies and the batch family (GradeRequest/GradeReport live in scoring)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic.json_schema import SkipJsonSchema

from scoring.schema import GradeReport, GradeRequest, Meta


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable machine-readable code, e.g. `invalid_request`.")
    message: str
    field: str | None = Field(
        default=None, description="The offending field, when one is to blame."
    )


class ErrorResponse(BaseModel):
    error: ErrorDetail


class ServedMeta(Meta):
    grade_id: str | None = Field(
        default=None,
        description="The stored grade (`GET /grades/{id}`); absent when the "
        "service keeps no grades (STEPGRADE_STORE=off).",
        exclude_if=lambda v: v is None,
    )


class ServedReport(GradeReport):
    """The GradeReport as the service answers it: its `meta` names the stored grade."""

    meta: ServedMeta  # a Meta with the grade's id


def served(report: GradeReport, grade_id: str | None = None) -> ServedReport:
    """`report` as answered, without re-validating what the grader built."""
    meta = ServedMeta.model_construct(
        report.meta.model_fields_set | {"grade_id"}, **{**dict(report.meta), "grade_id": grade_id}
    )
    return ServedReport.model_construct(report.model_fields_set, **{**dict(report), "meta": meta})


@dataclass(frozen=True)
class RejectedItem:
    """A batch item that is not a valid GradeRequest: where in the item, and why (the first error).

    It fails only its own place in the batch, as a failed grade does, instead of the whole request.
    """

    loc: tuple[str, ...]
    message: str

    def detail(self, index: int) -> ErrorDetail:
        """The item's error, its field named from the batch (`items.3.solution`)."""
        field = ".".join(("items", str(index), *self.loc))
        return ErrorDetail(code="invalid_request", message=f"{field}: {self.message}", field=field)


def _item_or_rejection(value: Any, _: ValidatorFunctionWrapHandler) -> GradeRequest | RejectedItem:
    """One batch item: its GradeRequest, or the reason it is none (kept in the item's place)."""
    if isinstance(value, GradeRequest | RejectedItem):
        return value
    try:
        return GradeRequest.model_validate(value)
    except ValidationError as err:
        first = err.errors()[0]
        return RejectedItem(
            tuple(str(p) for p in first.get("loc", ())), str(first.get("msg", "invalid"))
        )


# The schema a client sees is GradeRequest's; an invalid item is validated into a RejectedItem.
BatchEntry = Annotated[
    GradeRequest | SkipJsonSchema[RejectedItem], WrapValidator(_item_or_rejection)
]


class BatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[BatchEntry] = Field(
        min_length=1,
        description="Solutions to grade; at most STEPGRADE_BATCH_MAX_ITEMS. An "
        "item that is not a valid GradeRequest fails only itself (its result's `error`).",
    )


class BatchItem(BaseModel):
    """One item's outcome: a report, or the error that item alone ran into."""

    index: int = Field(description="0-based position in the request's `items`.")
    report: ServedReport | None = None
    error: ErrorDetail | None = None


class BatchResponse(BaseModel):
    results: list[BatchItem] = Field(description="In the order of the request's items.")
    succeeded: int
    failed: int


ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorResponse, "description": "X-API-Key missing or wrong (when keys are set)."},
    413: {"model": ErrorResponse, "description": "Body larger than STEPGRADE_MAX_BODY_BYTES."},
    422: {"model": ErrorResponse, "description": "Invalid request; `field` names the culprit."},
    500: {"model": ErrorResponse, "description": "Unexpected failure (no traceback is sent)."},
    504: {"model": ErrorResponse, "description": "Deadline passed with nothing to return."},
}

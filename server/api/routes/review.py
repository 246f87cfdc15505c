"""The review page for teachers (`GET /review`), its static files, and `GET /examples`.

The page is display only: plain files from `server/static/` (no build step, no CDN) whose
scripts call the public API (`GET /examples`, `POST /grade/stream`) like any other client.
Its scripts and styles are all same-origin files, so the page is served under a strict
Content-Security-Policy with no inline script.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse
from pydantic import BaseModel, Field

from example_requests import ARITHMETIC_SLIP, EXAMPLES_DIR
from scoring.schema import GradeRequest
from server.core.errors import ApiError

router = APIRouter()

STATIC_DIR = Path(__file__).resolve().parents[2] / "static"

# KaTeX styles its output through the CSSOM (element.style), which `style-src 'self'` allows.
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": _CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
# Python's mimetypes table does not know every type the page serves on every platform.
_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".woff2": "font/woff2",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".md": "text/plain",
    "": "text/plain",
}


class Example(BaseModel):
    """A bundled example request (`example_requests/<name>.json`)."""

    name: str = Field(description="The file's stem, e.g. `arithmetic_slip`.")
    request: GradeRequest


@cache
def bundled_examples() -> tuple[Example, ...]:
    """Read once: the files ship with the package and do not change while it runs."""
    return tuple(
        Example(
            name=path.stem,
            request=GradeRequest.model_validate(json.loads(path.read_text(encoding="utf-8"))),
        )
        for path in sorted(EXAMPLES_DIR.glob("*.json"))
    )


_EXAMPLES_DOC: dict[int | str, dict[str, object]] = {
    200: {
        "content": {
            "application/json": {
                "example": [{"name": "arithmetic_slip", "request": ARITHMETIC_SLIP}]
            }
        }
    }
}


@router.get(
    "/examples",
    tags=["examples"],
    response_model=list[Example],
    response_model_exclude_unset=True,
    responses=_EXAMPLES_DOC,
)
async def examples() -> tuple[Example, ...]:
    """The example requests bundled with stepgrade, ready to POST to `/grade` (the review page
    offers them to pick from)."""
    return bundled_examples()


@router.get("/", include_in_schema=False)
async def home() -> RedirectResponse:
    # Relative, like every URL in the page: it keeps working behind a proxy's path prefix.
    """The service's root sends a browser to the review page."""
    return RedirectResponse("review")


@router.get("/review", include_in_schema=False)
async def review_page() -> FileResponse:
    """The review page itself."""
    return FileResponse(STATIC_DIR / "review.html", headers=_HEADERS, media_type=_TYPES[".html"])


def static_file(name: str) -> Path:
    """The file `name` under STATIC_DIR; 404 for anything else (`..`, absolute, folders)."""
    path = (STATIC_DIR / name).resolve()
    if not path.is_relative_to(STATIC_DIR) or not path.is_file():
        raise ApiError(404, "not_found", f"no such file: /review/{name}")
    return path


@router.get("/review/{name:path}", include_in_schema=False)
async def review_asset(name: str) -> FileResponse:
    """The page's scripts, styles and vendored KaTeX, from the package's static folder."""
    path = static_file(name)
    return FileResponse(
        path, headers=_HEADERS, media_type=_TYPES.get(path.suffix, "application/octet-stream")
    )

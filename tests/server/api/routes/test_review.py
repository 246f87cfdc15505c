"""The review page as the service serves it: files, headers, `GET /examples` (no browser here;
tests/browser/ drives the page in Chromium)."""

from __future__ import annotations

import json
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from example_requests import EXAMPLES_DIR, example_names
from scoring.schema import GradeRequest
from server.api.routes.review import STATIC_DIR, static_file
from server.core.errors import ApiError
from tests.server.conftest import service

REPO = Path(__file__).resolve().parents[4]
OWN_FILES = [
    STATIC_DIR / "review.html",
    STATIC_DIR / "review.css",
    *sorted((STATIC_DIR / "js").glob("*.js")),
]


class _Page(HTMLParser):
    """Collects what a CSP-friendly page must get right: scripts, links, inline code."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.links: list[str] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.inline += [f"{tag} {k}" for k, _ in attrs if k.startswith("on") or k == "style"]
        if tag == "script":
            self.scripts.append(named)
            self._in_script = True
        if tag == "link" and named.get("href") and not named["href"].startswith("data:"):
            self.links.append(named["href"])
        if tag == "style":
            self.inline.append("style element")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append("inline script")


@pytest.fixture(scope="module")
def client():
    with service(api_keys="secret-key") as c:
        yield c


def _page(client) -> _Page:
    parsed = _Page()
    parsed.feed(client.get("/review").text)
    return parsed


def test_home_redirects_to_the_review_page(client):
    response = client.get("/", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "review"
    assert client.get("/").url.path == "/review"


def test_page_is_html_under_a_strict_policy_without_inline_code(client):
    response = client.get("/review")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    policy = response.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe" not in policy
    assert "connect-src 'self'" in policy and "default-src 'none'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    page = _page(client)
    assert page.inline == []
    assert page.scripts and all(s.get("src") for s in page.scripts)


def test_everything_the_page_loads_is_served_by_the_app(client):
    page = _page(client)
    wanted = [s["src"] for s in page.scripts] + page.links
    assert {"review/js/main.js", "review/vendor/katex/katex.min.js", "review/review.css"} <= set(
        wanted
    )
    types = {".js": "text/javascript", ".css": "text/css"}
    for url in wanted:
        assert not url.startswith(("http:", "https:", "//")), url
        response = client.get(f"/{url}")
        assert response.status_code == 200, url
        assert response.headers["content-type"].startswith(types[Path(url).suffix]), url


def test_module_imports_and_stylesheet_fonts_resolve():
    for script in (STATIC_DIR / "js").glob("*.js"):
        for target in re.findall(r'from "(\./[^"]+)"', script.read_text(encoding="utf-8")):
            assert (script.parent / target).is_file(), f"{script.name} imports missing {target}"
    css = (STATIC_DIR / "vendor/katex/katex.min.css").read_text(encoding="utf-8")
    fonts = set(re.findall(r"url\((fonts/[^)]+\.woff2)\)", css))
    assert len(fonts) > 10
    assert all((STATIC_DIR / "vendor/katex" / f).is_file() for f in fonts)


def test_fonts_are_served_with_their_type(client):
    response = client.get("/review/vendor/katex/fonts/KaTeX_Main-Regular.woff2")
    assert response.status_code == 200
    assert response.headers["content-type"] == "font/woff2"


def test_own_files_load_nothing_from_elsewhere():
    for path in OWN_FILES:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path.name
        # Report text reaches the DOM as text nodes only, never parsed as markup.
        assert not re.search(
            r"\.(inner|outer)HTML\s*=|insertAdjacentHTML|document\.write|\beval\(", text
        ), path.name


def test_katex_ships_with_its_licence(client):
    licence = client.get("/review/vendor/katex/LICENSE")
    assert licence.status_code == 200 and "MIT License" in licence.text


@pytest.mark.parametrize(
    "name",
    [
        "../routes/review.py",
        "../../pyproject.toml",
        "/etc/passwd",
        "js",
        "",
        "vendor/katex/fonts/nothing.woff2",
    ],
)
def test_only_files_under_static_are_served(name):
    with pytest.raises(ApiError) as caught:
        static_file(name)
    assert caught.value.status == 404


@pytest.mark.parametrize(
    "path",
    [
        "/review/%2e%2e/routes/review.py",
        "/review/..%2fmain.py",
        "/review/js/%2e%2e/%2e%2e/settings.py",
    ],
)
def test_encoded_traversal_gets_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_examples_are_the_bundled_files(client):
    response = client.get("/examples")
    assert response.status_code == 200
    listed = response.json()
    assert [e["name"] for e in listed] == example_names()
    for example in listed:
        on_disk = json.loads((EXAMPLES_DIR / f"{example['name']}.json").read_text(encoding="utf-8"))
        assert example["request"] == on_disk
        GradeRequest.model_validate(example["request"])


def test_page_and_examples_need_no_key_but_grading_does(client):
    # The page must load so that a user can type the key into it.
    for path in ("/review", "/examples", "/review/js/main.js"):
        assert client.get(path).status_code == 200, path
    request = client.get("/examples").json()[0]["request"]
    assert client.post("/grade/stream", json=request).status_code == 401
    assert (
        client.post("/grade/stream", json=request, headers={"X-API-Key": "secret-key"}).status_code
        == 200
    )


def test_openapi_documents_examples_but_not_the_page(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert "/examples" in paths and "get" in paths["/examples"]
    content = paths["/examples"]["get"]["responses"]["200"]["content"]["application/json"]
    assert content["schema"]["type"] == "array"
    assert content["example"][0]["name"] == "arithmetic_slip"
    assert not any(p == "/" or p.startswith("/review") for p in paths)


def test_every_static_file_is_package_data():
    """A wheel must carry the page: each file under server/static matches a package-data glob."""
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["server"]
    server_dir = STATIC_DIR.parent
    packaged = {p for pattern in patterns for p in server_dir.glob(pattern) if p.is_file()}
    files = {p for p in STATIC_DIR.rglob("*") if p.is_file()}
    assert files and files <= packaged, sorted(str(p) for p in files - packaged)


def _called_paths() -> set[str]:
    """The API paths the page's scripts call, as OpenAPI templates: `grades/${x}` -> /grades/{}."""
    api = (STATIC_DIR / "js" / "api.js").read_text(encoding="utf-8")
    calls = re.findall(r'(?:send|storeCall)\(\s*[`"]([^`"]+)[`"]', api)
    return {"/" + re.sub(r"\$\{[^}]+\}", "{}", call).split("?")[0] for call in calls}


def test_the_page_calls_only_documented_routes(client):
    """The Review view's calls (queue, grade, corrections) exist in the API, by method."""
    paths = client.get("/openapi.json").json()["paths"]
    documented = {re.sub(r"\{[^}]+\}", "{}", path): set(ops) for path, ops in paths.items()}
    called = _called_paths()
    assert called == {
        "/examples",
        "/grade/stream",
        "/grades",
        "/grades/{}",
        "/grades/{}/corrections",
    }
    assert all(path in documented for path in called), called - documented.keys()
    assert "post" in documented["/grades/{}/corrections"] and "get" in documented["/grades"]


def test_the_key_field_serves_both_views():
    """The key sits in the header, outside the grade form but part of it (`form=`), so the
    Review view's calls send the same key."""
    page = (STATIC_DIR / "review.html").read_text(encoding="utf-8")
    key = re.search(r"<input[^>]*id=\"api_key\"[^>]*>", page)
    assert key and 'form="grade-form"' in key.group(0)
    assert page.index('id="api_key"') < page.index('id="grade-view"')
    assert 'role="tab"' in page and 'id="review-view"' in page

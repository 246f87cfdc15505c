"""The review page in headless Chromium against a running `stepgrade serve`.

Each test drives the page like a user (pick an example, type a key, press Grade) and checks
the rendered DOM against the report the API returns for the same request.
"""

from __future__ import annotations

import json

import pytest

from .cdp import Browser
from .conftest import MAX_BODY_BYTES, Service, artefacts_dir, require_chromium

require_chromium()
pytestmark = pytest.mark.timeout(300)

# Everything a test needs to read back from the rendered page, in one round trip.
READ_PAGE = """(() => {
  const text = (node) => node ? node.textContent.replace(/\\s+/g, " ").trim() : null;
  const q = (sel) => document.querySelector(sel);
  return {
    state: q("#result").dataset.state || null,
    status: text(q("#status")),
    steps: [...document.querySelectorAll("#result .step")].map((li) => ({
      index: Number(li.dataset.index),
      label: li.dataset.label,
      text: text(li.querySelector(".step-text")),
      reason: text(li.querySelector(".reason")),
      uses: [...li.querySelectorAll(".facts a")].map((a) => a.getAttribute("href")),
      facts: Object.fromEntries([...li.querySelectorAll(".facts dt")].map(
        (dt) => [text(dt), text(dt.nextElementSibling)])),
      tags: [...li.querySelectorAll(".tag")].map((t) => t.textContent),
    })),
    nodes: [...document.querySelectorAll("#result svg .node")].map((g) => ({
      step: Number(g.dataset.step), classes: [...g.classList],
    })),
    edges: [...document.querySelectorAll("#result svg .edge")].map(
      (p) => [Number(p.dataset.from), Number(p.dataset.to)]),
    chains: text(q("#result .tree .chains")),
    cards: Object.fromEntries([...document.querySelectorAll("#result .card")].map(
      (c) => [c.dataset.metric, text(c.querySelector(".value"))])),
    answer: text(q("#result .answer")),
    degraded: text(q("#result .banner.degraded")),
    warnings: [...document.querySelectorAll("#result .warnings li")].map(text),
    progress: [...document.querySelectorAll("#progress li")].map((li) => li.dataset.node || li.dataset.event),
    error: q("#error-box").hidden ? null : {
      status: q("#error-box").dataset.status, code: q("#error-box").dataset.code,
      text: text(q("#error-box")),
    },
    invalid: [...document.querySelectorAll("[aria-invalid=true]")].map((n) => n.id),
    focused: document.activeElement ? document.activeElement.id : null,
  };
})()"""

DONE = ("document.getElementById('result').dataset.state === 'final' "
        "|| !document.getElementById('error-box').hidden")


def read(page: Browser) -> dict:
    return page.eval(READ_PAGE)


def load_example(page: Browser, name: str) -> None:
    page.eval(f"document.getElementById('example').value = {json.dumps(name)};"
              "document.getElementById('load-example').click()")


def set_field(page: Browser, field: str, value: str) -> None:
    page.eval(f"document.getElementById({json.dumps(field)}).value = {json.dumps(value)}")


def grade(page: Browser, key: str | None) -> dict:
    """Enter the key (when given) and press Grade; wait for the report or an error."""
    set_field(page, "api_key", key or "")
    page.eval("document.getElementById('grade-button').click()")
    page.wait(DONE, timeout=120)
    return read(page)


def check_no_page_errors(page: Browser) -> None:
    assert page.problems() == []


def test_page_is_served_by_the_app_alone(page: Browser, service: Service):
    resources = page.eval("performance.getEntriesByType('resource').map((r) => r.name)")
    assert resources, "the page loaded no scripts or styles"
    assert all(r.startswith(service.url + "/") for r in resources), resources
    assert page.eval("typeof katex === 'object' && typeof renderMathInElement === 'function'")
    listed = page.eval("[...document.querySelectorAll('#example option')].map((o) => o.value)")
    assert listed[1:] == sorted(service.examples())
    check_no_page_errors(page)


def test_grades_a_bundled_example_and_draws_its_tree(page: Browser, service: Service):
    load_example(page, "arithmetic_slip")
    report = service.grade(service.examples()["arithmetic_slip"])
    dom = grade(page, service.api_key)
    assert dom["error"] is None and dom["state"] == "final"

    # Steps: one card per step, label, reason, the steps it uses, validity, all from the report.
    assert [s["label"] for s in dom["steps"]] == [s["label"] for s in report["steps"]]
    assert "incorrect" in [s["label"] for s in dom["steps"]]
    for shown, step in zip(dom["steps"], report["steps"], strict=True):
        assert shown["index"] == step["index"]
        assert shown["reason"] == step["reason"]
        assert shown["uses"] == [f"#step-{i}" for i in step["depends_on"]]
        assert shown["facts"]["validity"] == f"{step['validity']:.2f}"
        assert shown["facts"]["redundancy"] == f"{step['redundancy']:.2f}"
        if step["evidence"]:
            assert shown["facts"]["evidence"] == " ".join(step["evidence"])
        if step.get("p_wrong") is not None:
            assert shown["facts"]["P(wrong)"] == f"{int(step['p_wrong'] * 100 + 0.5)}%"

    # The tree: its nodes and edges are the report's; roots and the first error stand out.
    tree = report["error_tree"]
    assert tree["edges"], "the example should have a chain of errors"
    steps_in_tree = set(tree["roots"]) | {i for e in tree["edges"] for i in e}
    assert sorted(n["step"] for n in dom["nodes"]) == sorted(steps_in_tree)
    assert sorted(dom["edges"]) == sorted(map(list, tree["edges"]))
    labels = {s["index"]: s["label"] for s in report["steps"]}
    for node in dom["nodes"]:
        assert labels[node["step"]] in node["classes"]
        assert ("root" in node["classes"]) == (node["step"] in tree["roots"])
    first = [n["step"] for n in dom["nodes"] if "first-error" in n["classes"]]
    assert first == [report["hcrs"]["first_error"]]
    assert "first error" in dom["steps"][first[0] - 1]["tags"]
    assert dom["chains"] == f"Chains: {tree['formatted']}"

    # Scores and the answer verdict, as the report states them.
    assert dom["cards"]["score"] == f"{report['score']}/10"
    assert dom["cards"]["hcrs"] == f"{report['hcrs']['score']:.2f}"
    assert dom["cards"]["holistic"] == f"{report['holistic']:.2f}"
    assert dom["cards"]["quadrant"] == {"failure": "complete failure", "robust": "robust reasoning",
                                        "lucky_guess": "lucky guess",
                                        "hallucination": "hallucination"}[report["quadrant"]]
    verdict = {True: "correct", False: "wrong", None: "undecided"}[report["answer"]["correct"]]
    assert f"{verdict} by {report['answer']['method']}: {report['answer']['extracted']}" in dom["answer"]

    # It came over the stream: node events first, the report last.
    assert {"segment", "score_steps", "build_tree"} <= set(dom["progress"])
    assert dom["progress"][0] == "accepted" and dom["progress"][-1] == "report"
    assert page.eval("document.querySelectorAll('#result .step-text .katex').length") > 0
    check_no_page_errors(page)
    page.screenshot(artefacts_dir() / "review.png")


def test_steps_appear_before_the_report_arrives(page: Browser, service: Service, fake_llm):
    """With a slow (fake) LLM, the streamed steps are on screen while grading still runs."""
    fake_llm.latency = 1.5
    try:
        load_example(page, "arithmetic_slip")
        page.eval("document.getElementById('mode_llm').checked = true")
        set_field(page, "api_key", service.api_key)
        page.eval("document.getElementById('grade-button').click()")
        live = page.wait("document.getElementById('result').dataset.state === 'live' "
                         "&& document.querySelectorAll('#result .step').length", timeout=60)
        assert live == 3
        assert page.eval("document.getElementById('grade-button').disabled")
        page.wait(DONE, timeout=120)
    finally:
        fake_llm.latency = 0.0
    dom = read(page)
    assert dom["state"] == "final" and dom["error"] is None
    assert "score_steps" in dom["progress"]
    assert "by llm" in dom["answer"] or "by both" in dom["answer"]


def test_keyboard_reaches_the_form_the_tree_and_the_steps(page: Browser, service: Service):
    load_example(page, "arithmetic_slip")
    grade(page, service.api_key)
    page.eval("document.activeElement.blur(); window.scrollTo(0, 0)")
    seen: list[str] = []
    for _ in range(80):
        page.tab()
        focused = page.eval("(() => { const a = document.activeElement;"
                            " return a.dataset && a.dataset.step ? 'node-' + a.dataset.step"
                            " : a.id || a.getAttribute('href') || a.tagName; })()")
        seen.append(focused)
        if focused.startswith("node-"):
            break
    for control in ("example", "load-example", "problem", "solution", "reference_answer",
                    "api_key", "grade-button", "render-math"):
        assert control in seen, f"{control} not reached by Tab: {seen}"
    assert seen[-1].startswith("node-"), f"no tree node reached by Tab: {seen}"
    page.enter()  # a tree node jumps to its step
    assert page.eval("document.activeElement.id") == f"step-{seen[-1].removeprefix('node-')}"
    page.tab()  # onwards into the step's links
    assert page.eval("document.activeElement.tagName") in ("A", "G", "g")


def test_readable_at_360_pixels(page: Browser, service: Service):
    page.viewport(360, 780, mobile=True)
    page.goto(f"{service.url}/review")
    page.wait("document.querySelectorAll('#example option').length > 1")
    load_example(page, "arithmetic_slip")
    dom = grade(page, service.api_key)
    assert dom["state"] == "final"
    assert page.eval("document.documentElement.scrollWidth") <= 360
    overflowing = page.eval("""[...document.querySelectorAll('#result *, form *')]
        .filter((n) => n.getBoundingClientRect().right > 361 && !n.closest('.katex'))
        .map((n) => n.tagName + '.' + n.className)""")
    assert overflowing == []
    assert page.eval("document.querySelector('#result svg').getBoundingClientRect().width") <= 330
    assert page.eval("parseFloat(getComputedStyle(document.querySelector('.step-text')).fontSize)") >= 14
    page.screenshot(artefacts_dir() / "review-360.png")


def test_chinese_solution_renders(page: Browser, service: Service):
    load_example(page, "chinese")
    report = service.grade(service.examples()["chinese"])
    dom = grade(page, service.api_key)
    assert dom["state"] == "final"
    assert page.eval("document.querySelector('#result .step-list').lang") == "zh-Hans"
    assert page.eval("document.querySelectorAll('#result .step-text .katex').length") > 0
    page.screenshot(artefacts_dir() / "review-zh.png")
    page.eval("document.getElementById('render-math').click()")  # LaTeX as source
    shown = [s["text"] for s in read(page)["steps"]]
    assert shown == [" ".join(s["text"].split()) for s in report["steps"]]
    assert any("两边" in text for text in shown)


def test_missing_api_key_is_explained(page: Browser):
    load_example(page, "arithmetic_slip")
    dom = grade(page, key=None)
    assert dom["error"]["status"] == "401" and dom["error"]["code"] == "unauthorized"
    assert "API key" in dom["error"]["text"]
    assert dom["invalid"] == ["api_key"] and dom["focused"] == "api_key"
    assert dom["steps"] == []


def test_invalid_request_names_the_field(page: Browser, service: Service):
    load_example(page, "arithmetic_slip")
    page.eval("document.getElementById('problem').value = 'Solve x. \\uD800'")  # lone surrogate
    dom = grade(page, service.api_key)
    assert dom["error"]["status"] == "422" and dom["error"]["code"] == "invalid_request"
    assert "field problem" in dom["error"]["text"]
    assert dom["invalid"] == ["problem"] and dom["focused"] == "problem"


def test_too_large_request_is_explained(page: Browser, service: Service):
    load_example(page, "arithmetic_slip")
    set_field(page, "solution", "$1 + 1 = 2$\n" * (MAX_BODY_BYTES // 10))
    dom = grade(page, service.api_key)
    assert dom["error"]["status"] == "413" and dom["error"]["code"] == "body_too_large"
    assert str(MAX_BODY_BYTES) in dom["error"]["text"]


def test_degraded_grade_is_shown_plainly(page: Browser, service: Service, fake_llm):
    fake_llm.fault = "500"
    load_example(page, "arithmetic_slip")
    page.eval("document.getElementById('mode_llm').checked = true")
    dom = grade(page, service.api_key)
    assert dom["state"] == "final" and dom["error"] is None
    assert dom["degraded"] and dom["degraded"].startswith("Degraded grade.")
    assert dom["warnings"], "a degraded grade says why"
    assert "(degraded)" in dom["status"]
    page.screenshot(artefacts_dir() / "review-degraded.png")


def test_stream_parser_handles_split_and_crlf_chunks(page: Browser):
    events = page.eval("""(async () => {
      const { splitEvents } = await import('./review/js/sse.js');
      const chunks = ['id: 1\\r', '\\nevent: node\\r\\ndata: {"a":', '1}\\r\\n\\r\\n: ping\\n\\n',
                      'event: report\\ndata: line one\\ndata:line two\\n\\nevent: tail\\ndata: x'];
      let rest = '', out = [];
      for (const chunk of chunks) { const [e, r] = splitEvents(rest + chunk); out.push(...e); rest = r; }
      return { out, rest };
    })()""")
    assert events["out"] == [
        {"event": "node", "data": '{"a":1}', "id": "1"},
        {"event": "report", "data": "line one\nline two", "id": None},
    ]
    assert events["rest"] == "event: tail\ndata: x"


def test_tree_drawing_of_a_merging_tree(page: Browser):
    """DESIGN.md 4.4's example: chains (3)-(4)-(6) and (5)-(6), step 3 the first error."""
    drawn = page.eval("""(async () => {
      const { drawTree, layoutTree } = await import('./review/js/tree.js');
      const tree = { roots: [3, 5], edges: [[3, 4], [4, 6], [5, 6]], chains: [[3, 4, 6], [5, 6]] };
      const labels = new Map([[3, 'incorrect'], [4, 'meaningless'], [5, 'incorrect'], [6, 'meaningless']]);
      const svg = drawTree(tree, { labels, firstError: 3 });
      document.body.append(svg);
      const out = {
        depths: layoutTree(tree).nodes.map((n) => [n.step, n.depth]),
        nodes: [...svg.querySelectorAll('.node')].map((g) => [Number(g.dataset.step), g.getAttribute('class')]),
        edges: [...svg.querySelectorAll('.edge')].map((p) => [Number(p.dataset.from), Number(p.dataset.to)]),
        label: svg.getAttribute('aria-label'),
      };
      svg.remove();
      return out;
    })()""")
    assert drawn["depths"] == [[3, 0], [4, 1], [5, 0], [6, 2]]
    assert drawn["nodes"] == [[3, "node incorrect root first-error"], [4, "node meaningless"],
                              [5, "node incorrect root"], [6, "node meaningless"]]
    assert drawn["edges"] == [[3, 4], [4, 6], [5, 6]]
    assert drawn["label"] == "Tree-of-Error: (3)-(4)-(6), (5)-(6)"


def test_optional_and_unknown_report_fields(page: Browser, service: Service):
    """Fields other work adds (steps[].p_wrong, meta.failed_checks, more meta) render when
    present; unknown ones do not break the page."""
    report = service.grade(service.examples()["arithmetic_slip"])
    report["steps"][0]["p_wrong"] = 0.87
    report["steps"][1]["p_wrong"] = None
    report["steps"][2]["some_future_field"] = {"x": 1}
    report["meta"]["failed_checks"] = ["answer_worker"]
    report["meta"]["llm_operations"] = [{"operation": "segmentation", "ms": 12.5}]
    report["a_future_section"] = [1, 2, 3]
    shown = page.eval(f"""(async () => {{
      const {{ renderReport }} = await import('./review/js/report.js');
      const root = document.getElementById('result');
      renderReport(root, {json.dumps(report)});
      root.querySelector('details.meta').open = true;
      return {{
        facts: [...root.querySelectorAll('.step .facts')].map((f) => f.textContent),
        failed: root.querySelector('.failed-checks') && root.querySelector('.failed-checks').textContent,
        other: [...root.querySelectorAll('.meta-other h3')].map((h) => h.textContent),
      }};
    }})()""")
    assert "P(wrong)87%" in shown["facts"][0]
    assert "P(wrong)" not in shown["facts"][1]
    assert shown["failed"] == "Failed checksanswer_worker"
    assert shown["other"] == ["llm_operations"]
    check_no_page_errors(page)

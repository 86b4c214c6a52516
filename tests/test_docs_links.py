"""Docs link only to files in the repository: every relative link in README.md and docs/*.md resolves
to a file or folder inside the checkout, and a `#fragment` to a heading of the target (issue 25, item 9)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
HTML = re.compile(r"""<(?:a|img|source)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)  # http:, https:, mailto:, //host ...


def _prose(text):
    """The text outside fenced code blocks and code spans (links there are not links)."""
    return CODE_SPAN.sub(" ", FENCE.sub("\n", text))


def links(text):
    """The targets of the Markdown and HTML links of a document, in order."""
    prose = _prose(text)
    found = [(m.start(), m.group(1)) for pattern in (INLINE, REFERENCE, HTML) for m in pattern.finditer(prose)]
    return [target for _, target in sorted(found)]


def slugs(text):
    """GitHub's anchors of the headings of a Markdown document."""
    out = set()
    for line in FENCE.sub("\n", text).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            title = re.sub(r"`", "", m.group(1)).strip().lower()
            slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            base, n = slug, 1
            while slug in out:
                slug, n = f"{base}-{n}", n + 1
            out.add(slug)
    return out


def problems(doc, text):
    bad = []
    for target in links(text):
        if EXTERNAL.match(target):
            continue
        path, _, fragment = target.partition("#")
        resolved = (doc.parent / path).resolve() if path else doc
        if path.startswith("/") or not resolved.is_relative_to(ROOT):
            bad.append(f"{target}: outside the repository")
        elif not resolved.exists():
            bad.append(f"{target}: no such file in the repository")
        elif fragment and resolved.suffix == ".md" and fragment not in slugs(resolved.read_text(encoding="utf-8")):
            bad.append(f"{target}: {resolved.name} has no heading #{fragment}")
    # a relative path written as code (`../x/y.md`) is a link in all but name
    for m in CODE_SPAN.finditer(FENCE.sub("\n", text)):
        span = m.group(2).strip()
        if span.startswith("../"):
            resolved = (doc.parent / span).resolve()
            if not resolved.is_relative_to(ROOT):
                bad.append(f"`{span}`: names a path outside the repository")
            elif not resolved.exists():
                bad.append(f"`{span}`: no such file in the repository")
    return bad


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_relative_links_resolve_inside_the_repository(doc):
    assert problems(doc, doc.read_text(encoding="utf-8")) == []


def test_the_checker_catches_bad_links(tmp_path):
    doc = ROOT / "docs" / "BOTZONE.md"
    text = ("[spec](../shared/spec/BOTZONE.md) [gone](MISSING.md) ![pic](../docs/nothing.png) "
            "[abs](/etc/passwd) [anchor](#no-such-heading) [ok](RULES.md) [web](https://botzone.org.cn) "
            "see `../shared/spec/BOTZONE.md` and `../../spec/API.md`, not `../docs/RULES.md`\n\n[ref]: ../../outside.md\n"
            "<img src=\"../../x.png\">\n```sh\n[not a link](nowhere.md)\n```\n`[code](nowhere.md)`\n")
    assert problems(doc, text) == [
        "../shared/spec/BOTZONE.md: no such file in the repository",
        "MISSING.md: no such file in the repository",
        "../docs/nothing.png: no such file in the repository",
        "/etc/passwd: outside the repository",
        "#no-such-heading: BOTZONE.md has no heading #no-such-heading",
        "../../outside.md: outside the repository",
        "../../x.png: outside the repository",
        "`../shared/spec/BOTZONE.md`: no such file in the repository",
        "`../../spec/API.md`: names a path outside the repository",
    ]


def test_anchor_slugs_follow_github():
    text = "# 4. How Botzone's table differs\n## Your program in `simulate`, `Match`\n## Cold start\n## Cold start\n"
    assert slugs(text) == {"4-how-botzones-table-differs", "your-program-in-simulate-match", "cold-start",
                           "cold-start-1"}

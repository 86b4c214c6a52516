"""docs/RULES.md lists every rule key of every ruleset, with the default the code has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mahjong_core.rules import changbai, mcr, sichuan

DOC = (Path(__file__).resolve().parent.parent / "docs" / "RULES.md").read_text("utf-8")
SECTIONS = {"mcr": "## 1. MCR", "sichuan": "## 2. Sichuan", "changbai": "## 3. Changbai"}
RULES = {"mcr": mcr.Rules, "sichuan": sichuan.Rules, "changbai": changbai.Rules}


def section(name: str) -> str:
    start = DOC.index(SECTIONS[name])
    ends = [DOC.index(h) for h in SECTIONS.values() if DOC.index(h) > start]
    return DOC[start:min(ends) if ends else len(DOC)]


def table_defaults(text: str) -> dict:
    """{key: default text} of the rows `| `key` | default | notes |`."""
    return {m.group(1): m.group(2).strip().strip("`")
            for m in re.finditer(r"^\| `([a-z_0-9]+)` \| ([^|]+) \|", text, re.MULTILINE)}


def shown(value) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + ")"
    return str(value)


@pytest.mark.parametrize("ruleset", sorted(RULES))
def test_every_rule_key_is_in_docs_rules_with_its_default(ruleset):
    rules_class = RULES[ruleset]
    rows = table_defaults(section(ruleset))
    defaults = rules_class.presets[rules_class.DEFAULT_PRESET]
    missing = [k for k in rules_class.keys() if k not in rows]
    assert not missing, f"{ruleset} keys missing from docs/RULES.md: {missing}"
    wrong = {k: (rows[k], shown(getattr(defaults, k))) for k in rules_class.keys() if rows[k] != shown(getattr(defaults, k))}
    assert not wrong, f"{ruleset}: documented default differs from the code's (doc, code): {wrong}"
    unknown = sorted(set(rows) - set(rules_class.keys()))
    assert not unknown, f"{ruleset}: docs/RULES.md lists keys the code does not have: {unknown}"


@pytest.mark.parametrize("ruleset", sorted(RULES))
def test_every_preset_is_in_docs_rules(ruleset):
    text = section(ruleset)
    for name in RULES[ruleset].presets:
        assert f"`{name}`" in text, f"{ruleset} preset {name} is not described in docs/RULES.md"

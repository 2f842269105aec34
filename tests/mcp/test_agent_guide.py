"""AGENT_GUIDE.md: the guide ``embornal bootstrap --guide`` prints is the file at the top of
the repository, and every tool it tells an agent to call is one the MCP server offers."""

from __future__ import annotations

import re
from pathlib import Path

from embornal.interfaces.cli.bootstrap import agent_guide
from embornal.interfaces.mcp.tools import CORE_TOOLS, FULL_TOOLS

ROOT = Path(__file__).parents[2]


def test_the_packaged_guide_is_the_repositorys() -> None:
    assert agent_guide() == (ROOT / "AGENT_GUIDE.md").read_text(encoding="utf-8")


def test_every_tool_the_guide_names_exists_and_the_core_loop_is_covered() -> None:
    guide = agent_guide()
    named = set(re.findall(r"`([a-z_]+)\(", guide)) | set(re.findall(r"`([a-z_]+)`", guide))
    tools = {n for n in named if n in FULL_TOOLS}
    calls = set(re.findall(r"`([a-z_]+)\(", guide))
    assert calls <= set(FULL_TOOLS), calls - set(FULL_TOOLS)
    assert set(CORE_TOOLS) <= tools  # the guide says when to call each core tool
    assert re.search(r"[\u4e00-\u9fff]", guide)  # Chinese trigger phrases too


def test_the_guide_facts_name_only_what_every_reader_can_call() -> None:
    """The facts under /memory serve the CLI and both MCP profiles with one text: each
    command they name is one the CLI has, and any MCP tool they name is one the core
    profile (the smallest) offers (decision 0154)."""
    from embornal.interfaces.catalog import whole
    from embornal.storage.common.guide import GUIDE_FACTS

    commands = {o.cli for o in whole() if o.cli}
    for text in GUIDE_FACTS:
        for command in re.findall(r"`embornal (memory [a-z_-]+)", text):
            assert command in commands, (command, text)
        named = re.findall(r"\(MCP: ([a-z_, ]+)\)", text) + re.findall(r"\b([a-z_]+)\(", text)
        tools = {t.strip() for group in named for t in group.split(",")}
        assert tools <= set(CORE_TOOLS), (tools - set(CORE_TOOLS), text)

"""memory-as-history 1.3 clients over ``embornal mcp --profile full``: the fields they
read are answered beside embornal's own (both names where one was renamed), and the keys
the results document are present when null (docs/mcp.md, "memory-as-history
compatibility")."""

from __future__ import annotations

import json

import pytest
from tests.mcp.mcp_helpers import call, connect

from embornal import FixedClock, Memory
from embornal.errors import NotFound
from embornal.interfaces.mcp.hints import _BY_CODE, TOOL_CALL, for_model

pytestmark = pytest.mark.anyio


async def test_a_narrative_answers_its_id_sensitivity_and_successor(memory: Memory) -> None:
    async with connect(memory) as client:
        _, first = await call(client, "narrate", {"content": "One.", "reason": "start"})
        assert first["id"] == first["narrative_id"]
        assert first["security_sensitive"] is False and first["superseded_by"] is None
        _, second = await call(client, "narrate", {"content": "Two.", "reason": "moved on"})
        bad, history = await call(client, "narrative_history", {})
        assert not bad
        by_id = {n["id"]: n for n in history}
        assert by_id[first["id"]]["superseded_by"] == second["id"]
        assert by_id[second["id"]]["superseded_by"] is None
        _, recalled = await call(client, "recall", {})
        assert recalled["narrative"]["id"] == second["id"]


async def test_recall_without_a_narrative_answers_narrative_null(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, got = await call(client, "recall", {"query": "anything"})
        assert not bad and "narrative" in got and got["narrative"] is None
        assert "narrative_review" in got and got["narrative_review"] is None


async def test_a_claim_answers_id_content_kind_and_security_sensitive(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, claim = await call(
            client, "create_claim", {"content": "Ships in June.", "kind": "plan", "reason": "x"}
        )
        assert not bad and claim["id"] == claim["claim_id"]
        assert claim["content"] == claim["statement"] == "Ships in June."
        assert claim["kind"] == claim["claim_type"] == "plan"
        assert claim["security_sensitive"] is claim["sensitive"] is False
        _, found = await call(client, "recall_claims", {"include_inactive": True})
        assert [c["id"] for c in found["claims"]] == [claim["id"]]


async def test_a_memory_answers_status_tier_source_and_security_sensitive(
    memory: Memory,
) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Deploys on Fridays.", "source": "ann"})
        assert got["status"] == got["stage"] == "working" and got["tier"] == "archive"
        assert got["source"] == "ann" and got["security_sensitive"] is False
        _, got = await call(client, "promote", {"memory_id": got["id"], "reason": "agreed"})
        assert got["status"] == "consolidated" and got["source"] == "ann"


async def test_recall_anchors_answer_status_and_tier(memory: Memory) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Name: Ana.", "source": "ann"})
        mid = got["memory_id"]
        await call(client, "promote", {"memory_id": mid, "reason": "who she is"})
        await call(client, "corroborate", {"memory_id": mid, "source": "register"})
        await call(client, "pin", {"memory_id": mid, "reason": "identity"})
        bad, got = await call(client, "recall", {"limit": 1})
        assert not bad and [a["id"] for a in got["anchors"]] == [mid]
        anchor = got["anchors"][0]
        assert anchor["status"] == anchor["stage"] == "consolidated"
        assert anchor["tier"] == "testimony"
        _, got = await call(client, "provenance", {"memory_id": mid})
        assert got["origin_known"] is True and got["origin"] == "ann"
        _, unknown = await call(client, "remember", {"content": "Name: Bo."})
        _, got = await call(client, "provenance", {"memory_id": unknown["id"]})
        assert got["origin_known"] is False


async def test_unpin_answers_unpinned_true(memory: Memory) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Name: Ana."})
        mid = got["memory_id"]
        await call(client, "promote", {"memory_id": mid, "reason": "who she is"})
        await call(client, "pin", {"memory_id": mid, "reason": "identity"})
        bad, got = await call(client, "unpin", {"memory_id": mid, "reason": "no longer"})
        assert not bad and got["unpinned"] is True and got["memory_id"] == mid
        assert got["pinned"] is False


# -- arguments ------------------------------------------------------------------------------


async def test_an_unknown_argument_is_refused_with_the_known_ones(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, err = await call(client, "memory_links", {"memory_id": "x", "colour": "red"})
        assert bad and err["error"] == "invalid_input" and "'colour'" in err["message"]
        assert "memory_id" in err["hint"] and "memory_links(" in err["hint"]
        bad, err = await call(client, "store", {"path": "/x", "content": "y", "colour": "red"})
        assert bad and err["error"] == "invalid_input" and "colour" in err["message"]
        with pytest.raises(NotFound):  # refused, not stored without it
            memory.cat("/x")
        bad, got = await call(client, "store", {"topic": "/x", "text": "y"})  # aliases still
        assert not bad and got["path"] == "/x"
        bad, err = await call(client, "search_archive", {"query": "y", "since": "2025-01-01"})
        assert bad and "search_history(" in err["hint"] and "query" in err["hint"]


async def test_remember_keeps_what_the_material_is_its_origin_and_capture_context(
    memory: Memory,
) -> None:
    """memory-as-history 1.3's capture fields are kept and answered (decision 0156); a
    string is text whatever it looks like."""
    async with connect(memory) as client:
        for literal in ("null", "1e999", '{"x":1}'):
            bad, got = await call(
                client,
                "remember",
                {
                    "content": literal,
                    "material_type": "utterance",
                    "origin_id": literal,
                    "capture_context": literal,
                },
            )
            assert not bad, got
            assert got["origin_id"] == got["capture_context"] == literal
            assert got["material_type"] == "utterance"
        _, plain = await call(client, "remember", {"content": "no declaration"})
        assert plain["material_type"] == "unspecified"
        assert plain["origin_id"] is None and plain["capture_context"] is None
        for wrong in (
            {"material_type": "poem"},
            {"material_type": True},
            {"origin_id": " "},
            {"capture_context": 7},
            {"origin_id": "x" * 1001},
        ):
            bad, err = await call(client, "remember", {"content": "refused", **wrong})
            assert bad and err["error"] == "invalid_input", (wrong, err)
            assert next(iter(wrong)) in err["message"] + err.get("hint", "")
        assert len(memory.due_for_consolidation()) == 4  # the refused wrote nothing


async def test_revise_claim_takes_old_id(memory: Memory) -> None:
    async with connect(memory) as client:
        _, old = await call(client, "create_claim", {"content": "June.", "kind": "plan"})
        await call(
            client,
            "add_evidence",
            {"claim_id": old["id"], "source": "notice", "stance": "supports", "reason": "notice"},
        )
        await call(client, "adopt_claim", {"claim_id": old["id"], "reason": "the plan"})
        bad, got = await call(
            client, "revise_claim", {"old_id": old["id"], "statement": "July.", "reason": "moved"}
        )
        assert not bad, got
        _, got = await call(client, "inspect_claim", {"claim_id": old["id"]})
        assert got["content"] == "July."


@pytest.mark.parametrize("text", ["null", "[]", '{"a": 1}', "true", "12"])
async def test_a_text_argument_is_the_text_given(memory: Memory, text: str) -> None:
    async with connect(memory) as client:
        bad, got = await call(client, "remember", {"content": text, "source": text, "frame": text})
        assert not bad and got["content"] == text and got["source"] == text
        assert got["frame"] == text
        bad, got = await call(client, "provenance", {"memory_id": got["memory_id"]})
        assert not bad and got["origin"] == text and got["needed"] == 1


async def test_structured_arguments_still_take_json_text(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, got = await call(client, "store", {"path": "/x", "content": "y", "tags": '["a=b"]'})
        assert not bad and got["tags"] == ["a=b"]


async def test_unpin_refuses_a_blank_reason_and_keeps_the_legacy_form(memory: Memory) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "remember", {"content": "Name: Ana."})
        mid = got["memory_id"]
        await call(client, "promote", {"memory_id": mid, "reason": "who she is"})
        await call(client, "pin", {"memory_id": mid, "reason": "identity"})
        bad, err = await call(client, "unpin", {"memory_id": mid, "reason": "   "})
        assert bad and err["error"] == "invalid_input" and "blank" in err["message"]
        bad, got = await call(client, "unpin", {"memory_id": mid})
        assert not bad and got["unpinned"] is True and got["pinned"] is False


# -- hints name the profile's tools ---------------------------------------------------------


def _called(text: str) -> set[str]:
    return {c[:-1] for c in TOOL_CALL.findall(text)}


@pytest.mark.parametrize("profile", ["core", "full"])
async def test_hints_name_only_tools_of_the_profile(memory: Memory, profile: str) -> None:
    async with connect(memory, profile) as client:
        offered = {t.name for t in (await client.list_tools()).tools}
        said = [client.instructions or ""]
        for tool, args in [
            ("no_such_tool", {}),
            ("forget", {"id": "01KD0000000000000000000000", "reason": "gone"}),
            ("recall", {"query": "x", "mode": "vector"}),
            ("store", {"path": "/x", "content": "y", "colour": "red"}),
        ]:
            bad, err = await call(client, tool, args)
            assert bad
            said.append(err["hint"])
        for code in _BY_CODE:
            said.append(for_model("", code=code, tools=offered, example='recall(query="x")'))
    for text in said:
        assert _called(text) <= offered, text
    assert all(TOOL_CALL.search(t) for t in said[1:])


# -- memory-as-history's argument forms -----------------------------------------------------


async def test_a_link_has_an_id_that_unlinks_it(memory: Memory) -> None:
    async with connect(memory) as client:
        _, a = await call(client, "remember", {"content": "Deadline changed to April."})
        _, b = await call(client, "remember", {"content": "Deadline: March."})
        said = {"from_id": a["id"], "to_id": b["id"], "relation": "updates", "reason": "notice"}
        bad, link = await call(client, "link_memories", said)
        assert not bad and link["link_id"] == f"{a['id']}:supersedes:{b['id']}"
        assert link["id"] == link["link_id"]
        _, got = await call(client, "memory_links", {"memory_id": a["id"]})
        assert [n["link_id"] for n in got["linked"]] == [link["link_id"]]
        bad, got = await call(
            client, "unlink_memories", {"link_id": link["link_id"], "reason": "mistaken"}
        )
        assert not bad and got["link_id"] == link["link_id"]
        _, got = await call(client, "memory_links", {"memory_id": a["id"]})
        assert got["linked"] == []
        bad, err = await call(client, "unlink_memories", {"link_id": "nonsense", "reason": "x"})
        assert bad and err["error"] == "invalid_input" and "memory_links(" in err["hint"]


async def test_modes_and_expansion_in_memory_as_history_words(memory: Memory) -> None:
    async with connect(memory) as client:
        turn = {"session_id": "m", "session_position": 0}
        _, a = await call(client, "remember", {"content": "Comet deadline April.", **turn})
        turn["session_position"] = 1
        _, b = await call(client, "remember", {"content": "A signature was missing.", **turn})
        bad, got = await call(client, "search", {"query": "comet", "mode": "lexical"})
        assert not bad and [h["id"] for h in got["hits"]] == [a["id"]]
        bad, got = await call(client, "search_archive", {"query": "comet", "mode": "lexical"})
        assert not bad and [h["id"] for h in got["hits"]] == [a["id"]]
        bad, err = await call(client, "search", {"query": "comet", "mode": "semantic"})
        assert bad and "model" in err["message"], err  # vector: no model is set up here
        for expand, evidence in (("none", []), ("session", [b["id"]]), ("both", [b["id"]])):
            bad, got = await call(
                client, "search_history", {"query": "comet", "expand": expand, "mode": "lexical"}
            )
            assert not bad, got
            assert [e["memory_id"] for e in got["hits"][0]["evidence"]] == evidence
        bad, got = await call(client, "search_history", {"query": "comet", "expand": "links"})
        assert not bad and got["hits"][0]["evidence"] == []


async def test_narrate_global_is_the_default_account(memory: Memory) -> None:
    async with connect(memory) as client:
        _, first = await call(client, "narrate", {"content": "One.", "reason": "start"})
        _, second = await call(
            client, "narrate", {"content": "Two.", "reason": "next", "scope": "global"}
        )
        assert second["version"] == first["version"] + 1 and second["scope"] == "default"
        _, view = await call(client, "current_narrative", {"scope": "global"})
        assert view["narrative"]["id"] == second["id"]
        _, got = await call(client, "recall", {})
        assert got["narrative"]["id"] == second["id"]


# -- refusals as memory-as-history answers them (decision 0143) ----------------------------


async def test_refusals_result_answers_a_plain_result_named_after_the_peer_error(
    memory: Memory,
) -> None:
    async with connect(memory, refusals="result") as client:
        said = {"content": "Name: Ana.", "security_sensitive": True}
        _, got = await call(client, "remember", said)
        args = {"memory_id": got["id"], "reason": "who she is"}
        await call(client, "promote", args)
        for tool, arguments, name, code in [
            ("pin", args, "PermissionError", "protocol_violation"),
            ("remember", {"content": "  "}, "ValueError", "invalid_content"),
            ("provenance", {"memory_id": "01KD0000000000000000000000"}, "KeyError", "not_found"),
            ("timeline", {"frame": "x"}, "ValueError", "invalid_input"),
        ]:
            bad, err = await call(client, tool, arguments)
            assert not bad, err
            assert err["error"] == name and err["message"] and err["hint"], err
            assert code is None or err["code"] == code
        bad, err = await call(client, "search", {"query": "q", "mode": "invalid"})
        assert not bad and err["error"] == "ValueError" and err["hint"]
        # a call the SDK cannot make stays an MCP error, as the peer's does
        bad, err = await call(client, "timeline", {"limit": "many"})
        assert bad and err["error"] == "invalid_input"
        bad, err = await call(client, "no_such_tool", {})
        assert bad and err["error"] == "unknown_tool"


async def test_refusals_are_mcp_errors_by_default(memory: Memory) -> None:
    async with connect(memory) as client:
        bad, err = await call(client, "remember", {"content": "  "})
        assert bad and err["error"] == "invalid_content" and "code" not in err


async def test_flag_sensitive_says_whether_it_lifted_the_anchor(memory: Memory) -> None:
    async with connect(memory) as client:
        _, a = await call(client, "remember", {"content": "Name: Ana."})
        _, b = await call(client, "remember", {"content": "Likes tea."})
        for m in (a, b):
            await call(client, "promote", {"memory_id": m["id"], "reason": "kept"})
        await call(client, "pin", {"memory_id": a["id"], "reason": "identity"})
        bad, got = await call(client, "flag_sensitive", {"memory_id": a["id"], "reason": "claim"})
        assert not bad and got["unpinned_by_sensitivity"] is True and got["pinned"] is False
        bad, got = await call(client, "flag_sensitive", {"memory_id": b["id"], "reason": "claim"})
        assert not bad and got["unpinned_by_sensitivity"] is False
        _, got = await call(client, "remember", {"content": "Other."})
        assert "unpinned_by_sensitivity" not in got


async def test_searches_say_how_they_retrieved_and_the_archive_takes_a_frame(
    memory: Memory,
) -> None:
    async with connect(memory) as client:
        _, got = await call(client, "search", {"query": "question"})
        assert got["memories"] == [] and got["retrieval"]["inference_performed"] is False
        assert got["retrieval"]["priority_policy"] == "anchors_first"
        _, a = await call(client, "remember", {"content": "Outage report, migration."})
        _, b = await call(client, "remember", {"content": "Outage report.", "frame": "ops"})
        bad, got = await call(client, "search_archive", {"query": "outage", "frame": "ops"})
        assert not bad and [h["id"] for h in got["memories"]] == [b["id"]] == [
            h["id"] for h in got["hits"]
        ]
        assert got["retrieval"] == {
            "mode": got["retrieval"]["mode"],
            "priority_policy": "no_reserved_slots",
            "returned_count": 1,
            "inference_performed": False,
        }
        _, got = await call(client, "search_archive", {"query": "outage"})
        assert {h["id"] for h in got["memories"]} == {a["id"], b["id"]}


@pytest.mark.parametrize(
    ("tool", "args"), [("narrate", {"content": "x", "reason": "y"}), ("current_narrative", {})]
)
async def test_a_blank_narrative_scope_is_refused(
    memory: Memory, tool: str, args: dict[str, str]
) -> None:
    async with connect(memory) as client:
        bad, err = await call(client, tool, {**args, "scope": "  "})
        assert bad and err["error"] == "invalid_input" and "scope" in err["message"]
        bad, _ = await call(client, tool, args)
        assert not bad


async def test_the_core_profile_shows_no_guide_fact_naming_tools_it_lacks(
    memory: Memory,
) -> None:
    """The guide under /memory names `cat`, `ls`, `tree`, `supersede` and CLI commands; no
    read of the core profile answers it, so everything a core agent reads names core tools
    only (the instructions and hints: test_hints_name_only_tools_of_the_profile)."""
    from embornal.storage.common.guide import GUIDE_FACTS

    async with connect(memory, "core") as client:
        offered = {t.name for t in (await client.list_tools()).tools}
        assert not {"cat", "ls", "tree", "supersede"} & offered
        reads = [("recall", {}), ("due_for_consolidation", {}), ("audit_log", {})]
        reads += [("recall", {"query": text}) for text in GUIDE_FACTS]
        for tool, args in reads:
            bad, got = await call(client, tool, args)
            assert not bad, got
            said = json.dumps(got)
            assert "/memory" not in said and "MCP:" not in said, (tool, args)
            assert _called(said) <= offered, (tool, args)


async def test_adopt_claim_answers_its_events_and_current_narrative_its_standing(
    memory: Memory, clock: FixedClock
) -> None:
    """memory-as-history's clients read a claim's ``events`` (the adoption's time as an
    ``as_of``) and ``id``/``review_status`` at the top of ``current_narrative``."""
    async with connect(memory) as client:
        _, claim = await call(client, "create_claim", {"content": "June.", "kind": "plan"})
        await call(
            client,
            "add_evidence",
            {"claim_id": claim["id"], "source": "notice", "stance": "supports", "reason": "notice"},
        )
        clock.advance(seconds=0.25)  # within a second: the checkpoint must include it
        bad, adopted = await call(client, "adopt_claim", {"claim_id": claim["id"], "reason": "r"})
        assert not bad and adopted["events"][-1]["action"] == "adopt_claim"
        assert adopted["events"][-1]["claim_id"] == claim["id"]
        at = adopted["events"][-1]["recorded_at"]
        _, past = await call(client, "recall_claims", {"as_of": at})
        assert [c["id"] for c in past["claims"]] == [claim["id"]]
        _, told = await call(client, "narrate", {"content": "Ops.", "reason": "r", "scope": "ops"})
        bad, got = await call(client, "current_narrative", {"scope": "ops"})
        assert not bad and got["id"] == told["id"] and got["review_status"] == "current"
        assert got["usable"] is True and got["narrative"]["content"] == "Ops."


async def test_list_narratives_answers_a_list_and_narratives_their_coverage(
    memory: Memory,
) -> None:
    """memory-as-history reads ``list_narratives()`` as the list of accounts (every scope,
    an unusable one too) and a narrative's ``coverage``."""
    async with connect(memory) as client:
        _, one = await call(
            client, "narrate", {"content": "One.", "reason": "r", "coverage": "null"}
        )
        assert one["coverage"] == "null"
        await call(client, "narrate", {"content": "Ops.", "reason": "r", "scope": "ops"})
        bad, listed = await call(client, "list_narratives", {})
        assert not bad and isinstance(listed, list) and len(listed) == 2
        assert {n["scope"] for n in listed} == {"default", "ops"}


async def test_a_claim_on_a_forgotten_memory_answers_redacted_without_its_text(
    memory: Memory, clock: FixedClock
) -> None:
    """Decision 0168: inspected now or at a past record time, the claim answers
    ``redacted: true``, ``content`` null and a warning naming the restore, nothing of its
    text; a restore shows it again."""
    async with connect(memory) as client:
        _, source = await call(client, "remember", {"content": "June plan", "origin_id": "n-1"})
        made_args = {"content": "June plan", "kind": "plan", "reason": "capture"}
        _, made = await call(client, "create_claim", made_args)
        cite = {"claim_id": made["id"], "memory_id": source["id"], "reason": "June plan notice"}
        await call(client, "add_evidence", cite)
        _, adopted = await call(client, "adopt_claim", {"claim_id": made["id"], "reason": "x"})
        checkpoint = adopted["events"][-1]["recorded_at"]
        clock.advance(seconds=5)
        await call(client, "forget", {"memory_id": source["id"], "reason": "stop recall"})
        for args in ({}, {"as_of": checkpoint}):
            bad, got = await call(client, "inspect_claim", {"claim_id": made["id"], **args})
            assert not bad and got["redacted"] is True and got["content"] is None, got
            assert "June plan" not in json.dumps(got)
            assert "restore(" in got["warning"] and got["withheld_by"] == [source["id"]]
        _, listed = await call(client, "recall_claims", {"include_inactive": True})
        assert listed["claims"][0]["redacted"] and "June plan" not in json.dumps(listed)
        await call(client, "restore", {"memory_id": source["id"], "reason": "back"})
        _, got = await call(client, "inspect_claim", {"claim_id": made["id"]})
        assert got["redacted"] is False and got["content"] == "June plan"
        assert "warning" not in got

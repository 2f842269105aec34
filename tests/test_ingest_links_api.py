"""Ingest links its drafts (decision 0072): each name a draft mentions that resolves, by
the conflicts' entity resolution, to one live entity the subject may read adds an
``about`` link item from the new memory to it; an ambiguous or unknown name adds none."""

from __future__ import annotations

from embornal import Memory
from embornal.domain.conflicts.resolution import EntityProfile, mention_profiles, resolve_mention

CHAT = """User: Remember that my sister Ana Lopez lives in Porto.
User: I had lunch with Marco Rossi yesterday."""


def _person(memory: Memory, name: str, path: str | None = None) -> str:
    where = path or f"/people/{name.replace(' ', '-').lower()}"
    return memory.store(where, f"{name}.", kind="person", attributes={"full_name": name}).id


def test_a_mention_of_a_known_person_is_an_about_link(memory: Memory) -> None:
    ana = _person(memory, "Ana Lopez")
    porto = memory.store(
        "/places/porto", "Porto.", kind="location", attributes={"name": "Porto"}
    ).id
    made = memory.ingest(CHAT, name="chat.txt")
    assert made.title == "ingest chat.txt (rules: 2 memories, 2 about links)"
    links = [i for i in made.items if i.type == "link"]
    first = made.items[0].fact_id
    assert [(i.fields["source"], i.fields["relation"], i.fields["target"]) for i in links] == [
        (first, "about", ana),
        (first, "about", porto),
    ]
    assert links[0].fields["reason"] == "mentions Ana Lopez"
    memory.approve(made.id)
    about = memory.links(ana, relation="subject_of")
    assert [n.fact.content for n in about.nodes] == ["My sister Ana Lopez lives in Porto"]
    assert memory.verify() == []


def test_an_ambiguous_or_unknown_name_links_nothing(memory: Memory) -> None:
    _person(memory, "Ana Lopez")
    _person(memory, "Ana Lopes", "/people/other-ana")  # one letter apart: which one?
    made = memory.ingest(CHAT, name="chat.txt")
    assert [i.type for i in made.items] == ["create", "create"]


def test_only_entities_the_subject_may_read_are_linked(memory: Memory) -> None:
    memory.token_add("alice")
    memory.token_add("bob")
    alice, bob = memory.as_subject("alice"), memory.as_subject("bob")
    alice.store(
        "/private/alice/ana", "Ana Lopez.", kind="person", attributes={"full_name": "Ana Lopez"}
    )
    made = bob.ingest(CHAT, name="chat.txt", path="/private/bob")
    assert [i.type for i in made.items] == ["create", "create"]  # alice's Ana is not seen


def test_resolving_a_mention_is_pure_and_names_one_or_none() -> None:
    (person, org, place) = mention_profiles("Marco Rossi")
    assert (person.kind, org.kind, place.kind) == ("person", "organization", "location")
    marco = EntityProfile("M", "person", ("marco rossi",))
    other = EntityProfile("R", "person", ("marco rosi",))
    acme = EntityProfile("A", "organization", ("acme",))
    assert resolve_mention("Marco Rossi", [marco, acme]) == "M"
    assert resolve_mention("M. Rossi", [marco]) == "M"
    assert resolve_mention("Marco Rossi", [marco, other]) is None
    assert resolve_mention("Giulia", [marco, acme]) is None

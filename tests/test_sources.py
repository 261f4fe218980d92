"""The source records, and the tracing of every ruleset value to them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bolivia.rules.library import shipped_library
from bolivia.rules.provenance import check_claim
from bolivia.rules.sources import shipped_sources
from bolivia.rules.tree import leaf_paths

SOURCES = shipped_sources()
LIBRARY = shipped_library()
SHIPPED = [LIBRARY.load(rid) for rid in LIBRARY.ids()]
SHARED = Path(__file__).resolve().parents[2] / "shared"


def test_one_record_per_source_document() -> None:
    assert set(SOURCES) == {"fr", "zh", "da", "ko", "hu", "ref"}
    documents = {source.document for source in SOURCES.values()}
    assert {
        "000_4693f172fb914178.txt",
        "001_57545e309bc7001f.txt",
        "002_c95da9d8713fd96a.txt",
        "003_9e6234421afacbbd.txt",
        "004_8cfaf9d7719c7086.txt",
    } <= documents
    assert SOURCES["hu"].scope == "out"
    assert all(not claim.fixes for claim in SOURCES["hu"].claims)
    assert {s.language for s in SOURCES.values()} == {"fr", "zh", "da", "ko", "hu", "en"}


def test_every_stated_value_agrees_with_the_claims_it_cites() -> None:
    for ruleset in SHIPPED:
        for path, prov in ruleset.provenance.items():
            if prov.status != "stated":
                continue
            assert prov.claims, f"{ruleset.id}: {path} is stated by no claim"
            sources = LIBRARY.sources_for(LIBRARY.path_of(ruleset.id))  # user records too
            for claim_id in prov.claims:
                problems = check_claim(sources.claim(claim_id), path, ruleset.json)
                assert not problems, f"{ruleset.id}: {problems}"


def _used_by(ruleset_id: str) -> set[str]:
    ruleset = LIBRARY.load(ruleset_id)
    used = set()
    for prov in ruleset.provenance.values():
        used.update(prov.claims)
        used.update(prov.via)
        for alt in prov.alternatives:
            used.update(alt.claims)
    if ruleset.extends_provenance is not None:
        used.update(ruleset.extends_provenance.claims)
    return used


@pytest.mark.parametrize("source_id", ["fr", "da", "zh", "ko", "ref"])
def test_every_claim_is_used_by_its_ruleset_or_marked_not_modelled(source_id: str) -> None:
    for claim in SOURCES[source_id].claims:
        if claim.not_modelled:
            assert len(claim.not_modelled) > 10, claim.id
            continue
        assert claim.about is not None
        owner = {"bolivia": f"bolivia-{source_id}", "canasta": "canasta", "samba": "samba"}
        assert claim.id in _used_by(owner[claim.about]), (
            f"{claim.id} fixes {list(claim.fixes)} but {owner[claim.about]} neither cites it "
            "nor records it as an alternative"
        )


def test_based_on_samba_is_what_bolivia_da_extends_on() -> None:
    da = LIBRARY.load("bolivia-da")
    assert da.extends == "samba"
    assert da.extends_provenance is not None
    assert da.extends_provenance.claims == ("da:based-on-samba",)


def test_the_chinese_and_korean_pages_make_the_same_claims() -> None:
    zh = {c.id.split(":", 1)[1]: c for c in SOURCES["zh"].claims}
    ko = {c.id.split(":", 1)[1]: c for c in SOURCES["ko"].claims}
    assert zh.keys() == ko.keys()
    for name in zh:
        assert (zh[name].about, zh[name].fixes) == (ko[name].about, ko[name].fixes), name


def test_every_leaf_of_every_ruleset_is_traced() -> None:
    for ruleset in SHIPPED:
        for path in leaf_paths():
            prov = ruleset.provenance[path]
            assert prov.status in ("stated", "assumed", "house")
            if prov.status != "stated":
                assert len(prov.reason) > 10, f"{ruleset.id}: {path} has no reason"


def _shingles(text: str, size: int) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


@pytest.mark.skipif(not (SHARED / "reference").is_dir(), reason="shared sources not present")
def test_claims_paraphrase_the_english_reference_never_copy_it() -> None:
    reference = (SHARED / "reference" / "canasta-and-samba.md").read_text(encoding="utf-8")
    copied = _shingles(reference, 9)
    for claim in SOURCES["ref"].claims:
        overlap = _shingles(claim.says, 9) & copied
        assert not overlap, f"{claim.id} copies: {' '.join(next(iter(overlap)))}"

"""Tests for embornal.adapters.config: loading config.yaml and showing it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from embornal.adapters.config import (
    DEFAULT_CONFIG_YAML,
    PROVIDERS,
    Config,
    EmbeddingConfig,
    RecallConfig,
    ServerConfig,
    config_to_dict,
    keys_of,
    load_config,
)
from embornal.errors import ConfigError

NO_ENV: dict[str, str] = {}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _error(tmp_path: Path, text: str) -> ConfigError:
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path, NO_ENV)
    assert str(path) in info.value.message
    assert info.value.hint
    return info.value


# --------------------------------------------------------------------------- defaults


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "nope" / "config.yaml", NO_ENV) == Config()


@pytest.mark.parametrize("text", ["", "# only a comment\n", "---\n"])
def test_empty_file_gives_defaults(tmp_path: Path, text: str) -> None:
    assert load_config(_write(tmp_path, text), NO_ENV) == Config()


def test_empty_section_gives_its_defaults(tmp_path: Path) -> None:
    assert load_config(_write(tmp_path, "embedding:\nrecall: {}\n"), NO_ENV) == Config()


def test_default_config_yaml_loads_to_the_defaults(tmp_path: Path) -> None:
    assert load_config(_write(tmp_path, DEFAULT_CONFIG_YAML), NO_ENV) == Config()


def test_default_config_yaml_mentions_every_key() -> None:
    for section in keys_of(Config):
        assert f"{section}:" in DEFAULT_CONFIG_YAML
        for key in keys_of(type(getattr(Config(), section))):
            assert f"{key}:" in DEFAULT_CONFIG_YAML, key


def test_default_config_yaml_is_commented() -> None:
    assert DEFAULT_CONFIG_YAML.lstrip().startswith("#")


def test_env_none_reads_the_process_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EMBORNAL_EMBEDDING", "off")
    assert load_config(tmp_path / "config.yaml").embedding.provider == "off"
    monkeypatch.delenv("EMBORNAL_EMBEDDING")
    assert load_config(tmp_path / "config.yaml").embedding.provider == "auto"


# --------------------------------------------------------------------------- parsing


def test_full_file_is_parsed(tmp_path: Path) -> None:
    text = """
recall:
  limit: 25
embedding:
  provider: openai
  model: nomic-embed-text
  base_url: http://localhost:8080/v1
  api_key_env: MY_KEY
  dims: 384
  query_prefix: "search_query: "
  document_prefix: "search_document: "
  input_type: true
  batch_size: 8
server:
  url: https://memory.example.org
  token_file: /etc/embornal/token
"""
    cfg = load_config(_write(tmp_path, text), NO_ENV)
    assert cfg == Config(
        recall=RecallConfig(limit=25),
        embedding=EmbeddingConfig(
            provider="openai",
            model="nomic-embed-text",
            base_url="http://localhost:8080/v1",
            api_key_env="MY_KEY",
            dims=384,
            query_prefix="search_query: ",
            document_prefix="search_document: ",
            input_type=True,
            batch_size=8,
        ),
        server=ServerConfig(url="https://memory.example.org", token_file="/etc/embornal/token"),
    )


def test_partial_section_keeps_other_defaults(tmp_path: Path) -> None:
    cfg = load_config(_write(tmp_path, "embedding:\n  dims: 1024\n"), NO_ENV)
    assert cfg.embedding == EmbeddingConfig(dims=1024)
    assert cfg.recall == RecallConfig()


def test_null_for_an_optional_key_is_accepted(tmp_path: Path) -> None:
    cfg = load_config(_write(tmp_path, "embedding:\n  model: null\n"), NO_ENV)
    assert cfg.embedding.model is None


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_provider_is_accepted(tmp_path: Path, provider: str) -> None:
    cfg = load_config(_write(tmp_path, f'embedding:\n  provider: "{provider}"\n'), NO_ENV)
    assert cfg.embedding.provider == provider


@pytest.mark.parametrize("value", ["off", "Off", "OFF", "no", "false"])
def test_bare_off_in_yaml_means_off(tmp_path: Path, value: str) -> None:
    # YAML 1.1 reads a bare off/no/false as the boolean False.
    cfg = load_config(_write(tmp_path, f"embedding:\n  provider: {value}\n"), NO_ENV)
    assert cfg.embedding.provider == "off"


# --------------------------------------------------------------------------- errors


def test_unknown_top_level_key(tmp_path: Path) -> None:
    err = _error(tmp_path, "recal:\n  limit: 3\n")
    assert "'recal'" in err.message
    assert "recall" in err.hint


def test_unknown_section_key(tmp_path: Path) -> None:
    err = _error(tmp_path, "embedding:\n  dim: 384\n")
    assert "'embedding.dim'" in err.message
    assert "dims" in err.hint


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("embedding:\n  dims: '384'\n", "embedding.dims"),
        ("embedding:\n  dims: 3.5\n", "embedding.dims"),
        ("embedding:\n  dims: true\n", "embedding.dims"),
        ("embedding:\n  model: 42\n", "embedding.model"),
        ("embedding:\n  provider: 3\n", "embedding.provider"),
        ("embedding:\n  provider: null\n", "embedding.provider"),
        ("embedding:\n  provider: on\n", "embedding.provider"),
        ("recall:\n  limit: ten\n", "recall.limit"),
        ("server:\n  token: 12345\n", "server.token"),
        ("server:\n  url: [a, b]\n", "server.url"),
    ],
)
def test_wrong_type_names_the_key(tmp_path: Path, text: str, key: str) -> None:
    err = _error(tmp_path, text)
    assert f"'{key}'" in err.message


def test_wrong_type_says_what_was_expected(tmp_path: Path) -> None:
    err = _error(tmp_path, "embedding:\n  model: 42\n")
    assert "a string or null" in err.message


@pytest.mark.parametrize("text", ["embedding: off\n", "embedding: [1, 2]\n", "recall: 5\n"])
def test_section_that_is_not_a_mapping(tmp_path: Path, text: str) -> None:
    err = _error(tmp_path, text)
    assert "must be a mapping" in err.message


@pytest.mark.parametrize("text", ["- a\n- b\n", "just a string\n", "42\n"])
def test_top_level_that_is_not_a_mapping(tmp_path: Path, text: str) -> None:
    _error(tmp_path, text)


@pytest.mark.parametrize("dims", [0, -1])
def test_dims_must_be_positive(tmp_path: Path, dims: int) -> None:
    err = _error(tmp_path, f"embedding:\n  dims: {dims}\n")
    assert "'embedding.dims'" in err.message
    assert "positive" in err.message


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("embedding:\n  batch_size: 0\n", "embedding.batch_size"),
        ("recall:\n  limit: 0\n", "recall.limit"),
        ("rerank:\n  top: 0\n", "rerank.top"),
        ("rerank:\n  batch_size: 0\n", "rerank.batch_size"),
    ],
)
def test_counts_must_be_positive(tmp_path: Path, text: str, key: str) -> None:
    assert f"'{key}'" in _error(tmp_path, text).message


def test_unknown_provider(tmp_path: Path) -> None:
    err = _error(tmp_path, "embedding:\n  provider: ollama\n")
    assert "'embedding.provider'" in err.message
    assert "ollama" in err.message


def test_invalid_yaml_gives_the_line(tmp_path: Path) -> None:
    err = _error(tmp_path, "recall:\n  limit: 3\n embedding: [\n")
    assert "YAML" in err.message
    assert "line" in err.message


def test_tab_indentation_is_invalid_yaml(tmp_path: Path) -> None:
    assert "YAML" in _error(tmp_path, "recall:\n\tlimit: 3\n").message


def test_config_path_that_is_a_directory(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.mkdir()
    with pytest.raises(ConfigError) as info:
        load_config(path, NO_ENV)
    assert str(path) in info.value.message


def test_config_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_bytes(b"recall:\n  limit: \xff\xfe\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, NO_ENV)
    assert str(path) in info.value.message


def test_unsafe_yaml_tags_are_refused(tmp_path: Path) -> None:
    _error(tmp_path, "recall: !!python/object/apply:os.system ['true']\n")


# --------------------------------------------------------------------------- env


@pytest.mark.parametrize("value", ["off", "OFF", " off "])
def test_env_forces_embedding_off(tmp_path: Path, value: str) -> None:
    path = _write(tmp_path, "embedding:\n  provider: onnx\n  dims: 384\n")
    cfg = load_config(path, {"EMBORNAL_EMBEDDING": value})
    assert cfg.embedding.provider == "off"
    assert cfg.embedding.dims == 384


def test_env_forces_off_without_a_file(tmp_path: Path) -> None:
    cfg = load_config(tmp_path / "config.yaml", {"EMBORNAL_EMBEDDING": "off"})
    assert cfg == Config(embedding=EmbeddingConfig(provider="off"))


def test_empty_env_value_is_ignored(tmp_path: Path) -> None:
    path = _write(tmp_path, "embedding:\n  provider: onnx\n")
    assert load_config(path, {"EMBORNAL_EMBEDDING": ""}).embedding.provider == "onnx"


def test_env_does_not_hide_file_errors(tmp_path: Path) -> None:
    path = _write(tmp_path, "embedding:\n  dims: 0\n")
    with pytest.raises(ConfigError):
        load_config(path, {"EMBORNAL_EMBEDDING": "off"})


def test_unknown_env_value_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "config.yaml", {"EMBORNAL_EMBEDDING": "maybe"})
    assert "EMBORNAL_EMBEDDING" in info.value.message
    assert info.value.hint


# --------------------------------------------------------------------------- show


def test_config_to_dict_of_defaults_is_json() -> None:
    out = config_to_dict(Config())
    assert json.loads(json.dumps(out)) == out
    assert out["embedding"]["provider"] == "auto"
    assert out["embedding"]["dims"] == 384
    assert out["recall"] == {"limit": 10}
    assert set(out) == {
        "recall",
        "embedding",
        "rerank",
        "server",
        "ingest",
        "proposals",
        "mcp",
        "storage",
    }
    assert out["rerank"] == {"model": None, "model_path": None, "top": 30, "batch_size": 16}
    assert out["ingest"] == {
        "base_url": None,
        "model": None,
        "api_key_env": None,
        "timeout_s": 120,
        "attempts": 2,
    }
    assert out["proposals"] == {
        "auto_approve_kinds": None,
        "auto_approve_sources": None,
        "assistants_decide": False,
    }


def test_the_proposals_section_takes_lists_of_names(tmp_path: Path) -> None:
    from embornal.adapters.config import proposal_policy

    path = tmp_path / "config.yaml"
    path.write_text(
        "proposals:\n  auto_approve_kinds: [preference]\n  auto_approve_sources: [prune]\n"
        "  assistants_decide: true\n",
        "utf-8",
    )
    policy = proposal_policy(load_config(path, env={}).proposals)
    assert policy.auto_approve_kinds == ("preference",)
    assert policy.auto_approve_sources == ("prune",) and policy.assistants_decide is True
    path.write_text("proposals:\n  auto_approve_kinds: [1]\n", "utf-8")
    with pytest.raises(ConfigError, match="auto_approve_kinds"):
        load_config(path, env={})


def test_config_to_dict_round_trips_through_yaml(tmp_path: Path) -> None:
    cfg = Config(
        recall=RecallConfig(limit=4),
        embedding=EmbeddingConfig(provider="onnx", model_path="/m", dims=384),
        server=ServerConfig(url="https://x.example"),
    )
    path = _write(tmp_path, yaml.safe_dump(config_to_dict(cfg)))
    assert load_config(path, NO_ENV) == cfg


def test_config_to_dict_redacts_the_token() -> None:
    cfg = Config(server=ServerConfig(token="s3cret"))
    assert config_to_dict(cfg)["server"]["token"] == "********"
    assert "s3cret" not in json.dumps(config_to_dict(cfg))
    assert config_to_dict(cfg, redact_secrets=False)["server"]["token"] == "s3cret"


def test_config_to_dict_leaves_an_unset_token_null() -> None:
    assert config_to_dict(Config())["server"]["token"] is None


# --------------------------------------------------------------------------- mcp.tools


def test_mcp_tools_default_core_and_the_file_may_pick_full(tmp_path: Path) -> None:
    assert load_config(tmp_path / "config.yaml", {}).mcp.tools == "core"
    assert load_config(_write(tmp_path, "mcp:\n  tools: full\n"), {}).mcp.tools == "full"


def test_the_environment_picks_the_mcp_tools_over_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "mcp:\n  tools: core\n")
    assert load_config(path, {"EMBORNAL_MCP_TOOLS": " FULL "}).mcp.tools == "full"
    assert load_config(path, {"EMBORNAL_MCP_TOOLS": ""}).mcp.tools == "core"


def test_an_unknown_mcp_profile_is_an_error_naming_the_choices(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="core, full"):
        load_config(_write(tmp_path, "mcp:\n  tools: everything\n"), {})
    with pytest.raises(ConfigError, match="EMBORNAL_MCP_TOOLS"):
        load_config(tmp_path / "none.yaml", {"EMBORNAL_MCP_TOOLS": "most"})


def test_storage_url_from_the_file_and_the_environment(tmp_path: Path) -> None:
    path = _write(tmp_path, "storage:\n  url: postgresql://db.example.org/m\n")
    assert load_config(path, {}).storage.url == "postgresql://db.example.org/m"
    other = "postgresql://other/m"
    assert load_config(path, {"EMBORNAL_DATABASE_URL": other}).storage.url == other
    assert load_config(tmp_path / "none.yaml", {}).storage.url is None
    with pytest.raises(ConfigError, match=r"storage\.url"):
        load_config(_write(tmp_path, "storage:\n  url: just-a-name\n"), {})


def test_the_rerank_section(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("rerank:\n  model: acme/reranker\n  top: 50\n", encoding="utf-8")
    cfg = load_config(path, env={})
    assert (cfg.rerank.model, cfg.rerank.model_path, cfg.rerank.top) == ("acme/reranker", None, 50)
    assert cfg.rerank.batch_size == 16

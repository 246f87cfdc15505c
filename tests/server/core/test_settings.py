"""The service's settings: comma-separated keys, the store's URL, and the request deadline the
LLM budget and the offline fallback need."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from server.core.settings import OFFLINE_REQUEST_TIMEOUT, Settings


def settings(**values) -> Settings:
    return Settings(_env_file=None, **values)


def test_the_store_url_is_off_a_database_url_or_an_sqlite_file_in_the_data_folder(tmp_path):
    assert settings(store="off", database_url="postgresql://x/y").store_url is None
    assert settings(database_url="postgresql://x/y").store_url == "postgresql://x/y"
    url = settings(data_dir=tmp_path).store_url
    assert url == f"sqlite:///{(tmp_path / 'stepgrade.db').resolve()}"
    assert Path(url.removeprefix("sqlite:///")).is_absolute()


def test_the_request_deadline_offline_with_an_llm_and_when_set(monkeypatch):
    for name in ("STEPGRADE_LLM_BASE_URL", "STEPGRADE_LLM_MODEL", "STEPGRADE_REQUEST_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    assert settings().request_seconds == OFFLINE_REQUEST_TIMEOUT
    llm = settings(
        llm_base_url="http://x/v1", llm_model="m", llm_budget=60, offline_fallback_budget=8
    )
    assert llm.request_seconds == 68
    assert (llm.fallback_reserve, llm.service_llm_budget) == (8, 60)
    tight = settings(llm_base_url="http://x/v1", llm_model="m", llm_budget=60, request_timeout=10)
    # half the request is kept for the offline grade when the deadline is short
    assert (tight.request_seconds, tight.fallback_reserve, tight.service_llm_budget) == (10, 5, 5)


@pytest.mark.parametrize(
    "values",
    [{"request_timeout": 0}, {"body_timeout": -1}, {"store": "maybe"}, {"retention_days": 0}],
)
def test_out_of_range_values_are_refused(values):
    with pytest.raises(ValidationError):
        settings(**values)


def test_settings_split_comma_separated_keys(monkeypatch):
    from server.core.settings import Settings

    monkeypatch.setenv("STEPGRADE_API_KEYS", " a ,b,, ")
    keys = Settings(_env_file=None).api_keys
    assert [k.get_secret_value() for k in keys] == ["a", "b"]

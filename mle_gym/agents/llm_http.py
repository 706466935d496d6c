"""The HTTP side of the ``llm`` agent: the openai SDK retries, this module counts and checks.

The openai SDK (3.x) runs the retry loop. It retries HTTP 408, 409, 429 and 5xx
responses, timeouts and connection errors up to ``max_retries`` times; before a
retry it waits what the server asks (``retry-after-ms``, or ``Retry-After`` in
seconds or as an HTTP date, up to 120 s; a response asking for longer is not
retried), else an exponential backoff (0.5 s doubling up to 8 s, minus up to
25 % jitter); and a response's ``x-should-retry: true|false`` header overrides
its status. Other 4xx fail at once.

The SDK sends every attempt through the http client it is given;
:class:`MeteredHttpClient` is that client (an ``openai.DefaultHttpxClient``, so
the SDK's timeouts and connection limits and the proxy settings of the
environment apply) with ``send`` wrapped to:

* count, in :class:`CallStats`, every attempt of a call, the failed ones, the
  seconds spent waiting for responses and the seconds between a failure and the
  next attempt (the SDK's backoff);
* turn a 2xx Chat Completions response the agent cannot use (not JSON, no
  ``choices``, a choice without a ``message``) into :class:`MalformedResponse`,
  a transport error, which the SDK retries like a dropped connection;
* veto the retry (``x-should-retry: false``) of a 429 whose error code is
  ``insufficient_quota`` and of a response whose ``Retry-After`` is longer than
  ``retry_after_max_s`` (at most the SDK's own limit of 120 s, so the SDK's
  refusal of longer waits is covered by this veto).

The parsed body of the successful response is kept on :class:`CallStats` (so it
is parsed once). :func:`retryable` says whether the SDK retries a failure like
its final exception, and :func:`failure_reason` says in one line why it happened.
This module imports ``openai`` and ``httpx2``; the agent imports it only when it
builds its client.
"""

from __future__ import annotations

import email.utils
import json
import time
from dataclasses import dataclass
from typing import Any

import httpx2
import openai


class MalformedResponse(httpx2.DecodingError):
    """A 2xx Chat Completions response the agent cannot use (retried by the SDK)."""


@dataclass
class CallStats:
    """What the attempts of one model call cost (filled in by :class:`MeteredHttpClient`).

    Attributes:
        attempts: HTTP requests sent (the first one and its retries).
        failures: attempts that failed (HTTP error, timeout, connection error,
            malformed response).
        model_seconds: seconds spent in attempts, waiting for the server.
        backoff_seconds: seconds between a failed attempt and the next one.
        retry_after: seconds the last response asked to wait, if it did.
        body: the parsed body of the call's usable 2xx Chat Completions
            response, once one arrived (checked by :func:`parse_body`).
    """

    attempts: int = 0
    failures: int = 0
    model_seconds: float = 0.0
    backoff_seconds: float = 0.0
    retry_after: float | None = None
    body: dict[str, Any] | None = None
    _failed_at: float | None = None

    def begin(self) -> float:
        """Note the start of an attempt; return its start time."""
        now = time.monotonic()
        if self._failed_at is not None:
            self.backoff_seconds += now - self._failed_at
            self._failed_at = None
        self.attempts += 1
        self.retry_after = None
        return now

    def end(self, started: float, *, failed: bool) -> None:
        """Note the end of the attempt started at ``started``."""
        now = time.monotonic()
        self.model_seconds += now - started
        if failed:
            self.failures += 1
            self._failed_at = now


def retry_after(headers: Any) -> float | None:
    """Seconds the server asks to wait (``retry-after-ms``, ``Retry-After``), if any."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
    except (TypeError, ValueError):
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def parse_body(text: str) -> dict[str, Any]:
    """A Chat Completions response body, checked to hold ``choices[0].message``.

    Raises:
        ValueError: the body is not JSON, or not a usable chat completion.
    """
    try:
        body = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise ValueError(f"body is not JSON ({exc}): {text[:200]!r}") from None
    if not isinstance(body, dict):
        raise ValueError(f"body is a JSON {type(body).__name__}, not an object")
    if "error" in body and not body.get("choices"):
        raise ValueError(f"error in a 2xx body: {str(body['error'])[:300]}")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        raise ValueError("no 'choices' in the body")
    first = choices[0]
    if not isinstance(first, dict) or not isinstance(first.get("message"), dict):
        raise ValueError("the first choice has no 'message' object")
    return body


def _error_code(response: httpx2.Response) -> Any:
    """``error.code`` of an error response's JSON body, if there is one."""
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        return None
    return error.get("code") if isinstance(error, dict) else None


class MeteredHttpClient(openai.DefaultHttpxClient):
    """The agent's http client: counts attempts, checks bodies, vetoes some retries.

    Args:
        retry_after_max_s: a response asking to wait longer than this is not retried.
        **kwargs: passed to ``openai.DefaultHttpxClient`` (an ``httpx2.Client``).
    """

    def __init__(self, *, retry_after_max_s: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.retry_after_max_s = retry_after_max_s
        self.stats = CallStats()

    def new_call(self) -> CallStats:
        """Start counting a new model call; return its (live) :class:`CallStats`."""
        self.stats = CallStats()
        return self.stats

    def send(self, request: httpx2.Request, **kwargs: Any) -> httpx2.Response:
        stats = self.stats
        started = stats.begin()
        try:
            response = super().send(request, **kwargs)
            if not kwargs.get("stream"):
                self._check(request, response)
        except Exception:
            stats.end(started, failed=True)
            raise
        stats.end(started, failed=response.status_code >= 400)
        return response

    def _check(self, request: httpx2.Request, response: httpx2.Response) -> None:
        """Keep a usable 2xx body (else MalformedResponse); veto retries we refuse."""
        if response.is_success:
            if request.url.path.endswith("/chat/completions"):
                try:
                    self.stats.body = parse_body(response.text)
                except ValueError as exc:
                    raise MalformedResponse(str(exc), request=request) from None
            return
        wait = retry_after(response.headers)
        self.stats.retry_after = wait
        too_long = wait is not None and wait > self.retry_after_max_s
        no_quota = response.status_code == 429 and _error_code(response) == "insufficient_quota"
        if too_long or no_quota:
            response.headers["x-should-retry"] = "false"


#: statuses the SDK retries besides 5xx (absent an ``x-should-retry`` header)
_RETRIED_STATUSES = frozenset({408, 409, 429})


def retryable(exc: openai.APIError) -> bool:
    """Whether the SDK retries a failure like ``exc`` (its final exception of a call).

    Timeouts, connection errors and malformed responses are retried; an HTTP
    error is if its ``x-should-retry`` header says ``true`` (``false`` also when
    :class:`MeteredHttpClient` vetoed the retry), else if its status is 408, 409,
    429 or 5xx. So a retryable final exception means the retries ran out.
    """
    if isinstance(exc, openai.APIStatusError):
        should_retry = exc.response.headers.get("x-should-retry")
        if should_retry in ("true", "false"):
            return should_retry == "true"
        return exc.status_code in _RETRIED_STATUSES or exc.status_code >= 500
    return isinstance(exc, openai.APIConnectionError)  # APITimeoutError is one too


def failure_reason(exc: openai.APIError, timeout: float) -> str:
    """One line saying why the SDK's final exception ``exc`` happened."""
    cause = exc.__cause__
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {str(exc.message)[:300]}"
    if isinstance(exc, openai.APITimeoutError):
        return f"no response within {timeout:g} s"
    if isinstance(cause, MalformedResponse):
        return f"malformed response: {cause}"
    if isinstance(exc, openai.APIConnectionError):
        return f"connection error: {cause or exc}"
    return f"{type(exc).__name__}: {exc}"

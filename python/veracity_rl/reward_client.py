"""The HTTP client of both reward shims: POST /v1/rewards of `veracity serve-rewards` for a batch of any size.

score(endpoint, items) -> the server's results, in item order.
  * Split to the server's limits. A 413 states them (X-Max-Batch-Items for batch_too_large, X-Max-Body-Bytes for
    body_too_large); they are kept per endpoint, so the next batches are split before they are sent. A 413 that
    states none (a proxy's) halves the batch. One item over the body limit alone is an error naming it.
  * Retry 429 and 503 (busy, stopping, deadline) and a refused or dropped connection (a server restarting) with
    exponential back-off, never sooner than Retry-After: VERACITY_REWARD_BACKOFF seconds (0.5) doubling up to 30 s,
    with jitter, at most VERACITY_REWARD_RETRIES (8) retries, the whole call within VERACITY_REWARD_TIMEOUT (300 s).
  * Any other answer (400: what is wrong with the batch) raises RuntimeError with the server's reason.
Standard library only.
"""
import email.utils
import json
import os
import random
import time
import urllib.error
import urllib.request

TIMEOUT = float(os.environ.get("VERACITY_REWARD_TIMEOUT", "300"))
RETRIES = int(os.environ.get("VERACITY_REWARD_RETRIES", "8"))
BACKOFF = float(os.environ.get("VERACITY_REWARD_BACKOFF", "0.5"))
BACKOFF_CAP = 30.0
ENVELOPE = len(b'{"items": []}')
_limits = {}  # endpoint -> {"batch": items, "body": bytes}, as the server's 413s stated them


class _Budget:  # the time of one call, its splits and retries included
    def __init__(self, seconds):
        self.seconds, self.end = seconds, time.monotonic() + seconds

    def left(self):
        return self.end - time.monotonic()


def score(endpoint, items, timeout=None):
    budget = _Budget(TIMEOUT if timeout is None else timeout)
    sizes = [len(json.dumps(item).encode()) for item in items]
    results = []
    for chunk in _split(endpoint, list(range(len(items))), sizes):
        results.extend(_score_chunk(endpoint, items, sizes, chunk, budget))
    return results


def _split(endpoint, indices, sizes):
    """The indices in runs that fit the limits known for this endpoint (all in one run when none are known)."""
    limits = _limits.get(endpoint, {})
    most, room = limits.get("batch"), limits.get("body")
    runs, run, used = [], [], ENVELOPE
    for i in indices:
        cost = sizes[i] + (2 if run else 0)  # ", " between items
        if run and ((most and len(run) >= most) or (room and used + cost > room)):
            runs.append(run)
            run, used, cost = [], ENVELOPE, sizes[i]
        run.append(i)
        used += cost
    if run:
        runs.append(run)
    return runs


def _score_chunk(endpoint, items, sizes, chunk, budget):
    status, headers, payload = _post(endpoint, json.dumps({"items": [items[i] for i in chunk]}).encode(), budget)
    if status == 200:
        return json.loads(payload)["results"]
    if status == 413:
        if len(chunk) == 1:
            raise RuntimeError(f"veracity reward server {endpoint}: item {chunk[0]} alone ({sizes[chunk[0]]:,} bytes of"
                               f" JSON) is too large: HTTP 413: {_reason(payload)}")
        _learn(endpoint, headers)
        runs = _split(endpoint, chunk, sizes)
        if len(runs) == 1:  # nothing learned that splits it: halve
            runs = [chunk[:len(chunk) // 2], chunk[len(chunk) // 2:]]
        return [r for run in runs for r in _score_chunk(endpoint, items, sizes, run, budget)]
    raise RuntimeError(f"veracity reward server {endpoint}: HTTP {status}: {_reason(payload)}")


def _learn(endpoint, headers):
    limits = _limits.setdefault(endpoint, {})
    for key, header in (("batch", "X-Max-Batch-Items"), ("body", "X-Max-Body-Bytes")):
        value = headers.get(header)
        if value and value.strip().isdigit() and int(value) > 0:
            limits[key] = int(value)


def _post(endpoint, body, budget):
    """(status, headers, body) of the first answer that is not 429 or 503, retried as the module says."""
    why = None
    for attempt in range(RETRIES + 1):
        left = budget.left()
        if left <= 0:
            break
        request = urllib.request.Request(endpoint, body, {"Content-Type": "application/json"})
        retry_after = None
        try:
            with urllib.request.urlopen(request, timeout=left) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as e:
            payload = e.read()
            if e.code not in (429, 503):
                return e.code, e.headers, payload
            why, retry_after = f"HTTP {e.code}: {_reason(payload)}", _seconds(e.headers.get("Retry-After"))
        except urllib.error.URLError as e:
            if isinstance(e.reason, TimeoutError):
                why = "timed out"
                break
            if not isinstance(e.reason, ConnectionError):
                raise RuntimeError(f"veracity reward server {endpoint}: {e.reason}") from None
            why = f"{type(e.reason).__name__}: {e.reason}"
        except ConnectionError as e:  # the connection dropped after the request went out (RemoteDisconnected, reset)
            why = f"{type(e).__name__}: {e}"
        except TimeoutError:
            why = "timed out"
            break
        if attempt == RETRIES:
            raise RuntimeError(f"veracity reward server {endpoint}: {why} (after {RETRIES} retries)")
        wait = max(retry_after or 0.0, min(BACKOFF_CAP, BACKOFF * 2 ** attempt) * random.uniform(0.5, 1.0))
        if wait >= budget.left():
            why += f", to retry after {wait:.1f} s"
            break
        time.sleep(wait)
    raise RuntimeError(f"veracity reward server {endpoint}: no answer within {budget.seconds:g} s"
                       f" (VERACITY_REWARD_TIMEOUT){'; last: ' + why if why else ''}")


def _seconds(retry_after):
    """Retry-After as seconds from now: a number of seconds or an HTTP date; None when absent or unreadable."""
    if not retry_after:
        return None
    try:
        return max(0.0, float(retry_after))
    except ValueError:
        try:
            return max(0.0, email.utils.parsedate_to_datetime(retry_after).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


def _reason(payload):
    text = payload.decode(errors="replace")
    try:
        return json.loads(text)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return text

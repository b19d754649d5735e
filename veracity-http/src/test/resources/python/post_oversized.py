"""POSTs a JSON body of about SIZE bytes to URL, TIMES times, each on a new connection, with Python's urllib (as the
openai client's transport does: the whole body is written before the answer is read), and prints what it read:
{"bytes": n, "answers": {"413 body_too_large": 20}, "max_body": "1048576"}. A broken pipe or reset shows as its
exception's name.

argv: URL SIZE TIMES
"""
import collections
import json
import sys
import urllib.error
import urllib.request

url, size, times = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
body = json.dumps({"messages": [{"role": "user", "content": "x" * size}]}).encode()
answers, max_body = collections.Counter(), None
for _ in range(times):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, body, {"Content-Type": "application/json"}),
                                    timeout=60) as response:
            answers[str(response.status)] += 1
    except urllib.error.HTTPError as e:
        answers[f"{e.code} {json.loads(e.read())['error']['code']}"] += 1
        max_body = e.headers.get("X-Max-Body-Bytes")
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        answers[type(reason).__name__] += 1
print(json.dumps({"bytes": len(body), "answers": answers, "max_body": max_body}))

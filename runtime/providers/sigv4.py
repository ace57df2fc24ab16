"""AWS Signature Version 4 for one request (what Bedrock's API takes), with the standard library only.

The canonical request (method, path with each segment URI-encoded twice as every service but S3 wants,
sorted query, the signed headers, the body's SHA-256), the string to sign over the credential scope
``<date>/<region>/<service>/aws4_request``, and the signing key chained by HMAC from the secret. Checked
against AWS's published test vector (tests/runtime/test_providers_bedrock.py).
"""
from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime
from urllib.parse import quote, urlsplit


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign(method: str, url: str, headers: dict[str, str], body: bytes, *, access_key: str, secret_key: str,
         region: str, service: str, session_token: str | None = None, now: datetime | None = None) -> dict[str, str]:
    """The headers to add to the request: ``x-amz-date``, ``authorization`` (and the session token)."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    amz_date, day = moment.strftime("%Y%m%dT%H%M%SZ"), moment.strftime("%Y%m%d")
    parts = urlsplit(url)
    added = {"x-amz-date": amz_date}
    if session_token:
        added["x-amz-security-token"] = session_token
    signed = {k.lower().strip(): " ".join(str(v).split()) for k, v in {**headers, **added}.items()}
    signed["host"] = parts.netloc
    names = sorted(signed)
    path = "/".join(quote(segment, safe="-_.~") for segment in (parts.path or "/").split("/"))
    query = "&".join(sorted(f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}"
                            for k, _, v in (pair.partition("=") for pair in parts.query.split("&") if pair)))
    canonical = "\n".join([method.upper(), path, query, *(f"{n}:{signed[n]}" for n in names), "",
                           ";".join(names), hashlib.sha256(body).hexdigest()])
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = _hmac(_hmac(_hmac(_hmac(f"AWS4{secret_key}".encode(), day), region), service), "aws4_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    added["authorization"] = (f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, "
                              f"SignedHeaders={';'.join(names)}, Signature={signature}")
    return added

"""Runs the official Python client (springernature-api-client) against a base URL, as a user would.

Usage: python springernature_driver.py '{"base": URL, "key": KEY, "api": "meta"|"metadata"|"openaccess",
        "q": QUERY, "p": 10, "s": 1, "fetch_all": false, "is_premium": false}'
Prints one line of JSON on stdout: {"records": [DOI, ...], "error": null | {"type": NAME, "message": TEXT},
"rateLimitWarnings": N}. The client's own prints go to stderr. Run it in a scratch folder: the client's
logging writes api_client.log into the working directory.

The client (0.0.10) takes its base URL from the class attribute SpringerNatureAPI.BASE_URL (joined to the
endpoint path without a slash), sends q, p, s and api_key, pages by s += p up to s <= 100 (500 with
is_premium) whether or not records come, never follows nextPage, sleeps Retry-After on a 429 (max_retries
times), and turns every other status (401, 403, the 2026 "no data" 404) into APIRequestError.
"""
import contextlib
import json
import logging
import sys

from springernature_api_client.api_client import SpringerNatureAPI
from springernature_api_client.exceptions import APIError
from springernature_api_client.meta import MetaAPI
from springernature_api_client.metadata import MetadataAPI
from springernature_api_client.openaccess import OpenAccessAPI


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def main():
    args = json.loads(sys.argv[1])
    SpringerNatureAPI.BASE_URL = args["base"].rstrip("/") + "/"
    collect = Collect()
    logging.getLogger("api_client").addHandler(collect)
    api = {"meta": MetaAPI, "metadata": MetadataAPI, "openaccess": OpenAccessAPI}[args["api"]](api_key=args["key"])
    out = {"records": [], "error": None}
    with contextlib.redirect_stdout(sys.stderr):
        try:
            result = api.search(q=args["q"], p=args.get("p", 10), s=args.get("s", 1), fetch_all=args.get("fetch_all", False), is_premium=args.get("is_premium", False))
            out["records"] = [r.get("doi") for r in result["records"]]
        except APIError as err:
            out["error"] = {"type": type(err).__name__, "message": str(err)}
    out["rateLimitWarnings"] = sum(1 for m in collect.messages if m.startswith("Rate limit hit"))
    print(json.dumps(out))


main()

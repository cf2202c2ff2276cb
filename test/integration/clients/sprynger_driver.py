"""Runs sprynger (the most used community client) against a base URL, as a user would.

Usage: python sprynger_driver.py '{"base": URL, "key": KEY, "api": "Meta"|"Metadata"|"OpenAccess",
        "query": TEXT, "fields": {FIELD: VALUE}, "nr_results": 10, "premium": false}'
Prints one line of JSON on stdout: {"records": [DOI, ...], "total": N, "warnings": [TEXT, ...],
"error": null | {"type": NAME, "message": TEXT, "status": N}}. Set XDG_CACHE_HOME to a scratch folder:
init() creates its cache folders there (the driver asks for no caching).

sprynger 0.4.3 builds `{BASE_URL}/{path}/{format}` from the module attribute sprynger.base.BASE_URL
(`//meta/v2/json` for Meta: a doubled slash; `/metadata/json`; `/openaccess/jats`, JATS XML, for
OpenAccess), sends q, s, p (at most 25 basic, 100 premium, 20 open access) and api_key, asks
min(nr_results, total) records in pages, retries 429 and 5xx with urllib3 (honouring Retry-After),
takes the 2026 "no data" 404 as an empty result (a UserWarning), and raises AuthenticationError for
401 and 403 alike.
"""
import json
import sys
import warnings

import sprynger.base
from sprynger import Meta, Metadata, OpenAccess, init
from sprynger.exceptions import APIError


def main():
    args = json.loads(sys.argv[1])
    sprynger.base.BASE_URL = args["base"].rstrip("/")
    init(api_key=args["key"])
    cls = {"Meta": Meta, "Metadata": Metadata, "OpenAccess": OpenAccess}[args["api"]]
    out = {"records": [], "total": None, "warnings": [], "error": None}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = cls(args.get("query", ""), nr_results=args.get("nr_results", 10), premium=args.get("premium", False), cache=False, **args.get("fields", {}))
            if args["api"] == "OpenAccess":
                out["records"] = [doc.doi for doc in result]
                out["total"] = result.documents_found
            else:
                out["records"] = [r.doi for r in result]
                out["total"] = result.results.total
        except APIError as err:
            out["error"] = {"type": type(err).__name__, "message": str(err), "status": err.status_code}
        except Exception as err:  # what the client does with a record or answer it cannot read
            out["error"] = {"type": type(err).__name__, "message": str(err), "status": None}
    out["warnings"] = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    print(json.dumps(out))


main()

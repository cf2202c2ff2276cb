#!/usr/bin/python3
"""Parses one RDF file with Debian's Python rdflib (python3-rdflib) and prints its triple count.

    scripts/rdflib-parse.py FILE [FORMAT] [--ntriples | --nquads]

FORMAT is one of turtle, ntriples, nquads, trig, jsonld, rdfxml (or rdflib's own names: nt, json-ld,
xml); without it, the format comes from the extension (.ttl .nt .nq .trig .jsonld .json .rdf .xml
.owl, each optionally .gz). Prints the number of triples (quads for N-Quads and TriG) on stdout and
exits 0; on a parse error prints the error on stderr and exits 1; a usage error exits 2. With
--ntriples it prints the graph (all graphs' triples, for N-Quads and TriG) as N-Triples instead of
the count; with --nquads, every quad with its graph as N-Quads (the default graph's as triples).

A second, independent judge next to Jena's riot: rdflib 6.1 reads JSON-LD 1.1, which Jena 4.5
on Debian cannot. Run it with /usr/bin/python3 (Debian's), not a virtualenv's python.
"""
import gzip
import sys

FORMATS = {
    "turtle": "turtle", "ttl": "turtle",
    "ntriples": "nt", "n-triples": "nt", "nt": "nt",
    "nquads": "nquads", "n-quads": "nquads", "nq": "nquads",
    "trig": "trig",
    "jsonld": "json-ld", "json-ld": "json-ld", "json": "json-ld",
    "rdfxml": "xml", "rdf/xml": "xml", "xml": "xml", "rdf": "xml", "owl": "xml",
}


def main(argv):
    as_ntriples = "--ntriples" in argv
    as_nquads = "--nquads" in argv
    argv = [a for a in argv if a not in ("--ntriples", "--nquads")]
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    path = argv[1]
    if len(argv) == 3:
        name = argv[2].lower()
    else:
        base = path[:-3] if path.lower().endswith(".gz") else path
        name = base.rsplit(".", 1)[-1].lower() if "." in base else ""
    fmt = FORMATS.get(name)
    if fmt is None:
        print(f"rdflib-parse: unknown format {name!r}", file=sys.stderr)
        return 2
    try:
        import rdflib
    except ImportError:
        print("rdflib-parse: python3-rdflib is not installed (apt-get install python3-rdflib)", file=sys.stderr)
        return 127
    opener = gzip.open if path.lower().endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            data = f.read()
        if fmt in ("nquads", "trig"):
            g = rdflib.ConjunctiveGraph()
        else:
            g = rdflib.Graph()
        g.parse(data=data, format=fmt, publicID="file://" + path)
        count = len(g)
        if as_nquads:
            text = g.serialize(format="nquads")
            text = text.decode("utf-8") if isinstance(text, bytes) else text
            # rdflib puts the default graph's triples in a graph named by publicID: written back as triples.
            suffix = " <file://" + path + "> .\n"
            sys.stdout.write("".join(l[: -len(suffix)] + " .\n" if l.endswith(suffix) else l for l in text.splitlines(True)))
            return 0
        if as_ntriples:
            out = rdflib.Graph()
            for s, p, o in g.triples((None, None, None)):
                out.add((s, p, o))
            text = out.serialize(format="nt")
            sys.stdout.write(text.decode("utf-8") if isinstance(text, bytes) else text)
            return 0
    except Exception as e:  # noqa: BLE001 - any failure is a parse failure for the caller
        print(f"rdflib-parse: {path}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Independent oracle for shardline's listings, built from the seed's own functions.

Reads JSON on stdin: {"boundaries": [...], "shards": N, "titles": [...], "filters": [...]}.
Writes JSON: for each title its normalized form, range shard and hash shard (the seed's
bisect and sha256 functions), and for each filter the matching title indexes in
ascending order. Python compares str by code point, which is DynamoDB's UTF-8 byte order.
"""
import bisect
import json
import sys
import unicodedata
from hashlib import sha256


def normalize(s):
    return unicodedata.normalize('NFKD', s.lower())


def main():
    spec = json.load(sys.stdin)
    boundaries = spec['boundaries']
    shards = spec['shards']
    normalized = [normalize(t) for t in spec['titles']]
    order = sorted(range(len(normalized)), key=lambda i: normalized[i])

    def matches(f, n):
        if f['kind'] == 'all':
            return True
        if f['kind'] == 'key':
            return n == normalize(f['key'])
        if f['kind'] == 'prefix':
            return n.startswith(normalize(f['prefix']))
        lo = normalize(f['from']) if 'from' in f else None
        hi = normalize(f['to']) if 'to' in f else None
        return (lo is None or lo <= n) and (hi is None or n <= hi)

    json.dump({
        'normalized': normalized,
        'range': [bisect.bisect(boundaries, n) - 1 for n in normalized],
        'hash': [int.from_bytes(sha256(n.encode()).digest(), 'big') % shards for n in normalized],
        'filters': [[i for i in order if matches(f, normalized[i])] for f in spec['filters']],
    }, sys.stdout)


main()

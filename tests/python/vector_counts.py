"""Counts a vector suite's results from pytest's JUnit XML (run by scripts/test-python.sh).

usage: python vector_counts.py RESULTS.xml

Prints JSON: the hand-written vectors that passed, by file (`valid`, `invalid`,
`unknown`); the generated ones (`generated`: `valid`, `invalid`, `unenforced`,
`unknown`); the documented divergences (expected failures); and `failed`.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

hand = {"valid": 0, "invalid": 0, "unknown": 0}
generated = {"valid": 0, "invalid": 0, "unenforced": 0, "unknown": 0}
documented = failed = 0
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    match = re.match(r"test_\w+\[[^/]+/(generated/)?(\w+)/", case.get("name", ""))
    if match is None:
        continue
    skipped = case.find("skipped")
    if case.find("failure") is not None or case.find("error") is not None:
        failed += 1
    elif skipped is not None and "xfail" in (skipped.get("type") or ""):
        documented += 1
    elif skipped is None:
        (generated if match.group(1) else hand)[match.group(2)] += 1
print(json.dumps({**hand, "generated": generated, "documented": documented, "failed": failed}))

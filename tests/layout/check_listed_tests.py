#!/usr/bin/env python3
"""Every test named in a CMake list (the unit tests labelled slow by name) is a test of the
executable: a renamed test would otherwise drop out of the list unseen and run in make test.
Usage: check_listed_tests.py EXECUTABLE NAME..."""
import subprocess
import sys

exe, names = sys.argv[1], sys.argv[2:]
# Catch2 2.x exits with the number of tests listed: the output is what counts.
listed = set(subprocess.run([exe, "--list-test-names-only"], capture_output=True, text=True).stdout.splitlines())
missing = [n for n in names if n not in listed]
for n in missing:
    print("not a test of %s: %s" % (exe, n))
if missing:
    sys.exit("%d listed names are no test" % len(missing))
print("all %d listed names are tests" % len(names))

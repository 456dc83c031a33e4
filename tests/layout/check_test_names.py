#!/usr/bin/env python3
"""Catch2 test names that ctest can register one by one.

catch_discover_tests (tests/CMakeLists.txt) reads the unit tests' names as a CMake list:
a name holding '[' or ']' (or ';') unbalances it, and every test case after it in the
listing is merged into one ctest entry that runs them all under one name. This check
reads each TEST_CASE's name in the given folder and names every such one.

Usage: check_test_names.py tests/unit   (exit 1 naming the file and line of each bad name)
       check_test_names.py --self-test  (shows that the check catches such a name)
"""
import pathlib
import re
import sys

NAME = re.compile(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"')


def bad_names(text):
    """(line, name) of each TEST_CASE name that holds a character CMake lists mind."""
    out = []
    for m in NAME.finditer(text):
        if any(ch in m.group(1) for ch in "[];"):
            out.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def main(argv):
    if argv[1:] == ["--self-test"]:
        bad = bad_names('TEST_CASE("fine name", "[tag]")\nTEST_CASE("a share in (0, 1]", "[tag]")\n')
        ok = bad == [(2, "a share in (0, 1]")]
        print("self-test:", "caught" if ok else f"missed ({bad})")
        return 0 if ok else 1
    found = 0
    for path in sorted(pathlib.Path(argv[1]).glob("*.cpp")):
        for line, name in bad_names(path.read_text()):
            print(f"{path}:{line}: test name holds '[', ']' or ';' (ctest would merge the tests after it): {name}")
            found += 1
    print(f"{found} test names ctest cannot register alone" if found else "every test name can be registered alone")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

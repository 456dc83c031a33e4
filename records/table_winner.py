#!/usr/bin/env python3
"""Print the winning schedule of one case of a 70-case table (femgpu-bench's JSON rows).

Usage: table_winner.py TABLE.json OPERATOR DIM DEGREE
Prints nothing where the table has no such row. The forced-schedule scripts
(run_mma_forced.sh, experiments/mma_*_ab.sh) time each case's recorded winner beside
their own shapes.
"""
import json
import sys


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__.strip().splitlines()[2])
    table, op, dim, degree = argv[1], argv[2], int(argv[3]), int(argv[4])
    for row in json.load(open(table)):
        if row["operator"] == op and row["dim"] == dim and row["degree"] == degree:
            print(row["schedule"])


if __name__ == "__main__":
    main(sys.argv)

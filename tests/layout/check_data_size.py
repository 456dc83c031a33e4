#!/usr/bin/env python3
"""share/femgpu, the data folder that make install copies whole, stays small: at most
LIMIT_MIB of files. Benchmark records belong in records/, set-up scripts in scripts/.
Usage: check_data_size.py FOLDER LIMIT_MIB"""
import os
import sys

folder, limit = sys.argv[1], float(sys.argv[2])
sizes = [os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(folder) for f in files]
mib = sum(sizes) / 2**20
print("%s: %.2f MiB in %d files (limit %g MiB)" % (folder, mib, len(sizes), limit))
if mib > limit:
    sys.exit("%s is over %g MiB: records go in records/, scripts in scripts/" % (folder, limit))

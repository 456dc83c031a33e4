"""What the summarizers of records/solvers/ read from PETSc's logs: a log's text (plain or
gzipped) and the event table of -log_view."""
import gzip


def read(path):
    """The text of a log, gzipped or not."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return f.read()


def events(text, names):
    """{event: (count, max time s)} of the named events in -log_view's table (first stage)."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) > 4 and parts[0] in names and parts[0] not in out:
            try:
                out[parts[0]] = (int(parts[1]), float(parts[3]))
            except ValueError:
                pass
    return out

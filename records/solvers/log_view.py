"""What the summarizers of records/solvers/ read from PETSc's logs: a log's text (plain or
gzipped) and the event table of -log_view."""
import gzip


def read(path):
    """The text of a log, gzipped or not."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return f.read()


def gpu_seconds(parts):
    """An event line's GPU time: its flops over its GPU flop rate (the `GPU Mflop/s` column,
    sixth from the end of PETSc's device build), where -log_view_gpu_time gave one; None
    otherwise (no GPU flops, or n/a without the GPU timer). It counts the time between the
    GPU timer's start and end in the event, host gaps before a launch included."""
    try:
        flops, rate = float(parts[5]), float(parts[-6])
    except (ValueError, IndexError):
        return None
    return flops / (rate * 1e6) if rate > 0 and flops > 0 else None


def events(text, names):
    """{event: (count, max time s, GPU time s or None)} of the named events in -log_view's
    table (first stage)."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) > 4 and parts[0] in names and parts[0] not in out:
            try:
                out[parts[0]] = (int(parts[1]), float(parts[3]), gpu_seconds(parts) if len(parts) >= 26 else None)
            except ValueError:
                pass
    return out
